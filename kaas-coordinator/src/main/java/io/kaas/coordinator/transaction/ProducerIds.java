package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.ClusterStateStore;

/**
 * Hands out producer ids from blocks reserved in the cluster-state store, so no id is ever given twice, on this
 * broker or another, before or after a restart. Thread-safe.
 */
public final class ProducerIds {
    /** Ids reserved per store call. */
    public static final int BLOCK_SIZE = 1000;

    private final ClusterStateStore store;
    private long next;
    private long end;

    public ProducerIds(ClusterStateStore store) {
        this.store = store;
    }

    /** A producer id no one has had; reserves a new block when the current one is used up. */
    public synchronized long next() {
        if (next >= end) {
            next = store.allocateProducerIdBlock(BLOCK_SIZE);
            end = next + BLOCK_SIZE;
        }
        return next++;
    }
}
