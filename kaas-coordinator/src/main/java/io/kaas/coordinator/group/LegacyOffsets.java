package io.kaas.coordinator.group;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The move of committed offsets a cluster-state store from before SPI 5 still holds (the deprecated offset methods)
 * into {@code __consumer_offsets}: when a partition is loaded, the offsets of its groups are written there (those the
 * partition does not hold already), made durable, and then removed from the store, so the move happens once.
 */
final class LegacyOffsets {
    private static final Logger LOG = LoggerFactory.getLogger(LegacyOffsets.class);

    private LegacyOffsets() {
    }

    /**
     * Moves the store's offsets of the groups of {@code partition} into it.
     *
     * @return the groups moved
     */
    @SuppressWarnings("deprecation")
    static List<String> migrate(ClusterStateStore store, OffsetStore offsets, int partition) {
        List<String> moved = new ArrayList<>();
        for (String groupId : store.groupsWithOffsets()) {
            if (offsets.owned().partitionFor(groupId) != partition) {
                continue;
            }
            Map<TopicPartitionRef, CommittedOffset> stored = store.committedOffsets(groupId);
            Map<TopicPartitionRef, CommittedOffset> missing = new LinkedHashMap<>();
            Map<TopicPartitionRef, CommittedOffset> present = offsets.committedOffsets(groupId);
            stored.forEach((tp, o) -> {
                if (!present.containsKey(tp)) {
                    missing.put(tp, o);
                }
            });
            offsets.commitOffsets(groupId, missing);
            store.deleteGroup(groupId);
            moved.add(groupId);
            LOG.atInfo().addKeyValue("group", groupId).addKeyValue("offsets", missing.size())
                    .log("Moved {} committed offsets of group {} from the cluster store to {}-{}", missing.size(),
                            groupId, OffsetStore.TOPIC, partition);
        }
        return moved;
    }
}
