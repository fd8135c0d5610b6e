package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transactional producer at full speed, as Kafka's ProducerPerformance drives it with
 * {@code --transaction-duration-ms}: five requests in flight per partition, one transaction after the other with
 * no pause, so each transaction's first Produce requests (transactions V2 adds the partitions implicitly) meet the
 * markers of the one before. Every record must be stored once, in order, and no send may fail: a later in-flight
 * request of the producer must never be appended before an earlier one still being verified.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TransactionalPipelineIT {
    private static final int RECORDS = 60_000;
    private static final int TRANSACTIONS = 30;

    @TempDir
    Path dir;

    @Test
    void backToBackTransactionsWithFiveRequestsInFlightStoreEveryRecordOnceInOrderUnderV2() throws Exception {
        run("2");
    }

    @Test
    void backToBackTransactionsWithFiveRequestsInFlightStoreEveryRecordOnceInOrderUnderV1() throws Exception {
        run("1");
    }

    private void run(String transactionVersion) throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("transaction.state.log.num.partitions", "3")
                .config("transaction.version", transactionVersion).start()) {
            broker.createTopic("pipe", 3);
            byte[] value = new byte[1024];
            try (KafkaProducer<byte[], byte[]> producer = broker.bytesProducer(Map.of(
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "pipeline-" + transactionVersion,
                    ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5,
                    ProducerConfig.LINGER_MS_CONFIG, 0,
                    ProducerConfig.BATCH_SIZE_CONFIG, 16384))) {
                producer.initTransactions();
                int perTransaction = RECORDS / TRANSACTIONS;
                for (int t = 0; t < TRANSACTIONS; t++) {
                    producer.beginTransaction();
                    List<Future<RecordMetadata>> sends = new ArrayList<>();
                    for (int i = 0; i < perTransaction; i++) {
                        int n = t * perTransaction + i;
                        sends.add(producer.send(new ProducerRecord<>("pipe", n % 3, key(n), value)));
                    }
                    producer.commitTransaction();
                    for (Future<RecordMetadata> f : sends) {
                        assertThat(f.isDone()).isTrue();
                        f.get(); // no send failed
                    }
                }
            }
            try (KafkaConsumer<byte[], byte[]> consumer = broker.bytesConsumer(Map.of(
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
                consumer.assign(List.of(new org.apache.kafka.common.TopicPartition("pipe", 0),
                        new org.apache.kafka.common.TopicPartition("pipe", 1),
                        new org.apache.kafka.common.TopicPartition("pipe", 2)));
                consumer.seekToBeginning(consumer.assignment());
                int[] next = {0, 1, 2};
                int seen = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (seen < RECORDS && System.nanoTime() < deadline) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(java.time.Duration.ofMillis(500));
                    for (var r : records) {
                        int n = Integer.parseInt(new String(r.key(), java.nio.charset.StandardCharsets.UTF_8));
                        assertThat(n).as("partition %d in order, each record once", r.partition())
                                .isEqualTo(next[r.partition()]);
                        next[r.partition()] += 3;
                        seen++;
                    }
                }
                assertThat(seen).isEqualTo(RECORDS);
            }
        }
    }

    private static byte[] key(int n) {
        return Integer.toString(n).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
