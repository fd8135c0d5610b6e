package io.kaas.api.plugin;

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
}
