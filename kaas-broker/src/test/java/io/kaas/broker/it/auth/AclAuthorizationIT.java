package io.kaas.broker.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.InitProducerIdRequestData;
import io.kaas.wire.message.InitProducerIdResponseData;
import io.kaas.wire.protocol.Errors;
import io.kaas.plugins.BackendSelectionException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's gate with {@code authorizer=acl}, driven by the real Java client on a PLAINTEXT listener
 * (principal {@code User:ANONYMOUS}): Kafka's errors for what the ACL file does not allow.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AclAuthorizationIT {
    @TempDir
    Path dir;

    @Test
    void aProducerAllowedToWriteSucceedsAndAConsumerNotAllowedToReadGetsTopicAuthorizationException() throws Exception {
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow User:ANONYMOUS WRITE topic:t
                """)) {
                        try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = broker.producer()) {
                RecordMetadata written = producer.send(new ProducerRecord<>("t", 0, "k", "v")).get(20, TimeUnit.SECONDS);
                assertThat(written.offset()).isZero();
            }
            try (KafkaConsumer<String, String> consumer = broker.consumer()) {
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
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow * READ topic:ro
                """)) {
                        try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic("ro", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            // not idempotent: an idempotent producer without WRITE on any topic is refused its producer id first
            try (KafkaProducer<String, String> producer = broker.producer(Map.of(
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.ACKS_CONFIG, "1"))) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("ro", 0, "k", "v")).get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
        }
    }

    @Test
    void listingTopicsOmitsTheOnesThePrincipalMayNotDescribe() throws Exception {
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow * DESCRIBE topic:visible-*
                """)) {
            try (Admin admin = broker.admin()) {
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
        try (TestBroker broker = start("""
                allow * CREATE topic:mine-*
                """)) {
            try (Admin admin = broker.admin()) {
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
        try (TestBroker broker = start("""
                allow * ALL topic:*
                allow * DESCRIBE transactional-id:tx
                """)) {
            try (KafkaProducer<String, String> producer = broker.producer(Map.of(
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "other", ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000))) {
                assertThatThrownBy(producer::initTransactions).isInstanceOf(TransactionalIdAuthorizationException.class);
            }
            try (RawClient raw = new RawClient(broker.port())) {
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
    void anIdempotentProducerNeedsIdempotentWriteOnTheClusterOrWriteOnSomeTopic() throws Exception {
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow * READ topic:ro
                allow * WRITE group:g
                """)) {
            broker.createTopic("ro", 1);
            assertThat(initIdempotent(broker)).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED);
            try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000))) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("ro", 0, "k", "v")).get(20, TimeUnit.SECONDS))
                        .satisfies(e -> assertThat(e instanceof ClusterAuthorizationException
                                || e.getCause() instanceof ClusterAuthorizationException).as(e.toString()).isTrue());
            }
        }
        try (TestBroker broker = start("allow * WRITE topic:logs-*\n")) {
            assertThat(initIdempotent(broker)).as("WRITE on some topic, none of which need exist").isEqualTo(Errors.NONE);
        }
        try (TestBroker broker = start("allow * IDEMPOTENT_WRITE cluster\n")) {
            assertThat(initIdempotent(broker)).isEqualTo(Errors.NONE);
        }
        try (TestBroker broker = start("allow * WRITE topic:logs-eu\ndeny * WRITE topic:logs-*\n")) {
            assertThat(initIdempotent(broker)).as("every topic allowed is denied").isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED);
        }
    }

    /** A raw InitProducerId v5 without a transactional id; its error code. */
    private static short initIdempotent(TestBroker broker) throws IOException {
        try (RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.INIT_PRODUCER_ID, (short) 5, 3,
                    new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000));
            InitProducerIdResponseData response = raw.<InitProducerIdResponseData>read(ApiMessageType.INIT_PRODUCER_ID,
                    (short) 5).body();
            if (response.errorCode() != Errors.NONE) {
                assertThat(response.producerId()).isEqualTo(-1);
            }
            return response.errorCode();
        }
    }

    @Test
    void superUsersAreAllowedEverything() throws Exception {
        Map<String, String> extra = Map.of("super.users", "User:ANONYMOUS");
        try (TestBroker broker = start("deny * ALL topic:*\n", extra)) {
                        try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic("s", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
                assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).isEqualTo(Set.of("s"));
            }
        }
    }

    @Test
    void anUnknownAuthorizerNameStopsStartUpWithOneLineListingTheNamesAvailable() {
        assertThatThrownBy(() -> broker().config("authorizer", "nope").start())
                .isInstanceOf(BackendSelectionException.class)
                .hasMessage("No authorizer named 'nope' (authorizer); available: none, acl");
    }

    @Test
    void aBadAclFileStopsStartUpNamingTheLine() throws IOException {
        assertThatThrownBy(() -> start("allow * READS topic:t\n"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line 1: unknown operation 'READS'");
    }

    private TestBroker start(String rules) throws IOException {
        return start(rules, Map.of());
    }

    private TestBroker start(String rules, Map<String, String> extra) throws IOException {
        return broker().acl(rules).config(extra).start();
    }

    /** No plugins directory: the authorizers available are the built-in ones only. */
    private TestBroker.Builder broker() {
        return TestBroker.builder(dir).pluginsDir(dir.resolve("no-plugins"));
    }
}
