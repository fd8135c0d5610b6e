/**
 * The cluster-state SPI: where topics (name, id, partition count, configs), the cluster id and
 * producer-id blocks are kept durably. A {@link io.kaas.api.cluster.ClusterStateStoreProvider} is
 * selected by name through {@code cluster.store}.
 */
package io.kaas.api.cluster;
