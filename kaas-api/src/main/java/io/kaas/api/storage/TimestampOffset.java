package io.kaas.api.storage;

/**
 * A record's timestamp and offset, the answer to a timestamp lookup.
 *
 * @param timestamp   the record's (or batch's log-append) timestamp
 * @param offset      the record's offset
 * @param leaderEpoch the leader epoch of its batch, or -1 if unknown
 */
public record TimestampOffset(long timestamp, long offset, int leaderEpoch) {
}
