package io.kaas.broker.console;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.GroupCoordinator;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Each group's total lag for the charts sampler: over the partitions this broker holds both the committed offset
 * (its group coordinator) and the log of, the high watermark minus the committed offset, as
 * {@code kafka_consumergroup_lag} on /metrics. Read from memory: no request, no authorization (the history is shown
 * only with the group, which is authorized).
 */
final class GroupLag implements Supplier<Map<String, Long>> {

    private final GroupCoordinator groups;
    private final TopicManager topics;

    GroupLag(GroupCoordinator groups, TopicManager topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public Map<String, Long> get() {
        Map<String, Long> out = new HashMap<>();
        for (var listed : groups.admin().listGroups(java.util.List.of(), java.util.List.of())) {
            long total = 0;
            for (Map.Entry<TopicPartitionRef, CommittedOffset> c : groups.committedOffsets(listed.groupId()).entrySet()) {
                PartitionLog log = topics.log(c.getKey().topic(), c.getKey().partition());
                if (log == null || c.getValue().offset() < 0) {
                    continue;
                }
                total += Math.max(0, log.offsets().highWatermark() - c.getValue().offset());
            }
            out.put(listed.groupId(), total);
        }
        return out;
    }
}
