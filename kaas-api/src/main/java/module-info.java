/**
 * The kaas service-provider interface. Storage engines, cluster-state stores and authorizers implement
 * these types; the broker finds them with {@link java.util.ServiceLoader}. Depends on the JDK only.
 */
module io.kaas.api {
    exports io.kaas.api.plugin;
    exports io.kaas.api.record;
    exports io.kaas.api.storage;
    exports io.kaas.api.cluster;
    exports io.kaas.api.auth;
}
