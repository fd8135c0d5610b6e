package io.kaas.broker.it.txn;

import io.kaas.broker.it.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;

/** Transactional producers and isolation-level reads with the real Java clients, every wait bounded. */
final class Txn {
    static final String READ_COMMITTED = "read_committed";
    static final String READ_UNCOMMITTED = "read_uncommitted";

    private Txn() {
    }

    /** A transactional producer ({@code transactional.id} = {@code id}), acks=all, bounded waits; not initialised. */
    static KafkaProducer<String, String> producer(KafkaClients clients, String id, Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        p.putAll(extra);
        return clients.producer(p);
    }

    static KafkaProducer<String, String> producer(KafkaClients clients, String id) {
        return producer(clients, id, Map.of());
    }

    /** A consumer without a group at {@code isolation} ({@link #READ_COMMITTED} or {@link #READ_UNCOMMITTED}). */
    static KafkaConsumer<String, String> consumer(KafkaClients clients, String isolation) {
        return clients.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation));
    }

    /**
     * Everything readable at {@code isolation} in {@code partitions}, from the log start up to the end offsets the
     * consumer lists at that isolation level now (the last stable offset for read_committed), in offset order per
     * partition; at most {@code timeout}.
     */
    static List<ConsumerRecord<String, String>> readAll(KafkaClients clients, String isolation,
                                                        Collection<TopicPartition> partitions, Duration timeout) {
        try (KafkaConsumer<String, String> consumer = consumer(clients, isolation)) {
            return readAll(consumer, partitions, timeout);
        }
    }

    static <K, V> List<ConsumerRecord<K, V>> readAll(KafkaConsumer<K, V> consumer, Collection<TopicPartition> partitions,
                                                     Duration timeout) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(20));
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(consumer, end)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("did not reach the end offsets " + end + " in " + timeout + "; read " + out.size());
            }
            consumer.poll(Duration.ofMillis(100)).forEach(out::add);
        }
        return out;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), Duration.ofSeconds(10)) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }

    static List<Long> offsets(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::offset).toList();
    }

    /** Whether {@code t} or one of its causes is an instance of {@code type}. */
    static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
