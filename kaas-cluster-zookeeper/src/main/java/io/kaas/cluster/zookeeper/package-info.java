/**
 * The {@code zookeeper} cluster-state store ({@code cluster.store=zookeeper}): cluster coordination and metadata in
 * Apache ZooKeeper through Apache Curator. Shipped as a drop-in plugin zip (ZooKeeper's jars split packages and
 * cannot sit on the module path).
 */
package io.kaas.cluster.zookeeper;
