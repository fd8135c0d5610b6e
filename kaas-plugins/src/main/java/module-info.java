/**
 * The kaas plugin host: finds storage engines and cluster-state stores and selects them by name.
 * This version finds built-in backends with {@link java.util.ServiceLoader}; plugins from
 * {@code plugins/} are a second {@link io.kaas.plugins.BackendSource} to come.
 */
module io.kaas.plugins {
    requires transitive io.kaas.api;
    requires org.slf4j;

    exports io.kaas.plugins;

    uses io.kaas.api.storage.StorageEngineProvider;
    uses io.kaas.api.cluster.ClusterStateStoreProvider;
}
