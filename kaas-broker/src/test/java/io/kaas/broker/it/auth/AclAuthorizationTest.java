package io.kaas.broker.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.KaasBroker;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.InitProducerIdRequestData;
import io.kaas.wire.message.InitProducerIdResponseData;
import io.kaas.wire.protocol.Errors;
import io.kaas.plugins.BackendSelectionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's gate with {@code authorizer=acl}, driven by the real Java client on a PLAINTEXT listener
 * (principal {@code User:ANONYMOUS}): Kafka's errors for what the ACL file does not allow.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AclAuthorizationTest {
    @TempDir
    Path dir;

    @Test
    void aProducerAllowedToWriteSucceedsAndAConsumerNotAllowedToReadGetsTopicAuthorizationException() throws Exception {
        try (KaasBroker broker = start("""
                allow * CREATE cluster
                allow User:ANONYMOUS WRITE topic:t
                """)) {
            String bootstrap = bootstrap(broker);
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                RecordMetadata written = producer.send(new ProducerRecord<>("t", 0, "k", "v")).get(20, TimeUnit.SECONDS);
                assertThat(written.offset()).isZero();
            }
            try (KafkaConsumer<String, String> consumer = consumer(bootstrap)) {
                consumer.assign(List.of(new TopicPartition("t", 0)));
                consumer.seekToBeginning(List.of(new TopicPartition("t", 0)));
                assertThatThrownBy(() -> {
                    for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); System.nanoTime() < end; ) {
                        consumer.poll(Duration.ofMillis(200));
                    }
                }).isInstanceOf(TopicAuthorizationException.class)
                        .satisfies(e -> assertThat(((TopicAuthorizationException) e).unauthorizedTopics()).contains("t"));
            }
        }
    }

    @Test
    void aProducerNotAllowedToWriteGetsTopicAuthorizationException() throws Exception {
        try (KaasBroker broker = start("""
                allow * CREATE cluster
                allow * READ topic:ro
                """)) {
            String bootstrap = bootstrap(broker);
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic("ro", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("ro", 0, "k", "v")).get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
        }
    }

    @Test
    void listingTopicsOmitsTheOnesThePrincipalMayNotDescribe() throws Exception {
        try (KaasBroker broker = start("""
                allow * CREATE cluster
                allow * DESCRIBE topic:visible-*
                """)) {
            try (Admin admin = admin(bootstrap(broker))) {
                admin.createTopics(List.of(new NewTopic("visible-1", 1, (short) 1), new NewTopic("hidden", 1, (short) 1)))
                        .all().get(20, TimeUnit.SECONDS);
                assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).containsExactly("visible-1");
                assertThatThrownBy(() -> admin.describeTopics(List.of("hidden")).allTopicNames().get(20, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
                assertThat(admin.describeTopics(List.of("visible-1")).allTopicNames().get(20, TimeUnit.SECONDS))
                        .containsOnlyKeys("visible-1");
            }
        }
    }

    @Test
    void createTopicsWithoutCreatePermissionIsTopicAuthorizationException() throws Exception {
        try (KaasBroker broker = start("""
                allow * CREATE topic:mine-*
                """)) {
            try (Admin admin = admin(bootstrap(broker))) {
                assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("theirs", 1, (short) 1)))
                        .all().get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
                admin.createTopics(List.of(new NewTopic("mine-1", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aTransactionalProducerWithoutRightsOnItsTransactionalIdGetsTransactionalIdAuthorizationFailed() throws Exception {
        try (KaasBroker broker = start("""
                allow * ALL topic:*
                allow * DESCRIBE transactional-id:tx
                """)) {
            String bootstrap = bootstrap(broker);
            try (KafkaProducer<String, String> producer = transactionalProducer(bootstrap, "other")) {
                assertThatThrownBy(producer::initTransactions).isInstanceOf(TransactionalIdAuthorizationException.class);
            }
            try (RawClient raw = new RawClient(broker.boundPort())) {
                raw.send(ApiMessageType.INIT_PRODUCER_ID, (short) 5, 7,
                        new InitProducerIdRequestData().setTransactionalId("tx").setTransactionTimeoutMs(60_000));
                InitProducerIdResponseData denied = raw.<InitProducerIdResponseData>read(ApiMessageType.INIT_PRODUCER_ID,
                        (short) 5).body();
                assertThat(denied.errorCode()).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
                assertThat(denied.producerId()).isEqualTo(-1);
                raw.send(ApiMessageType.INIT_PRODUCER_ID, (short) 5, 8,
                        new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000));
                InitProducerIdResponseData idempotent = raw.<InitProducerIdResponseData>read(ApiMessageType.INIT_PRODUCER_ID,
                        (short) 5).body();
                assertThat(idempotent.errorCode()).isEqualTo(Errors.NONE);
                assertThat(idempotent.producerId()).isNotNegative();
            }
        }
    }

    @Test
    void superUsersAreAllowedEverything() throws Exception {
        Map<String, String> extra = Map.of("super.users", "User:ANONYMOUS");
        try (KaasBroker broker = start("deny * ALL topic:*\n", extra)) {
            String bootstrap = bootstrap(broker);
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic("s", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
                assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).isEqualTo(Set.of("s"));
            }
        }
    }

    @Test
    void anUnknownAuthorizerNameStopsStartUpWithOneLineListingTheNamesAvailable() {
        Map<String, String> config = baseConfig();
        config.put("authorizer", "nope");
        assertThatThrownBy(() -> KaasBroker.start(BrokerConfig.of(config)))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessage("No authorizer named 'nope' (authorizer); available: none, acl");
    }

    @Test
    void aBadAclFileStopsStartUpNamingTheLine() throws IOException {
        assertThatThrownBy(() -> start("allow * READS topic:t\n"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line 1: unknown operation 'READS'");
    }

    private KaasBroker start(String rules) throws IOException {
        return start(rules, Map.of());
    }

    private KaasBroker start(String rules, Map<String, String> extra) throws IOException {
        Path file = Files.writeString(dir.resolve("acl-" + System.nanoTime() + ".rules"), rules);
        Map<String, String> config = baseConfig();
        config.put("authorizer", "acl");
        config.put("authorizer.acl.file", file.toString());
        config.putAll(extra);
        return KaasBroker.start(BrokerConfig.of(config));
    }

    private Map<String, String> baseConfig() {
        Map<String, String> config = new HashMap<>();
        config.put("node.id", "1");
        config.put("listeners", "PLAINTEXT://127.0.0.1:0");
        config.put("log.dirs", dir.resolve("data").toString());
        config.put("plugins.dir", dir.resolve("no-plugins").toString());
        return config;
    }

    private static String bootstrap(KaasBroker broker) {
        return "127.0.0.1:" + broker.boundPort();
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000),
                new StringSerializer(), new StringSerializer());
    }

    private static KafkaProducer<String, String> transactionalProducer(String bootstrap, String transactionalId) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000),
                new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer());
    }
}
