package io.kaas.api.storage;

/**
 * The partition has been written at a higher leader epoch than the one it was opened or asked with: another broker
 * has taken it over. Maps to FENCED_LEADER_EPOCH (74) or NOT_LEADER_OR_FOLLOWER (6); nothing is written.
 */
public final class FencedLeaderEpochException extends StorageException {
    public FencedLeaderEpochException(String message) {
        super(message);
    }
}
