package io.kaas.api.plugin;

import java.util.Set;

/**
 * What every discoverable backend provider has in common. Implementations are found by
 * {@link java.util.ServiceLoader}: they have a public no-argument constructor and do no I/O when
 * constructed. Methods here are cheap and may be called any number of times from any thread.
 */
public interface BackendProvider {
    /** The name users put in the selecting config key (e.g. {@code storage.engine}). Stable across releases. */
    String name();

    /** The backend's own version, for start-up logs. */
    default String version() {
        Package p = getClass().getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /**
     * The SPI major version this backend was compiled against. Implement it as
     * {@code return SpiVersion.MAJOR;}: the constant is inlined into the backend's class when it is
     * compiled, so the host sees the version the backend was built for and refuses an incompatible
     * one. (A default method here would run the host's copy and always agree.)
     */
    int spiVersion();

    /**
     * The names of the entries this backend keeps directly in the data directory, beside the topics'
     * directories (the file cluster store's {@code __cluster}, the RocksDB engine's {@code rocksdb}). The
     * broker refuses a topic of one of these names, in any letter case, with INVALID_TOPIC_EXCEPTION, so
     * that no topic's directory can land on a backend's own files. Constant and cheap; empty by default.
     */
    default Set<String> reservedNames() {
        return Set.of();
    }

    /**
     * The settings this backend reads from its {@code PluginConfig}, without the prefix the broker removes
     * ({@code storage.<name>.}, {@code cluster.<name>.}, {@code authorizer.<name>.}): for the segment engine
     * {@code flush.interval.ms} stands for {@code storage.segments.flush.interval.ms}. The broker's tests
     * hold the shipped {@code server.properties} against these. Constant and cheap; empty by default.
     */
    default Set<String> configKeys() {
        return Set.of();
    }
}
