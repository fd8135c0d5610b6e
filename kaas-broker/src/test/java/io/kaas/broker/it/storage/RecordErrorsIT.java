package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.KafkaWire;
import io.kaas.broker.it.TestBroker;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-record produce errors (KIP-467): a batch to a compacted topic with some keyless records is refused as a
 * whole, INVALID_RECORD, and from Produce v8 its {@code record_errors} name each keyless record by its index, with
 * Kafka's messages; the Java producer then fails those records with InvalidRecordException and the others of the
 * batch with the generic error it derives (what librdkafka's test 0011 checks).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RecordErrorsIT {
    private static final String TOPIC = "compacted";
    private static final String KEYLESS = "Compacted topic cannot accept message without key in topic partition ";

    @TempDir
    static Path dataDir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dataDir, Map.of("auto.create.topics.enable", "false"));
        try (Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, TOPIC, 2, Map.of("cleanup.policy", "compact"));
            KafkaClients.createTopic(admin, "plain", 1, Map.of());
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** 100 records, those at 5, 15, ..., 95 without a key. */
    private static ByteBuffer hundredWithTenKeyless(Compression compression) {
        SimpleRecord[] records = new SimpleRecord[100];
        for (int i = 0; i < records.length; i++) {
            byte[] key = i % 10 == 5 ? null : ("k" + i).getBytes(StandardCharsets.UTF_8);
            records[i] = new SimpleRecord(System.currentTimeMillis(), key, ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(compression, records).buffer();
    }

    private static ProduceRequestData request(String topic, int partition, ByteBuffer records) {
        return KafkaWire.produce(topic, org.apache.kafka.common.Uuid.ZERO_UUID, partition, (short) -1, records);
    }

    /** Sends one request, encoded by kafka-clients, over a plain socket; returns the single partition's response. */
    private static ProduceResponseData.PartitionProduceResponse send(ProduceRequestData data, short version) throws Exception {
        return KafkaWire.produceOne(broker.port(), "record-errors-test", data, version);
    }

    private static long endOffset(TopicPartition tp) {
        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of())) {
            return consumer.endOffsets(Set.of(tp)).get(tp);
        }
    }

    @Test
    void rawProduceAnswersTheIndexAndMessageOfEachKeylessRecord() throws Exception {
        List<Integer> keyless = IntStream.range(0, 10).map(i -> i * 10 + 5).boxed().toList();
        String perRecord = KEYLESS + TOPIC + "-0";
        for (Compression compression : List.of(Compression.NONE, Compression.zstd().build())) {
            for (short version : new short[] {8, 12}) {
                var refused = send(request(TOPIC, 0, hundredWithTenKeyless(compression)), version);
                assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.INVALID_RECORD);
                assertThat(refused.recordErrors()).extracting(ProduceResponseData.BatchIndexAndErrorMessage::batchIndex)
                        .as("Produce v%d, %s", version, compression.type()).containsExactlyElementsOf(keyless);
                assertThat(refused.recordErrors()).extracting(ProduceResponseData.BatchIndexAndErrorMessage::batchIndexErrorMessage)
                        .containsOnly(perRecord);
                assertThat(refused.errorMessage()).as("Kafka's LogValidator message").isEqualTo(
                        "One or more records have been rejected due to 10 record errors in total, and only showing the "
                                + "first three errors at most: [RecordError(batchIndex=5, message='" + perRecord + "'), "
                                + "RecordError(batchIndex=15, message='" + perRecord + "'), "
                                + "RecordError(batchIndex=25, message='" + perRecord + "')]");
                assertThat(refused.baseOffset()).isEqualTo(-1);
                assertThat(refused.logStartOffset()).as("the partition's log start, as Kafka answers it").isZero();
            }
        }
        var v7 = send(request(TOPIC, 0, hundredWithTenKeyless(Compression.NONE)), (short) 7);
        assertThat(Errors.forCode(v7.errorCode())).as("below v8 the partition error alone").isEqualTo(Errors.INVALID_RECORD);
        assertThat(v7.recordErrors()).isEmpty();
        assertThat(endOffset(new TopicPartition(TOPIC, 0))).as("no record of a refused batch is stored").isZero();

        SimpleRecord[] allKeyed = IntStream.range(0, 5).mapToObj(i -> new SimpleRecord(("k" + i).getBytes(StandardCharsets.UTF_8),
                ("v" + i).getBytes(StandardCharsets.UTF_8))).toArray(SimpleRecord[]::new);
        var ok = send(request(TOPIC, 0, MemoryRecords.withRecords(Compression.NONE, allKeyed).buffer()), (short) 12);
        assertThat(Errors.forCode(ok.errorCode())).isEqualTo(Errors.NONE);
        assertThat(ok.recordErrors()).isEmpty();
        var plain = send(request("plain", 0, hundredWithTenKeyless(Compression.NONE)), (short) 12);
        assertThat(Errors.forCode(plain.errorCode())).as("a topic that does not compact takes keyless records")
                .isEqualTo(Errors.NONE);
        assertThat(plain.recordErrors()).isEmpty();
    }

    @Test
    void javaProducerFailsTheKeylessRecordsAsInvalidAndTheRestOfTheirBatchAsCollateral() throws Exception {
        TopicPartition tp = new TopicPartition(TOPIC, 1);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 15_000,
                ProducerConfig.BATCH_SIZE_CONFIG, 1 << 20))) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                sent.add(producer.send(new ProducerRecord<>(TOPIC, 1, i % 10 == 5 ? null : "k" + i, "v" + i)));
            }
            producer.flush();
            for (int i = 0; i < 100; i++) {
                int index = i;
                Future<RecordMetadata> f = sent.get(i);
                if (i % 10 == 5) {
                    assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).as("keyless record %d", index)
                            .isInstanceOf(ExecutionException.class).cause().isExactlyInstanceOf(InvalidRecordException.class)
                            .hasMessage(KEYLESS + TOPIC + "-1");
                } else {
                    assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).as("keyed record %d", index)
                            .isInstanceOf(ExecutionException.class).cause().isExactlyInstanceOf(KafkaException.class)
                            .hasMessage("Failed to append record because it was part of a batch which had one more more "
                                    + "invalid records");
                }
            }
            Future<RecordMetadata> next = producer.send(new ProducerRecord<>(TOPIC, 1, "key", "accepted"));
            producer.flush();
            assertThat(next.get(10, TimeUnit.SECONDS).offset())
                    .as("the producer goes on, and nothing of the refused batch was stored").isZero();
        }
        assertThat(endOffset(tp)).isEqualTo(1);
    }
}
