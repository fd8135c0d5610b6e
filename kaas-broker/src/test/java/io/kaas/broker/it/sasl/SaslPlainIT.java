package io.kaas.broker.it.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SASL/PLAIN over SASL_PLAINTEXT with the real Java clients: Kafka's behaviour end to end. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SaslPlainIT {

    @TempDir
    Path dir;

    @Test
    void producerConsumerAndAdminLogInAndActAsTheirUser() throws Exception {
        // The ACL authorizer sees the SASL user: alice may do everything here, bob may not write.
        TestBroker.Builder b = SaslClients.plainBroker(dir, Map.of()).acl("""
                allow User:alice CREATE cluster
                allow User:alice WRITE topic:t
                allow User:alice READ topic:t
                allow User:alice DESCRIBE topic:t
                allow User:bob DESCRIBE topic:t
                """);
        try (TestBroker broker = b.start()) {
            try (Admin admin = SaslClients.admin(broker, SaslClients.plain("alice", "alice-secret"))) {
                admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = broker.producer(SaslClients.plain("alice", "alice-secret"))) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("t", 0, "k" + i, "v" + i)).get(20, TimeUnit.SECONDS);
                }
            }
            try (KafkaConsumer<String, String> consumer = broker.consumer(SaslClients.plain("alice", "alice-secret"))) {
                List<ConsumerRecord<String, String>> read = TestBroker.readAll(consumer, new TopicPartition("t", 0),
                    Duration.ofSeconds(20));
                assertThat(read).extracting(ConsumerRecord::value).containsExactly("v0", "v1", "v2", "v3", "v4", "v5",
                    "v6", "v7", "v8", "v9");
            }
            Map<String, Object> bob = new java.util.HashMap<>(SaslClients.plain("bob", "bob-secret"));
            bob.put("enable.idempotence", false); // else the producer id is refused first (no WRITE anywhere)
            try (KafkaProducer<String, String> producer = broker.producer(bob)) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("t", 0, "k", "v")).get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
        }
    }

    @Test
    void aWrongPasswordIsRefusedWithKafkasMessageAndOneLogLineWithoutThePassword() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start(); LogCapture log = new LogCapture()) {
            try (Admin admin = SaslClients.admin(broker, SaslClients.plain("alice", "not-alices-password"))) {
                assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SaslAuthenticationException.class)
                    .hasMessageContaining("Authentication failed: Invalid username or password");
            }
            List<String> failures = log.lines("io.kaas.broker.handler.sasl.FailedAuthentications", Level.INFO);
            assertThat(failures).isNotEmpty().allSatisfy(line -> assertThat(line)
                .contains("User:alice", "127.0.0.1", "SASL_PLAINTEXT", "PLAIN", "Invalid username or password"));
            assertThat(log.lines()).noneMatch(line -> line.contains("not-alices-password"));
        }
    }

    @Test
    void aMechanismTheListenerDoesNotOfferIsRefused() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start()) {
            Map<String, Object> scram = new java.util.HashMap<>(SaslClients.plain("alice", "alice-secret"));
            scram.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-256");
            scram.put(SaslConfigs.SASL_JAAS_CONFIG,
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"x\";");
            try (Admin admin = SaslClients.admin(broker, scram)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(UnsupportedSaslMechanismException.class)
                    .hasMessageContaining("SCRAM-SHA-256").hasMessageContaining("[PLAIN]");
            }
        }
    }

    @Test
    void aPlaintextClientOnTheSaslListenerGetsNowhere() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start();
             Admin admin = SaslClients.admin(broker, Map.of("default.api.timeout.ms", "3000", "request.timeout.ms", "1000"))) {
            assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class);
        }
    }

    @Test
    void withoutTheKeyTheBrokerReadsKafkaServerFromTheJaasFile() throws Exception {
        java.nio.file.Path jaas = java.nio.file.Files.writeString(dir.resolve("kafka_server_jaas.conf"), """
            KafkaServer {
                %s required
                username="admin" password="admin-secret"
                user_alice="alice-secret";
            };
            """.formatted(SaslClients.PLAIN_MODULE));
        System.setProperty("java.security.auth.login.config", jaas.toString());
        try (TestBroker broker = TestBroker.builder(dir).config("listeners", SaslClients.LISTENER + "://127.0.0.1:0")
                .config("sasl.enabled.mechanisms", "PLAIN").start();
             Admin admin = SaslClients.admin(broker, SaslClients.plain("alice", "alice-secret"))) {
            admin.createTopics(List.of(new NewTopic("from-jaas-file", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).contains("from-jaas-file");
        } finally {
            System.clearProperty("java.security.auth.login.config");
        }
    }

    @Test
    void badSaslConfigStopsTheStartNamingTheKey() {
        assertThatThrownBy(() -> SaslClients.plainBroker(dir.resolve("a"), Map.of(
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", SaslClients.PLAIN_MODULE + " required user_alice=\"x\""))
            .start())
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("listener.name.sasl_plaintext.plain.sasl.jaas.config")
            .hasMessageContaining("not terminated by semi-colon");
        assertThatThrownBy(() -> SaslClients.plainBroker(dir.resolve("b"), Map.of(
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", SaslClients.PLAIN_MODULE + " required username=\"a\";"))
            .start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("no user_<NAME>");
        assertThatThrownBy(() -> TestBroker.builder(dir.resolve("c")).config("listeners", "SASL_PLAINTEXT://127.0.0.1:0")
                .start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("sasl.enabled.mechanisms")
            .hasMessageContaining("GSSAPI (Kerberos, Kafka's default) is not supported");
        assertThatThrownBy(() -> SaslClients.plainBroker(dir.resolve("c2"), Map.of("sasl.enabled.mechanisms", " ")).start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("enables no mechanism");
        assertThatThrownBy(() -> SaslClients.plainBroker(dir.resolve("d"), Map.of("sasl.enabled.mechanisms", "PLAIN,GSSAPI"))
            .start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("GSSAPI (Kerberos, Kafka's default) is not supported");
        assertThatThrownBy(() -> SaslClients.plainBroker(dir.resolve("e"), Map.of("sasl.enabled.mechanisms", "PLAIN,MAGIC"))
            .start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("unknown or unsupported SASL mechanism 'MAGIC'");
        assertThatThrownBy(() -> SaslClients.plainBroker(dir.resolve("f"), Map.of("connections.max.reauth.ms", "soon"))
            .start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("connections.max.reauth.ms");
        assertThatThrownBy(() -> SaslClients.plainBroker(dir.resolve("g"),
                Map.of("connection.failed.authentication.delay.ms", "-1")).start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("connection.failed.authentication.delay.ms");
    }
}
