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
     * CREATE_TOKENS and DESCRIBE_TOKENS.
     */
    public static final int MAJOR = 4;

    private SpiVersion() {
    }

    /** True if a backend built against {@code major} can run on this host. */
    public static boolean isCompatible(int major) {
        return major == MAJOR;
    }
}
