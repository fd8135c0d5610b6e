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
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ListOffsets, DeleteRecords and DeleteTopics through the real Admin client, on every storage engine. */
@ParameterizedClass(name = "storage.engine={0}")
@ValueSource(strings = {TestBroker.SEGMENTS, TestBroker.ROCKSDB})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminOffsetsIT {
    private static final long BASE = 1_700_000_000_000L;

    @TempDir
    static Path root;
    static TestBroker broker;
    static Admin admin;

    @Parameter
    String engine;

    @BeforeParameterizedClassInvocation
    static void start(String engine) throws Exception {
        broker = TestBroker.builder(root.resolve(engine)).engine(engine).start();
        admin = broker.admin();
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        if (admin != null) {
            admin.close();
            admin = null;
        }
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    /** Ten records at BASE + i seconds, except offset 7 which carries the largest timestamp; one batch each. */
    private static TopicPartition topicWithTimestamps(String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, 0, timestampOf(i), "k" + i, "v" + i)).get(10, TimeUnit.SECONDS);
            }
        }
        return new TopicPartition(topic, 0);
    }

    private static long timestampOf(int i) {
        return i == 7 ? BASE + 1_000_000 : BASE + i * 1000L;
    }

    /** The same ten records in one batch compressed with {@code codec} (sent together, flushed once). */
    private static TopicPartition topicWithOneCompressedBatch(String topic, String codec, Map<String, String> configs)
            throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(configs))).all().get(20, TimeUnit.SECONDS);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                ProducerConfig.LINGER_MS_CONFIG, 5_000, ProducerConfig.BATCH_SIZE_CONFIG, 1 << 20))) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, 0, timestampOf(i), "k" + i, "v" + i));
            }
            producer.flush();
        }
        return new TopicPartition(topic, 0);
    }

    @ParameterizedTest(name = "compression.type={0}")
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void listsTheExactRecordInsideACompressedBatch(String codec) throws Exception {
        TopicPartition tp = topicWithOneCompressedBatch("compressed-" + codec, codec, Map.of());
        assertThat(list(tp, OffsetSpec.latest()).offset()).isEqualTo(10);
        ListOffsetsResultInfo byTime = list(tp, OffsetSpec.forTimestamp(BASE + 4500));
        assertThat(byTime.offset()).isEqualTo(5);
        assertThat(byTime.timestamp()).isEqualTo(BASE + 5000);
        ListOffsetsResultInfo max = list(tp, OffsetSpec.maxTimestamp());
        assertThat(max.offset()).isEqualTo(7);
        assertThat(max.timestamp()).isEqualTo(BASE + 1_000_000);
        assertThat(list(tp, OffsetSpec.forTimestamp(BASE + 1_000_001)).offset()).isEqualTo(-1);
    }

    @Test
    void logAppendTimeBatchesAnswerTheirFirstRecordWithTheBrokerTime() throws Exception {
        long before = System.currentTimeMillis();
        TopicPartition tp = topicWithOneCompressedBatch("log-append-time", "zstd",
                Map.of("message.timestamp.type", "LogAppendTime"));
        long after = System.currentTimeMillis();
        ListOffsetsResultInfo max = list(tp, OffsetSpec.maxTimestamp());
        assertThat(max.offset()).isZero();
        assertThat(max.timestamp()).isBetween(before, after);
        ListOffsetsResultInfo byTime = list(tp, OffsetSpec.forTimestamp(BASE + 4500));
        assertThat(byTime.offset()).as("every record carries the append time").isZero();
        assertThat(byTime.timestamp()).isEqualTo(max.timestamp());
    }

    private static ListOffsetsResultInfo list(TopicPartition tp, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get(20, TimeUnit.SECONDS);
    }

    @Test
    void listsEarliestLatestByTimestampAndMaxTimestamp() throws Exception {
        TopicPartition tp = topicWithTimestamps("list-offsets");
        assertThat(list(tp, OffsetSpec.earliest()).offset()).isZero();
        assertThat(list(tp, OffsetSpec.latest()).offset()).isEqualTo(10);
        ListOffsetsResultInfo byTime = list(tp, OffsetSpec.forTimestamp(BASE + 4500));
        assertThat(byTime.offset()).isEqualTo(5);
        assertThat(byTime.timestamp()).isEqualTo(BASE + 5000);
        ListOffsetsResultInfo max = list(tp, OffsetSpec.maxTimestamp());
        assertThat(max.offset()).isEqualTo(7);
        assertThat(max.timestamp()).isEqualTo(BASE + 1_000_000);
        assertThat(list(tp, OffsetSpec.forTimestamp(BASE + 2_000_000)).offset()).isEqualTo(-1);
    }

    @Test
    void deleteRecordsMovesTheEarliestOffset() throws Exception {
        TopicPartition tp = topicWithTimestamps("delete-records");
        long low = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(5))).lowWatermarks().get(tp)
                .get(20, TimeUnit.SECONDS).lowWatermark();
        assertThat(low).isEqualTo(5);
        assertThat(list(tp, OffsetSpec.earliest()).offset()).isEqualTo(5);
        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<String, String>> got = Consume.fromBeginning(consumer, Set.of(tp), 5, Duration.ofSeconds(20));
            assertThat(got).extracting(ConsumerRecord::offset).containsExactly(5L, 6L, 7L, 8L, 9L);
        }
        assertThatThrownBy(() -> admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(11))).all().get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(org.apache.kafka.common.errors.OffsetOutOfRangeException.class);
        ListOffsetsResultInfo byTime = list(tp, OffsetSpec.forTimestamp(BASE));
        assertThat(byTime.offset()).as("lookups start at the log start").isEqualTo(5);

        long all = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(-1))).lowWatermarks().get(tp)
                .get(20, TimeUnit.SECONDS).lowWatermark();
        assertThat(all).as("-1 deletes up to the high watermark").isEqualTo(10);
        assertThat(list(tp, OffsetSpec.earliest()).offset()).isEqualTo(10);
        assertThat(list(tp, OffsetSpec.maxTimestamp()).offset()).isEqualTo(-1);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            assertThat(producer.send(new ProducerRecord<>(tp.topic(), 0, "after", "delete")).get(10, TimeUnit.SECONDS).offset())
                    .isEqualTo(10);
        }
    }

    @Test
    void deletedTopicIsUnknownToMetadata() throws Exception {
        TopicPartition tp = topicWithTimestamps("to-delete");
        assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).contains(tp.topic());
        admin.deleteTopics(List.of(tp.topic())).all().get(20, TimeUnit.SECONDS);
        assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).doesNotContain(tp.topic());
        assertThatThrownBy(() -> admin.describeTopics(List.of(tp.topic())).allTopicNames().get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        // the name can be reused, with a new id
        admin.createTopics(List.of(new NewTopic(tp.topic(), 2, (short) 1))).all().get(20, TimeUnit.SECONDS);
        assertThat(admin.describeTopics(List.of(tp.topic())).allTopicNames().get(20, TimeUnit.SECONDS)
                .get(tp.topic()).partitions()).hasSize(2);
        assertThat(list(tp, OffsetSpec.latest()).offset()).isZero();
    }

    @Test
    void describeConfigsAndAlterConfigsRoundTrip() throws Exception {
        String topic = "configs";
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", "123456"))))
                .all().get(20, TimeUnit.SECONDS);
        var resource = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
        var config = admin.describeConfigs(List.of(resource)).all().get(20, TimeUnit.SECONDS).get(resource);
        assertThat(config.get("retention.ms").value()).isEqualTo("123456");
        assertThat(config.get("retention.ms").source())
                .isEqualTo(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(config.get("cleanup.policy").value()).isEqualTo("delete");
        assertThat(config.entries().size()).isGreaterThan(20);
        admin.incrementalAlterConfigs(Map.of(resource, List.of(
                new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry("max.message.bytes", "5000"),
                        org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET),
                new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry("retention.ms", ""),
                        org.apache.kafka.clients.admin.AlterConfigOp.OpType.DELETE)))).all().get(20, TimeUnit.SECONDS);
        config = admin.describeConfigs(List.of(resource)).all().get(20, TimeUnit.SECONDS).get(resource);
        assertThat(config.get("max.message.bytes").value()).isEqualTo("5000");
        assertThat(config.get("retention.ms").value()).isEqualTo("604800000");
        var broker1 = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.BROKER, "1");
        assertThat(admin.describeConfigs(List.of(broker1)).all().get(20, TimeUnit.SECONDS).get(broker1)
                .get("num.partitions").value()).isEqualTo("1");
        admin.createPartitions(Map.of(topic, org.apache.kafka.clients.admin.NewPartitions.increaseTo(4)))
                .all().get(20, TimeUnit.SECONDS);
        assertThat(admin.describeTopics(List.of(topic)).allTopicNames().get(20, TimeUnit.SECONDS).get(topic).partitions())
                .hasSize(4);
        assertThat(admin.describeCluster().nodes().get(20, TimeUnit.SECONDS)).hasSize(1);
        assertThat(admin.describeCluster().controller().get(20, TimeUnit.SECONDS).id()).isEqualTo(1);
    }
}
