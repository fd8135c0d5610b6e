package io.kaas.broker.it.group;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A group member on its own thread: polls, records every record it sees in a shared log, commits
 * synchronously after each poll and when partitions are revoked, so nothing is read twice.
 */
final class RebalancingConsumer implements AutoCloseable {
    final String name;
    private final KafkaConsumer<String, String> consumer;
    private final Map<String, List<String>> seenBy;
    private final Thread thread;
    private volatile boolean running = true;
    final AtomicInteger assignments = new AtomicInteger();
    final AtomicInteger revocations = new AtomicInteger();
    final Set<TopicPartition> assigned = ConcurrentHashMap.newKeySet();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final List<String> consumed = new CopyOnWriteArrayList<>();

    RebalancingConsumer(String name, KafkaConsumer<String, String> consumer, String topic,
                        Map<String, List<String>> seenBy) {
        this.name = name;
        this.consumer = consumer;
        this.seenBy = seenBy;
        this.thread = new Thread(() -> run(topic), "consumer-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(String topic) {
        try {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    revocations.incrementAndGet();
                    assigned.removeAll(partitions);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    assignments.incrementAndGet();
                    assigned.addAll(partitions);
                }
            });
            while (running) {
                Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                    String id = r.partition() + "@" + r.offset();
                    seenBy.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(name);
                    consumed.add(r.value());
                    commit.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                if (!commit.isEmpty()) {
                    consumer.commitSync(commit);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(20_000);
    }
}
