package io.kaas.coordinator.internal;

import io.kaas.api.cluster.ClusterStateException;

/**
 * A write to a partition of a coordinator's internal topic this broker no longer owns (or never did): answered
 * NOT_COORDINATOR, so the client finds the new coordinator.
 */
public final class NotCoordinatorException extends ClusterStateException {
    public NotCoordinatorException(String message) {
        super(message);
    }
}
