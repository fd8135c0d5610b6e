/**
 * The broker's side of its coordinators: the internal topics their state lives in
 * ({@link io.kaas.broker.coordinator.CoordinatorTopic}: {@code __consumer_offsets}, {@code __transaction_state}),
 * the listeners that hand a coordinator the partitions of its topic as this broker gains and loses them
 * ({@link io.kaas.broker.coordinator.CoordinatorPartitions}), registered with the broker's partition ownership.
 */
package io.kaas.broker.coordinator;
