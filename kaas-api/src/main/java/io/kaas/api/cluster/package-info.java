/**
 * The cluster-state SPI: where topics (name, id, partition count, configs), the cluster id,
 * producer-id blocks and the committed offsets of consumer groups are kept durably. A
 * {@link io.kaas.api.cluster.ClusterStateStoreProvider} is selected by name through {@code cluster.store}.
 */
package io.kaas.api.cluster;
