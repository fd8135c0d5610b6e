package io.kaas.security.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's broker JAAS file ({@code -Djava.security.auth.login.config}), the fallback of {@code sasl.jaas.config}. */
class JaasFileTest {
    private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule";

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(JaasFile.SYSTEM_PROPERTY);
    }

    private void file(String text) throws Exception {
        System.setProperty(JaasFile.SYSTEM_PROPERTY, Files.writeString(dir.resolve("kafka_server_jaas.conf"), text).toString());
    }

    @Test
    void theKafkaServerSectionConfiguresTheMechanismByItsLoginModule() throws Exception {
        file("""
            // the broker's logins
            KafkaServer {
                %s required username="admin" password="admin-secret";
                %s required
                    username="admin"
                    password="admin-secret"
                    user_admin="admin-secret"
                    user_alice="alice-{secret};";
            };
            /* clients use another file */
            Client { x.Y required; };
            """.formatted(SCRAM, PLAIN));
        JaasModule module = JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN);
        assertThat(module.loginModule()).isEqualTo(PLAIN);
        assertThat(module.option("user_alice")).isEqualTo("alice-{secret};");
        assertThat(PlainMechanism.create(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of())).userNames())
            .containsExactlyInAnyOrder("admin", "alice");
    }

    @Test
    void aListenersOwnSectionWinsAndTheMechanismsKeyWinsOverTheFile() throws Exception {
        file("""
            KafkaServer { %1$s required user_bob="b"; };
            sasl_ssl.KafkaServer { %1$s required user_carol="c"; };
            """.formatted(PLAIN));
        assertThat(PlainMechanism.create(TestSettings.of("SASL_SSL", "PLAIN", Map.of())).userNames()).containsExactly("carol");
        assertThat(PlainMechanism.create(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of())).userNames()).containsExactly("bob");
        assertThat(PlainMechanism.create(TestSettings.of("SASL_PLAINTEXT", "PLAIN",
            Map.of("plain.sasl.jaas.config", PLAIN + " required user_dave=\"d\";"))).userNames()).containsExactly("dave");
    }

    @Test
    void whatIsMissingOrMalformedIsNamed() throws Exception {
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("listener.name.sasl_plaintext.plain.sasl.jaas.config is not set, and there is no JAAS file");
        file("Client { x.Y required; };");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("Could not find a 'KafkaServer' or 'sasl_plaintext.KafkaServer' entry in the JAAS configuration");
        file("KafkaServer { " + SCRAM + " required; };");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("configures no " + PLAIN);
        file("KafkaServer { " + PLAIN + " required user_a=\"x\" };");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("section KafkaServer").hasMessageContaining("not terminated by semi-colon")
            .hasMessageNotContaining("\"x\"");
        file("KafkaServer { " + PLAIN + " required; }");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("is not ended by '};'");
        file("KafkaServer { " + PLAIN + " required;");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("is not closed by '}'");
        file("KafkaServer { a.B required; }; KafkaServer { a.B required; };");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("appears twice");
        System.setProperty(JaasFile.SYSTEM_PROPERTY, dir.resolve("missing.conf").toString());
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), PLAIN))
            .hasMessageContaining("cannot read the JAAS file");
    }
}
