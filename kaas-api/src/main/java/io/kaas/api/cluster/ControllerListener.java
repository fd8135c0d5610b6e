package io.kaas.api.cluster;

/**
 * Told when this broker's term as controller begins and ends ({@link ClusterStateStore#electController}). Called on a
 * thread of the store's, one call at a time; an implementation hands long work to its own thread.
 */
public interface ControllerListener {
    /** This broker won the election: assignment writes with {@code term} are accepted until {@link #resigned}. */
    void elected(ControllerTerm term);

    /**
     * The term ended (its session was lost, the store closed, or another broker was elected): writes with it are
     * refused from now on, and may have been refused for a short time already.
     */
    void resigned(ControllerTerm term);
}
