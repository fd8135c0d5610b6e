package io.kaas.api.plugin;

/**
 * The version of the kaas SPI. A backend reports the SPI version it was compiled against
 * ({@link BackendProvider#spiVersion()}); the host refuses a backend whose major version differs.
 */
public final class SpiVersion {
    /**
     * Incremented on every incompatible change of any type in {@code io.kaas.api}. 2: {@code PartitionLog.append}
     * takes {@link io.kaas.api.record.ProducedBatches} (headers parsed once, by the broker) and
     * {@code StorageEngine.checkConfig} lets an engine refuse settings it cannot serve.
     */
    public static final int MAJOR = 2;

    private SpiVersion() {
    }

    /** True if a backend built against {@code major} can run on this host. */
    public static boolean isCompatible(int major) {
        return major == MAJOR;
    }
}
