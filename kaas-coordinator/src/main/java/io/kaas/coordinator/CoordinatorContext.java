package io.kaas.coordinator;

import io.kaas.api.cluster.ClusterStateStore;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What a coordinator needs of the broker that hosts it: the cluster-state store (topic lookup by name
 * and id, durable committed offsets) and time. Built by the broker once its backends are open; the
 * coordinators never see the broker itself.
 *
 * @param clusterStore the store topics are looked up in and coordinator state is kept durably in
 * @param timer        the clock and the scheduler of the coordinators' timeouts
 */
public record CoordinatorContext(ClusterStateStore clusterStore, CoordinatorTimer timer) {

    public CoordinatorContext {
        Objects.requireNonNull(clusterStore, "clusterStore");
        Objects.requireNonNull(timer, "timer");
    }

    /** On the broker's scheduler and clock. */
    public static CoordinatorContext of(ClusterStateStore clusterStore, ScheduledExecutorService scheduler, Clock clock) {
        return new CoordinatorContext(clusterStore, CoordinatorTimer.of(scheduler, clock));
    }
}
