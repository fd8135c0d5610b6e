package io.kaas.api.cluster;

/**
 * An offset a consumer group committed for one partition, as OffsetCommit carries it and OffsetFetch
 * returns it.
 *
 * @param offset          the committed offset (the next record the group will read), as the client sent it
 * @param leaderEpoch     the leader epoch of the last consumed record, or -1 when unknown
 * @param metadata        the client's metadata string, possibly empty, never null
 * @param commitTimestamp when the broker accepted the commit, in epoch milliseconds
 * @param expireTimestamp when the commit expires regardless of the group's state (set by OffsetCommit
 *                        v2-v4's retention time), in epoch milliseconds, or -1 for the broker's
 *                        {@code offsets.retention.minutes} rule
 */
public record CommittedOffset(long offset, int leaderEpoch, String metadata, long commitTimestamp,
                              long expireTimestamp) {
    public CommittedOffset {
        metadata = metadata == null ? "" : metadata;
    }
}
