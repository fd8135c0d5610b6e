package io.kaas.broker.topic;

import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionLog;
import java.util.List;
import java.util.UUID;

/**
 * An open topic: its cluster record, one open log per partition and the resolved log settings.
 * Immutable; the {@link TopicManager} swaps in a new instance when the topic changes.
 */
public record Topic(TopicRecord record, List<PartitionLog> logs, LogConfig logConfig) {
    public Topic {
        logs = List.copyOf(logs);
    }

    public String name() {
        return record.name();
    }

    public UUID id() {
        return record.topicId();
    }

    public int partitionCount() {
        return logs.size();
    }

    /** The log of {@code partition}, or null if the topic has no such partition. */
    public PartitionLog log(int partition) {
        return partition >= 0 && partition < logs.size() ? logs.get(partition) : null;
    }
}
