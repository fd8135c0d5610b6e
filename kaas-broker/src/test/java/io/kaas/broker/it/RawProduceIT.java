package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Produce requests encoded by kafka-clients' own serialization, sent over a plain socket. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RawProduceIT {
    private static final String TOPIC = "raw";
    private static final String BY_ID = "raw-by-id";

    @TempDir
    static Path dataDir;
    static TestBroker broker;
    static Uuid topicId;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dataDir, Map.of("auto.create.topics.enable", "false"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1), new NewTopic(BY_ID, 1, (short) 1)))
                    .all().get(20, TimeUnit.SECONDS);
            topicId = admin.describeTopics(List.of(BY_ID)).allTopicNames().get(20, TimeUnit.SECONDS).get(BY_ID).topicId();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static ByteBuffer batch(String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), ("k" + i).getBytes(StandardCharsets.UTF_8),
                    values[i].getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(Compression.NONE, records).buffer();
    }

    private static ProduceRequestData request(String topic, Uuid id, short acks, ByteBuffer records) {
        return KafkaWire.produce(topic, id, 0, acks, records);
    }

    /** Sends one request and returns the single partition's response. */
    private static ProduceResponseData.PartitionProduceResponse send(ProduceRequestData data, short version) throws Exception {
        return KafkaWire.produceOne(broker.port(), "raw-test", data, version);
    }

    @Test
    void corruptBatchIsRefusedAndStoredDataStaysReadable() throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, "good-" + i));
            }
            producer.flush();
        }
        ByteBuffer valid = batch("a", "b", "c");
        var ok = send(request(TOPIC, Uuid.ZERO_UUID, (short) -1, valid.duplicate()), (short) 12);
        assertThat(Errors.forCode(ok.errorCode())).isEqualTo(Errors.NONE);
        assertThat(ok.baseOffset()).isEqualTo(20);

        ByteBuffer corrupt = batch("x", "y", "z");
        int last = corrupt.limit() - 1;
        corrupt.put(last, (byte) (corrupt.get(last) ^ 0x5a));
        var refused = send(request(TOPIC, Uuid.ZERO_UUID, (short) 1, corrupt), (short) 12);
        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.CORRUPT_MESSAGE);

        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<String, String>> got = Consume.fromBeginning(consumer, Set.of(new TopicPartition(TOPIC, 0)),
                    23, Duration.ofSeconds(20));
            assertThat(got).extracting(ConsumerRecord::offset).containsExactlyElementsOf(
                    java.util.stream.LongStream.range(0, 23).boxed().toList());
            assertThat(got.get(19).value()).isEqualTo("good-19");
            assertThat(got.get(22).value()).isEqualTo("c");
        }
    }

    /** Offset of the marker's control type in a batch Kafka built: header, then one-byte varints before the key. */
    private static final int MARKER_TYPE = io.kaas.api.record.RecordBatches.HEADER_SIZE + 5 + 2;

    @Test
    void transactionalAndControlBatchesFromAClientAreRefusedAsKafkaDoes() throws Exception {
        String topic = "raw-txn";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
        }
        ByteBuffer transactional = MemoryRecords.withTransactionalRecords(Compression.NONE, 4_000L, (short) 0, 0,
                new SimpleRecord(System.currentTimeMillis(), "k".getBytes(StandardCharsets.UTF_8),
                        "in a transaction".getBytes(StandardCharsets.UTF_8))).buffer();
        // As Kafka: transactional records need the request's transactional id (which the principal may WRITE).
        var txn = send(request(topic, Uuid.ZERO_UUID, (short) 1, transactional), (short) 12);
        assertThat(Errors.forCode(txn.errorCode())).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);

        ByteBuffer commit = MemoryRecords.withEndTransactionMarker(System.currentTimeMillis(), 4_000L, (short) 0,
                new EndTransactionMarker(ControlRecordType.COMMIT, 0)).buffer();
        var marker = send(request(topic, Uuid.ZERO_UUID, (short) 1, commit.duplicate()).setTransactionalId("raw-txn-id"),
                (short) 12);
        assertThat(Errors.forCode(marker.errorCode())).isEqualTo(Errors.INVALID_RECORD);
        assertThat(marker.errorCode()).isEqualTo((short) 87);
        var anonymousMarker = send(request(topic, Uuid.ZERO_UUID, (short) 1, commit.duplicate()), (short) 12);
        assertThat(Errors.forCode(anonymousMarker.errorCode())).as("a marker is a transactional batch")
                .isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);

        ByteBuffer unknownType = commit.duplicate();
        assertThat(unknownType.getShort(MARKER_TYPE)).as("the marker's type where the test expects it").isEqualTo((short) 1);
        unknownType.putShort(MARKER_TYPE, (short) 9);
        unknownType.putInt(io.kaas.api.record.RecordBatches.CRC,
                (int) io.kaas.api.record.RecordBatches.crc(unknownType, 0, unknownType.remaining()));
        var malformed = send(request(topic, Uuid.ZERO_UUID, (short) 1, unknownType).setTransactionalId("raw-txn-id"),
                (short) 12);
        assertThat(Errors.forCode(malformed.errorCode())).isEqualTo(Errors.INVALID_RECORD);

        // nothing was stored, so no transaction holds the last stable offset: read_committed reads new data at once
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "committed-" + i));
            }
            producer.flush();
        }
        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of("isolation.level", "read_committed"))) {
            List<ConsumerRecord<String, String>> got = Consume.fromBeginning(consumer,
                    Set.of(new TopicPartition(topic, 0)), 5, Duration.ofSeconds(20));
            assertThat(got).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(got).extracting(ConsumerRecord::value).containsExactly("committed-0", "committed-1", "committed-2",
                    "committed-3", "committed-4");
            assertThat(consumer.endOffsets(Set.of(new TopicPartition(topic, 0)))).as("ListOffsets LATEST, read_committed")
                    .containsEntry(new TopicPartition(topic, 0), 5L);
        }
    }

    @Test
    void unknownTopicAndBadAcksGetTheirErrorCodes() throws Exception {
        assertThat(Errors.forCode(send(request("nope", Uuid.ZERO_UUID, (short) 1, batch("v")), (short) 12).errorCode()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(Errors.forCode(send(request(null, Uuid.randomUuid(), (short) 1, batch("v")), (short) 13).errorCode()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_ID);
        assertThat(Errors.forCode(send(request(TOPIC, Uuid.ZERO_UUID, (short) 2, batch("v")), (short) 12).errorCode()))
                .isEqualTo(Errors.INVALID_REQUIRED_ACKS);
        var byId = send(request(null, topicId, (short) 1, batch("by-id")), (short) 13);
        assertThat(Errors.forCode(byId.errorCode())).isEqualTo(Errors.NONE);
    }
}
