package io.kaas.broker.fetch;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * One incremental fetch session (KIP-227): the partitions a client fetches, with the fetch position
 * it last sent for each and the offsets last returned for each, so an incremental request names only
 * what changed and an incremental response carries only what changed. Guarded by its own monitor.
 */
final class FetchSession {

    /** A partition by topic id (v13+) or by topic name (before v13), as the session was created. */
    record Key(UUID topicId, String topic, int partition) {
    }

    /** A partition of the session: what the client asked for, and what it was last told. */
    static final class Cached {
        final Key key;
        String topicName;
        long fetchOffset;
        int maxBytes;
        long highWatermark = -1;
        long lastStableOffset = -1;
        long logStartOffset = -1;

        Cached(Key key, String topicName, long fetchOffset, int maxBytes) {
            this.key = key;
            this.topicName = topicName;
            this.fetchOffset = fetchOffset;
            this.maxBytes = maxBytes;
        }
    }

    private final int id;
    private final boolean usesTopicIds;
    private final LinkedHashMap<Key, Cached> partitions = new LinkedHashMap<>();
    private int epoch = 1;
    private long lastUsedMs;

    FetchSession(int id, boolean usesTopicIds, long nowMs) {
        this.id = id;
        this.usesTopicIds = usesTopicIds;
        this.lastUsedMs = nowMs;
    }

    int id() {
        return id;
    }

    boolean usesTopicIds() {
        return usesTopicIds;
    }

    /** The epoch the next incremental request must carry. */
    synchronized int epoch() {
        return epoch;
    }

    synchronized void bumpEpoch() {
        epoch = epoch == Integer.MAX_VALUE ? 1 : epoch + 1;
    }

    synchronized long lastUsedMs() {
        return lastUsedMs;
    }

    synchronized void touch(long nowMs) {
        lastUsedMs = nowMs;
    }

    synchronized int size() {
        return partitions.size();
    }

    /** Adds a partition, or updates the position of one already there. */
    void upsert(Key key, String topicName, long fetchOffset, int maxBytes) {
        Cached c = partitions.get(key);
        if (c == null) {
            partitions.put(key, new Cached(key, topicName, fetchOffset, maxBytes));
            return;
        }
        c.topicName = topicName;
        c.fetchOffset = fetchOffset;
        c.maxBytes = maxBytes;
    }

    void forget(Key key) {
        partitions.remove(key);
    }

    Cached get(Key key) {
        return partitions.get(key);
    }

    /** The partitions in fetch order (the ones that returned data last are moved to the end). */
    Collection<Cached> partitions() {
        return partitions.values();
    }

    /** Moves a partition that just returned records to the end, so others get their turn at the byte budget. */
    void moveToEnd(Key key) {
        Cached c = partitions.remove(key);
        if (c != null) {
            partitions.put(key, c);
        }
    }

    Map<Key, Cached> view() {
        return partitions;
    }
}
