package io.kaas.broker.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.DynamicListenerTls;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Kafka's per-broker dynamic key store update (KIP-226) over the real Admin client on TLS: a refused change answers
 * Kafka's INVALID_REQUEST and changes nothing; an accepted one serves new connections the new certificate, open ones
 * keep theirs, and a restart keeps it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DynamicTlsIT {
    private static final String PASSWORD = "store-pass-2";
    private static final String PREFIX = "listener.name.ssl.";
    private static final ConfigResource BROKER = new ConfigResource(ConfigResource.Type.BROKER, "1");

    @TempDir
    Path dir;

    @Test
    void keyStoreChangesPerBrokerWithoutRestart() throws Exception {
        TestPki oldCa = TestPki.create("old-ca");
        TestPki newCa = TestPki.create("new-ca");
        Path oldKs = oldCa.issue("CN=kaas-broker,O=kaas").keyStore(dir.resolve("old.p12"), "PKCS12", PASSWORD);
        Path newKs = newCa.issue("CN=kaas-broker,O=kaas").keyStore(dir.resolve("new.jks"), "JKS", PASSWORD);
        Path otherDn = newCa.issue("CN=someone-else,O=kaas").keyStore(dir.resolve("other.p12"), "PKCS12", PASSWORD);
        Path noKey = newCa.trustStore(dir.resolve("nokey.p12"), "PKCS12", PASSWORD);
        Path trustOld = oldCa.trustStore(dir.resolve("trust-old.p12"), "PKCS12", PASSWORD);
        Path trustNew = newCa.trustStore(dir.resolve("trust-new.p12"), "PKCS12", PASSWORD);

        Map<String, String> c = new HashMap<>();
        c.put("listeners", "SSL://127.0.0.1:0");
        c.put("ssl.keystore.type", "PKCS12");
        c.put("ssl.keystore.location", oldKs.toString());
        c.put("ssl.keystore.password", PASSWORD);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger logger = (Logger) LoggerFactory.getLogger(DynamicListenerTls.class);
        logger.addAppender(log);
        try (TestBroker broker = TestBroker.builder(dir.resolve("data")).config(c).start();
             Admin old = broker.admin(trusting(trustOld))) {
            old.describeCluster().nodes().get(30, TimeUnit.SECONDS);
            old.listTopics().names().get(30, TimeUnit.SECONDS);

            refused(old, BROKER, Map.of(PREFIX + "ssl.keystore.location", dir.resolve("missing.p12").toString()),
                "Validation of dynamic config update of SSLFactory failed", "no such file");
            refused(old, BROKER, Map.of(PREFIX + "ssl.keystore.type", "JKS", PREFIX + "ssl.keystore.location",
                newKs.toString(), PREFIX + "ssl.keystore.password", "wrong"), "wrong password");
            refused(old, BROKER, Map.of(PREFIX + "ssl.keystore.location", otherDn.toString()),
                "Keystore DistinguishedName does not match:  existing={alias=key, DN=CN=kaas-broker, O=kaas}, "
                    + "new={alias=key, DN=CN=someone-else, O=kaas}");
            refused(old, BROKER, Map.of(PREFIX + "ssl.keystore.location", noKey.toString()), "holds no private key");
            refused(old, new ConfigResource(ConfigResource.Type.BROKER, ""),
                Map.of(PREFIX + "ssl.keystore.location", newKs.toString()),
                "Cannot update these configs at default cluster level, broker id must be specified: "
                    + "Set(listener.name.ssl.ssl.keystore.location)");
            refused(old, BROKER, Map.of("ssl.keystore.location", newKs.toString()),
                "These security configs can be dynamically updated only per-listener using the listener prefix: "
                    + "Set(ssl.keystore.location)");
            assertThat(log.list).anyMatch(e -> e.getFormattedMessage().startsWith("TLS listener SSL: dynamic configs "
                + "refused, nothing changed (ssl.keystore.location: Keystore DistinguishedName does not match"));
            assertThat(config(old, BROKER).get(PREFIX + "ssl.keystore.location")).isNull();
            assertThatThrownBy(() -> listTopics(trusting(trustNew), broker))
                .hasCauseInstanceOf(SslAuthenticationException.class);

            old.incrementalAlterConfigs(Map.of(BROKER, List.of(
                set(PREFIX + "ssl.keystore.type", "JKS"), set(PREFIX + "ssl.keystore.location", newKs.toString()),
                set(PREFIX + "ssl.keystore.password", PASSWORD)))).all().get(30, TimeUnit.SECONDS);

            // new connections get the new certificate: only the new CA is trusted now
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> listTopics(trusting(trustNew), broker) != null);
            assertThatThrownBy(() -> listTopics(trusting(trustOld), broker)).hasCauseInstanceOf(
                SslAuthenticationException.class);
            // the open connection keeps its certificate (a new handshake trusting the old CA fails, see above)
            assertThat(old.listTopics().names().get(30, TimeUnit.SECONDS)).isNotNull();
            Config described = config(old, BROKER);
            assertThat(described.get(PREFIX + "ssl.keystore.location").value()).isEqualTo(newKs.toString());
            assertThat(described.get(PREFIX + "ssl.keystore.password").value()).isNull();
            assertThat(described.get(PREFIX + "ssl.keystore.password").isSensitive()).isTrue();

            try (TestBroker again = broker.restart()) {
                assertThat(listTopics(trusting(trustNew), again)).isNotNull();
            }
        } finally {
            logger.detachAppender(log);
        }
    }

    private static Map<String, Object> trusting(Path trustStore) {
        Map<String, Object> c = new HashMap<>();
        c.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        c.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        c.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustStore.toString());
        c.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, PASSWORD);
        c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        c.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        return c;
    }

    private static java.util.Set<String> listTopics(Map<String, Object> ssl, TestBroker broker) throws Exception {
        try (Admin admin = broker.admin(ssl)) {
            return admin.listTopics().names().get(15, TimeUnit.SECONDS);
        }
    }

    private static AlterConfigOp set(String key, String value) {
        return new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET);
    }

    private static Config config(Admin admin, ConfigResource r) throws Exception {
        return admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
    }

    private static void refused(Admin admin, ConfigResource r, Map<String, String> configs, String... message) {
        List<AlterConfigOp> ops = configs.entrySet().stream().map(e -> set(e.getKey(), e.getValue())).toList();
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(r, ops)).all().get(30, TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidRequestException.class)
            .hasMessageContainingAll(message);
    }
}
