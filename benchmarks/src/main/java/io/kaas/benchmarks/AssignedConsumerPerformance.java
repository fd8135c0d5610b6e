package io.kaas.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The consume workload without a consumer group: the real Java consumer with default fetch settings,
 * assigned every partition of the topic from the beginning, timed until {@code records} have been
 * read. It complements {@code ConsumerPerformance} (which subscribes through a group coordinator) so
 * the fetch path is measured on a broker without group support too; both systems run both.
 *
 * <p>Usage: {@code AssignedConsumerPerformance <bootstrap> <topic> <records> [client.properties]}; prints one
 * summary line. The optional file holds more client settings (e.g. {@code security.protocol=SSL}).
 */
public final class AssignedConsumerPerformance {
    private AssignedConsumerPerformance() {
    }

    public static void main(String[] args) throws java.io.IOException {
        Properties p = new Properties();
        if (args.length > 3) {
            try (java.io.Reader in = java.nio.file.Files.newBufferedReader(java.nio.file.Path.of(args[3]))) {
                p.load(in);
            }
        }
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        long wanted = Long.parseLong(args[2]);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> tps = consumer.partitionsFor(args[1]).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            long start = System.nanoTime();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long records = 0;
            long bytes = 0;
            long deadline = start + Duration.ofMinutes(5).toNanos();
            while (records < wanted && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    records++;
                    bytes += r.serializedValueSize() + Math.max(0, r.serializedKeySize());
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "assigned-consume: records=%d bytes=%d seconds=%.3f MB.sec=%.4f nMsg.sec=%.1f%n",
                    records, bytes, seconds, bytes / 1024.0 / 1024.0 / seconds, records / seconds);
            if (records < wanted) {
                System.exit(2);
            }
        }
    }
}
