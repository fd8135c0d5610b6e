/**
 * Client quotas with Kafka's semantics: the stored quotas (through the cluster-state store), their validation as
 * Kafka's AlterClientQuotas does it, per-entity rate sensors over {@code quota.window.num} samples of
 * {@code quota.window.size.seconds}, and the throttle time a request earns (KIP-219).
 */
package io.kaas.broker.quota;
