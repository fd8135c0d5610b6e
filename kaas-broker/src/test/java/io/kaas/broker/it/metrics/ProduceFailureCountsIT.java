package io.kaas.broker.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.KafkaWire;
import io.kaas.broker.it.TestBroker;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Produce failures in {@code kafka_server_brokertopicmetrics_failedproducerequests_total} and
 * {@code _totalproducerequests_total} as Kafka's ReplicaManager counts them: a partition that reached the log's checks
 * counts in the total, and in the failures only for record validation and producer-state errors; refusals before
 * (unknown topic, the request version's record checks) count nowhere.
 */
class ProduceFailureCountsIT {
    private static final String TOPIC = "counted";
    private static final String FAILED = "kafka_server_brokertopicmetrics_failedproducerequests_total";
    private static final String TOTAL = "kafka_server_brokertopicmetrics_totalproducerequests_total";

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        broker.createTopic(TOPIC, 1);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static String scrape(TestBroker broker) throws Exception {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + broker.broker.adminPort()
                + "/metrics").toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }

    /** {failed, total} broker-wide and for {@link #TOPIC}. */
    private static double[] counts(TestBroker broker, String topic) throws Exception {
        String s = scrape(broker);
        return new double[] {MetricsIT.sample(s, FAILED, Map.of()).orElse(0),
            MetricsIT.sample(s, TOTAL, Map.of()).orElse(0),
            MetricsIT.sample(s, FAILED, Map.of("topic", topic)).orElse(0),
            MetricsIT.sample(s, TOTAL, Map.of("topic", topic)).orElse(0)};
    }

    private static ByteBuffer batch() {
        return MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(System.currentTimeMillis(),
                "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8))).buffer();
    }

    private static Errors send(TestBroker broker, String topic, int partition, ByteBuffer records) throws Exception {
        ProduceRequestData data = KafkaWire.produce(topic, Uuid.ZERO_UUID, partition, (short) -1, records);
        return Errors.forCode(KafkaWire.produceOne(broker.port(), "raw-test", data, (short) 12).errorCode());
    }

    /** Sends, checks the error, and answers the change of {failed, total} broker-wide and for the topic. */
    private static double[] delta(String topic, int partition, ByteBuffer records, Errors expected) throws Exception {
        return delta(broker, TOPIC, topic, partition, records, expected);
    }

    private static double[] delta(TestBroker broker, String counted, String topic, int partition, ByteBuffer records,
                                  Errors expected) throws Exception {
        double[] before = counts(broker, counted);
        assertThat(send(broker, topic, partition, records)).isEqualTo(expected);
        double[] after = counts(broker, counted);
        return new double[] {after[0] - before[0], after[1] - before[1], after[2] - before[2], after[3] - before[3]};
    }

    @Test
    void eachFailureIsCountedWhereKafkaCountsIt() throws Exception {
        assertThat(delta(TOPIC, 0, batch(), Errors.NONE)).as("appended: total only").containsExactly(0, 1, 0, 1);

        assertThat(delta("no-such-topic", 0, batch(), Errors.UNKNOWN_TOPIC_OR_PARTITION))
                .as("an unknown topic is refused before the log: not counted").containsExactly(0, 0, 0, 0);
        assertThat(scrape(broker)).doesNotContain("topic=\"no-such-topic\"");

        ByteBuffer v1 = MemoryRecords.withRecords(RecordBatch.MAGIC_VALUE_V1, 0L, Compression.NONE,
                new SimpleRecord("v".getBytes(StandardCharsets.UTF_8))).buffer();
        assertThat(delta(TOPIC, 0, v1, Errors.INVALID_RECORD))
                .as("the request version's record checks come before the log: not counted").containsExactly(0, 0, 0, 0);

        assertThat(delta(TOPIC, 7, batch(), Errors.UNKNOWN_TOPIC_OR_PARTITION))
                .as("a partition not here: total only").containsExactly(0, 1, 0, 1);

        ByteBuffer corrupt = batch();
        int last = corrupt.limit() - 1;
        corrupt.put(last, (byte) (corrupt.get(last) ^ 0x5a));
        assertThat(delta(TOPIC, 0, corrupt, Errors.CORRUPT_MESSAGE)).as("corrupt: total only").containsExactly(0, 1, 0, 1);

        // A plain batch with the control flag set (its CRC recomputed): a client may not write control records.
        ByteBuffer control = batch();
        control.putShort(21, (short) (control.getShort(21) | 0x20));
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(control.duplicate().position(21));
        control.putInt(17, (int) crc.getValue());
        assertThat(delta(TOPIC, 0, control, Errors.INVALID_RECORD))
                .as("record validation: a failed produce").containsExactly(1, 1, 1, 1);

        ByteBuffer newer = MemoryRecords.withIdempotentRecords(Compression.NONE, 4242L, (short) 1, 0,
                new SimpleRecord("v".getBytes(StandardCharsets.UTF_8))).buffer();
        assertThat(send(broker, TOPIC, 0, newer)).isEqualTo(Errors.NONE);
        ByteBuffer fenced = MemoryRecords.withIdempotentRecords(Compression.NONE, 4242L, (short) 0, 0,
                new SimpleRecord("v".getBytes(StandardCharsets.UTF_8))).buffer();
        double[] producerState = counts(broker, TOPIC);
        Errors error = send(broker, TOPIC, 0, fenced);
        assertThat(error).isIn(Errors.INVALID_PRODUCER_EPOCH, Errors.PRODUCER_FENCED);
        double[] after = counts(broker, TOPIC);
        assertThat(after[0] - producerState[0]).as("a producer-state error is a failed produce").isEqualTo(1);
        assertThat(after[3] - producerState[3]).isEqualTo(1);
    }

    @Test
    void aProduceTheAuthorizerRefusesIsCountedNowhere(@TempDir Path aclDir) throws Exception {
        try (TestBroker secured = TestBroker.builder(aclDir).acl("allow * ALL topic:*\ndeny * WRITE topic:locked\n")
                .start()) {
            secured.createTopic("locked", 1);
            assertThat(delta(secured, "locked", "locked", 0, batch(), Errors.TOPIC_AUTHORIZATION_FAILED))
                    .as("refused before the log, as Kafka's KafkaApis refuses it").containsExactly(0, 0, 0, 0);
        }
    }
}
