package io.kaas.api.cluster;

/**
 * Told when state other brokers may change has changed ({@link ClusterStateStore#addListener}). The calls say what
 * changed, not how: the listener reads the new state through the store's getters, which already show it when the call
 * comes. Called on a thread of the store's, one call at a time, in no promised order across kinds; spurious calls are
 * allowed, missed changes are not (a store whose watch was lost calls every method once it has its state again). An
 * implementation returns quickly and hands work to its own thread. Every method does nothing by default.
 */
public interface ClusterListener {
    /** A broker registered or its registration ended ({@link ClusterStateStore#liveBrokers}). */
    default void brokersChanged() {
    }

    /** A topic was created or deleted, or its partitions or configs changed ({@link ClusterStateStore#topics}). */
    default void topicsChanged() {
    }

    /** A partition's writer or epoch changed ({@link ClusterStateStore#assignments}). */
    default void assignmentsChanged() {
    }

    /** A partition move was requested or cancelled ({@link ClusterStateStore#reassignmentRequests}). */
    default void reassignmentsChanged() {
    }

    /** An ACL was added or removed ({@link ClusterStateStore#acls}). */
    default void aclsChanged() {
    }

    /** A SCRAM credential was changed ({@link ClusterStateStore#scramCredentials}). */
    default void scramCredentialsChanged() {
    }

    /** A group's config overrides changed ({@link ClusterStateStore#groupConfigs}). */
    default void groupConfigsChanged() {
    }

    /** A client quota was set or removed ({@link ClusterStateStore#clientQuotas}). */
    default void clientQuotasChanged() {
    }

    /** The dynamic configs of a broker or the cluster default changed ({@link ClusterStateStore#brokerConfigs}). */
    default void brokerConfigsChanged() {
    }

    /** This broker's session changed state ({@link ClusterStateStore#session}). */
    default void sessionChanged(SessionState state) {
    }
}
