package io.kaas.api.cluster;

/**
 * A compare-and-set write was refused: a record it names was changed since it was read (its version differs) or
 * removed. Nothing of the write is stored; read again and retry.
 */
public final class VersionConflictException extends ClusterStateException {
    public VersionConflictException(String message) {
        super(message);
    }
}
