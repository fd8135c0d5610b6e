/**
 * Requests from this broker to the other brokers, over the Kafka protocol with kaas-wire's generated messages: the
 * {@link io.kaas.broker.interbroker.BrokerClient} connects to a broker's endpoint on {@code inter.broker.listener.name}
 * (from the {@link io.kaas.broker.cluster.ClusterView}) with that listener's security, as any client
 * ({@link io.kaas.broker.interbroker.InterBrokerSecurity}); the transaction coordinator's markers for partitions written
 * elsewhere go as WriteTxnMarkers ({@link io.kaas.broker.interbroker.RemoteMarkerWriter}) and Produce's verification
 * with a coordinator elsewhere as AddPartitionsToTxn v4+ ({@link io.kaas.broker.interbroker.RemoteTransactionVerifier}).
 * No request needs the controller: topic metadata and move requests go to the cluster-state store.
 */
package io.kaas.broker.interbroker;
