package io.kaas.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The end-to-end latency of a committed transaction, as {@code EndToEndLatency} measures a plain
 * record: one record per transaction, produced by a transactional producer and read by a consumer
 * with {@code isolation.level=read_committed}, one at a time. Each sample runs from before
 * {@code beginTransaction} to the moment the consumer returns the record, so it covers the send, the
 * EndTxn round trip, the commit marker and the last stable offset moving past the record (a
 * read_committed fetch returns nothing beyond it). The commit call alone is timed too.
 *
 * <p>Usage: {@code TransactionalEndToEndLatency <bootstrap> <topic> <messages> <record size>}; the
 * topic must exist. Prints one summary line; exits 2 if a record did not arrive within 60 s or came
 * back different.
 */
public final class TransactionalEndToEndLatency {
    private static final Duration ARRIVAL_TIMEOUT = Duration.ofSeconds(60);

    private TransactionalEndToEndLatency() {
    }

    public static void main(String[] args) {
        String bootstrap = args[0];
        String topic = args[1];
        int messages = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "bench-e2e-txn-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        pp.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        Properties cp = new Properties();
        cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        cp.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "500");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            producer.initTransactions();
            List<TopicPartition> tps = consumer.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToEnd(tps);
            tps.forEach(consumer::position);
            long[] e2e = new long[messages];
            long[] commit = new long[messages];
            Random random = new Random(0);
            for (int i = 0; i < messages; i++) {
                byte[] value = new byte[size];
                Arrays.fill(value, (byte) ('A' + random.nextInt(26)));
                value[0] = (byte) i; // consecutive records differ, so a stale or repeated read is caught
                long begin = System.nanoTime();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, value));
                long commitStart = System.nanoTime();
                producer.commitTransaction();
                commit[i] = System.nanoTime() - commitStart;
                byte[] read = awaitOne(consumer, i);
                e2e[i] = System.nanoTime() - begin;
                if (!Arrays.equals(read, value)) {
                    System.out.println("record " + i + " came back different from what was sent");
                    System.exit(2);
                }
            }
            System.out.printf(Locale.ROOT, "txn-e2e: messages=%d avg=%.3f p50=%.3f p99=%.3f p999=%.3f"
                            + " commit.avg=%.3f commit.p99=%.3f%n", messages, avgMs(e2e), pctMs(e2e, 0.5),
                    pctMs(e2e, 0.99), pctMs(e2e, 0.999), avgMs(commit), pctMs(commit, 0.99));
        }
    }

    /** Polls until exactly one record arrives; more than one, or none within the timeout, ends the run. */
    private static byte[] awaitOne(KafkaConsumer<byte[], byte[]> consumer, int i) {
        long deadline = System.nanoTime() + ARRIVAL_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
            if (records.count() > 1) {
                System.out.println("record " + i + ": expected one record, the read_committed consumer got " + records.count());
                System.exit(2);
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                return r.value();
            }
        }
        System.out.println("record " + i + " was not readable with read_committed within " + ARRIVAL_TIMEOUT);
        System.exit(2);
        return null;
    }

    private static double avgMs(long[] nanos) {
        return Arrays.stream(nanos).average().orElse(Double.NaN) / 1e6;
    }

    private static double pctMs(long[] nanos, double q) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) (s.length * q))] / 1e6;
    }
}
