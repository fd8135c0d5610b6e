package io.kaas.broker.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka's BrokerTopicMetrics: per topic and broker-wide. What produce and fetch call, once per partition of a request:
 * a lock-free map read (the topic's counters are made on its first use) and a few LongAdder adds.
 */
public final class BrokerTopicStats {

    private final TopicStats all = new TopicStats();
    private final ConcurrentHashMap<String, TopicStats> topics = new ConcurrentHashMap<>();

    private TopicStats topic(String topic) {
        TopicStats s = topics.get(topic);
        return s != null ? s : topics.computeIfAbsent(topic, t -> new TopicStats());
    }

    /** A produce appended {@code batches} holding {@code records} records in {@code bytes} bytes to {@code topic}. */
    public void produced(String topic, long records, long bytes) {
        TopicStats s = topic(topic);
        s.totalProduce.increment();
        s.messagesIn.add(records);
        s.bytesIn.add(bytes);
        all.totalProduce.increment();
        all.messagesIn.add(records);
        all.bytesIn.add(bytes);
    }

    /**
     * A produce to a partition of {@code topic} reached the log's checks and was answered with an error Kafka does
     * not count as a failed produce (not leader, unknown partition, too large, corrupt, storage error): counted in
     * TotalProduceRequestsPerSec only, as Kafka's ReplicaManager counts it.
     */
    public void produceRefused(String topic) {
        topic(topic).totalProduce.increment();
        all.totalProduce.increment();
    }

    /** A produce to a partition of {@code topic} failed (Kafka counts FailedProduceRequestsPerSec per partition). */
    public void produceFailed(String topic) {
        TopicStats s = topic(topic);
        s.totalProduce.increment();
        s.failedProduce.increment();
        all.totalProduce.increment();
        all.failedProduce.increment();
    }

    /** A fetch read {@code bytes} bytes from a partition of {@code topic}. */
    public void fetched(String topic, long bytes) {
        TopicStats s = topic(topic);
        s.totalFetch.increment();
        s.bytesOut.add(bytes);
        all.totalFetch.increment();
        all.bytesOut.add(bytes);
    }

    /** A fetch from a partition of {@code topic} failed. */
    public void fetchFailed(String topic) {
        TopicStats s = topic(topic);
        s.totalFetch.increment();
        s.failedFetch.increment();
        all.totalFetch.increment();
        all.failedFetch.increment();
    }

    /** Forgets a deleted topic's counters. */
    public void removeTopic(String topic) {
        topics.remove(topic);
    }

    public TopicStats allTopics() {
        return all;
    }

    /** The topics with counters, for the registry (a live view). */
    public Map<String, TopicStats> byTopic() {
        return topics;
    }
}
