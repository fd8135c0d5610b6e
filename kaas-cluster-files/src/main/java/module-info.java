/**
 * The file cluster-state store: topics, the cluster id and producer-id blocks as JSON files under
 * {@code <dataDir>/__cluster/}. Selected with {@code cluster.store=files}.
 */
module io.kaas.cluster.files {
    requires transitive io.kaas.api;
    requires org.slf4j;
    requires com.fasterxml.jackson.core;

    exports io.kaas.cluster.files;

    provides io.kaas.api.cluster.ClusterStateStoreProvider with io.kaas.cluster.files.FileClusterStoreProvider;
}
