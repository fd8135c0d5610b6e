package io.kaas.api.plugin;

/**
 * The version of the kaas SPI. A backend reports the SPI version it was compiled against
 * ({@link BackendProvider#spiVersion()}); the host refuses a backend whose major version differs.
 */
public final class SpiVersion {
    /**
     * Incremented on every incompatible change of any type in {@code io.kaas.api}. 2: {@code PartitionLog.append}
     * takes {@link io.kaas.api.record.ProducedBatches} (headers parsed once, by the broker) and
     * {@code StorageEngine.checkConfig} lets an engine refuse settings it cannot serve. 3: transactions in the
     * engines: {@code PartitionLog.producers()} ({@link io.kaas.api.storage.ProducerState}, for DescribeProducers),
     * transaction markers checked against the producer's epoch and coordinator epoch
     * ({@link io.kaas.api.storage.TransactionCoordinatorFencedException},
     * {@link io.kaas.api.storage.InvalidTxnStateException}), idle producers expired as the host says
     * ({@link io.kaas.api.storage.EngineContext#producerExpiration()}). 4: security: ACLs managed by the
     * authorizer ({@link io.kaas.api.auth.Authorizer#createAcls}, {@code deleteAcls}, {@code acls}, stored through
     * {@link io.kaas.api.auth.AuthorizerContext#acls()}), kept by the cluster-state store
     * ({@link io.kaas.api.cluster.ClusterStateStore#acls()}), resource types DELEGATION_TOKEN and USER, operations
     * CREATE_TOKENS and DESCRIBE_TOKENS. 5: several brokers on one shared volume: the cluster-state store coordinates
     * them (sessions with a lease, broker registrations, the controller election, partition assignments with leader
     * epochs written by compare-and-set, move requests, listeners) and no longer keeps committed offsets (they live in
     * {@code __consumer_offsets}); engines open partitions at a leader epoch
     * ({@link io.kaas.api.storage.StorageEngine#openPartition(io.kaas.api.storage.PartitionKey,
     * io.kaas.api.storage.LogConfig, int)}), close them without deleting, list their epochs and ask a
     * {@link io.kaas.api.storage.PartitionFence} before destructive file changes.
     */
    public static final int MAJOR = 5;

    private SpiVersion() {
    }

    /** True if a backend built against {@code major} can run on this host. */
    public static boolean isCompatible(int major) {
        return major == MAJOR;
    }
}
