package io.kaas.broker.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** Reads with assign() + seekToBeginning(), no group. */
public final class Consume {
    private Consume() {
    }

    public static <K, V> List<ConsumerRecord<K, V>> fromBeginning(KafkaConsumer<K, V> consumer, Collection<TopicPartition> tps,
                                                           int expected, Duration timeout) {
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < expected && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(out::add);
        }
        return out;
    }
}
