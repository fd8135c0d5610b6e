package io.kaas.broker.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of Kafka's BrokerTopicMetrics for one topic (or every topic): what produce and fetch add, per request
 * and partition (never per record), without locks. Read by the metric registry at scrape time.
 */
public final class TopicStats {
    final LongAdder messagesIn = new LongAdder();
    final LongAdder bytesIn = new LongAdder();
    final LongAdder bytesOut = new LongAdder();
    final LongAdder failedProduce = new LongAdder();
    final LongAdder failedFetch = new LongAdder();
    final LongAdder totalProduce = new LongAdder();
    final LongAdder totalFetch = new LongAdder();

    public long messagesIn() {
        return messagesIn.sum();
    }

    public long bytesIn() {
        return bytesIn.sum();
    }

    public long bytesOut() {
        return bytesOut.sum();
    }

    public long failedProduceRequests() {
        return failedProduce.sum();
    }

    public long failedFetchRequests() {
        return failedFetch.sum();
    }

    public long totalProduceRequests() {
        return totalProduce.sum();
    }

    public long totalFetchRequests() {
        return totalFetch.sum();
    }
}
