/**
 * The kaas plugin host: finds storage engines, cluster-state stores and authorizers and selects them by name.
 * Built-in backends come from {@link java.util.ServiceLoader} over the boot layer; drop-in plugins
 * come from a {@code plugins/} directory through PF4J, each in its own class loader.
 */
module io.kaas.plugins {
    requires transitive io.kaas.api;
    requires org.slf4j;
    requires org.pf4j;

    exports io.kaas.plugins;

    uses io.kaas.api.storage.StorageEngineProvider;
    uses io.kaas.api.cluster.ClusterStateStoreProvider;
    uses io.kaas.api.auth.AuthorizerProvider;
}
