/**
 * What every coordinator of this module shares: the {@link io.kaas.coordinator.CoordinatorContext} the
 * broker hands it (cluster-state store, time) and the {@link io.kaas.coordinator.CoordinatorTimer} its
 * timeouts run on. The group coordinator lives in {@code io.kaas.coordinator.group}; the transaction
 * coordinator will live beside it in {@code io.kaas.coordinator.transaction}.
 */
package io.kaas.coordinator;
