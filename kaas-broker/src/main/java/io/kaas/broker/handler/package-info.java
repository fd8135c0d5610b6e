/**
 * One handler per Kafka API for records, metadata and topic administration (the group APIs are in
 * {@code handler.group}), each registered with its contract from
 * {@link io.kaas.broker.request.ApiContracts} by {@link io.kaas.broker.handler.Handlers}. Handlers
 * see a request through {@link io.kaas.broker.request.RequestContext} and ask per-resource access
 * questions only through its {@link io.kaas.broker.request.RequestContext#access() access}; they
 * never touch the network layer.
 */
package io.kaas.broker.handler;
