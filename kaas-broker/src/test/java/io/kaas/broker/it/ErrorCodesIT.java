package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The errors a Kafka client expects, surfaced as the client's own exceptions. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ErrorCodesIT {
    @TempDir
    static Path dataDir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dataDir, Map.of("auto.create.topics.enable", "false"));
        admin = broker.admin();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static void create(NewTopic topic) throws Exception {
        admin.createTopics(List.of(topic)).all().get(20, TimeUnit.SECONDS);
    }

    @Test
    void produceToUnknownTopicNeverFindsItInMetadata() {
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1500))) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("no-such-topic", "k", "v")).get(10, TimeUnit.SECONDS))
                    .hasStackTraceContaining("not present in metadata")
                    .satisfies(e -> assertThat(e instanceof TimeoutException || e.getCause() instanceof TimeoutException).isTrue());
        }
        assertThat(admin.listTopics().names().toCompletionStage().toCompletableFuture().join()).doesNotContain("no-such-topic");
    }

    @Test
    void createExistingTopicIsTopicExists() throws Exception {
        create(new NewTopic("exists", 1, (short) 1));
        assertThatThrownBy(() -> create(new NewTopic("exists", 1, (short) 1)))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicExistsException.class);
    }

    @Test
    void invalidCreationsAreRefusedWithKafkasErrors() {
        assertThatThrownBy(() -> create(new NewTopic("bad-partitions", 0, (short) 1)))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidPartitionsException.class);
        assertThatThrownBy(() -> create(new NewTopic("bad-rf", 1, (short) 3)))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidReplicationFactorException.class)
                .cause().hasMessageContaining("the replication factor is 1");
        assertThatThrownBy(() -> create(new NewTopic("bad name!", 1, (short) 1)))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidTopicException.class);
        assertThatThrownBy(() -> create(new NewTopic("bad-config", 1, (short) 1).configs(Map.of("retention.ms", "soon"))))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidConfigurationException.class);
        assertThatThrownBy(() -> create(new NewTopic("unknown-config", 1, (short) 1).configs(Map.of("no.such.config", "1"))))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidConfigurationException.class);
    }

    @Test
    void recordAboveMaxMessageBytesIsRecordTooLarge() throws Exception {
        create(new NewTopic("small-messages", 1, (short) 1).configs(Map.of("max.message.bytes", "1000")));
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("small-messages", "k", "x".repeat(5000)))
                    .get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RecordTooLargeException.class);
            assertThat(producer.send(new ProducerRecord<>("small-messages", "k", "small")).get(10, TimeUnit.SECONDS).offset())
                    .isZero();
        }
    }

    @Test
    void fetchOutOfRangeWithoutResetPolicyIsOffsetOutOfRange() throws Exception {
        create(new NewTopic("out-of-range", 1, (short) 1));
        TopicPartition tp = new TopicPartition("out-of-range", 0);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            producer.send(new ProducerRecord<>(tp.topic(), "k", "v")).get(10, TimeUnit.SECONDS);
        }
        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"))) {
            consumer.assign(Set.of(tp));
            consumer.seek(tp, 50);
            assertThatThrownBy(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200));
                }
            }).isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    @Test
    void longPollAnswersWhenDataArrives() throws Exception {
        create(new NewTopic("long-poll", 1, (short) 1));
        TopicPartition tp = new TopicPartition("long-poll", 0);
        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10_000));
             KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            consumer.assign(Set.of(tp));
            consumer.seekToBeginning(Set.of(tp));
            assertThat(consumer.poll(Duration.ofMillis(300)).count()).isZero();
            long began = System.nanoTime();
            producer.send(new ProducerRecord<>(tp.topic(), "k", "v")).get(10, TimeUnit.SECONDS);
            int got = 0;
            while (got == 0 && System.nanoTime() - began < TimeUnit.SECONDS.toNanos(9)) {
                got = consumer.poll(Duration.ofMillis(200)).count();
            }
            assertThat(got).isEqualTo(1);
            assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
            // release the fetch parked since, so closing the consumer does not wait for its max wait
            producer.send(new ProducerRecord<>(tp.topic(), "k", "release")).get(10, TimeUnit.SECONDS);
            consumer.poll(Duration.ofMillis(500));
        }
    }

    @Test
    void autoCreateOnProduceWhenEnabled(@TempDir Path otherDir) throws Exception {
        try (TestBroker autoBroker = TestBroker.start(otherDir, Map.of("auto.create.topics.enable", "true", "num.partitions", "2"));
             KafkaProducer<String, String> producer = autoBroker.producer(Map.of());
             Admin autoAdmin = autoBroker.admin()) {
            assertThat(producer.send(new ProducerRecord<>("auto-created", "k", "v")).get(20, TimeUnit.SECONDS).offset()).isZero();
            assertThat(autoAdmin.describeTopics(List.of("auto-created")).allTopicNames().get(20, TimeUnit.SECONDS)
                    .get("auto-created").partitions()).hasSize(2);
        }
    }
}
