package io.kaas.broker.it.sasl;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.SaslConfigs;

/** Broker and client settings of the SASL tests, with Kafka's own keys. */
final class SaslClients {

    static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    static final String LISTENER = "SASL_PLAINTEXT";

    private SaslClients() {
    }

    /** A broker with one SASL_PLAINTEXT listener offering PLAIN to alice and bob, plus {@code more}. */
    static TestBroker.Builder plainBroker(Path dir, Map<String, String> more) {
        return TestBroker.builder(dir)
            .config("listeners", LISTENER + "://127.0.0.1:0")
            .config("sasl.enabled.mechanisms", "PLAIN")
            .config("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_MODULE + " required "
                + "username=\"admin\" password=\"admin-secret\" user_alice=\"alice-secret\" user_bob=\"bob-secret\";")
            .config(more);
    }

    /** Client settings to log in over SASL_PLAINTEXT with PLAIN as {@code user}. */
    static Map<String, Object> plain(String user, String password) {
        Map<String, Object> p = new HashMap<>();
        p.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, LISTENER);
        p.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, PLAIN_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";");
        return p;
    }

    /** An Admin client of {@code broker} with {@code security}, bounded waits. */
    static Admin admin(TestBroker broker, Map<String, Object> security) {
        return broker.admin(security);
    }
}
