/**
 * The group coordinator: Kafka's classic group protocol (JoinGroup / SyncGroup / Heartbeat /
 * LeaveGroup) with its state machine, the KIP-848 consumer protocol (ConsumerGroupHeartbeat: member and
 * group epochs, server-side {@code uniform} / {@code range} assignors, revocation before reassignment), and
 * committed offsets kept durably through the
 * {@link io.kaas.api.cluster.ClusterStateStore}. Membership lives in memory only, as in Kafka, where
 * members rejoin after a coordinator restart; offsets survive. All timeouts run as tasks on the
 * broker's scheduler (no thread per group or member); each group's state is guarded by the group's
 * own monitor.
 *
 * <p>The exported API is what the broker's group handlers call: {@link io.kaas.coordinator.group.GroupCoordinator}
 * (membership), its {@link io.kaas.coordinator.group.OffsetManager} (committed offsets) and
 * {@link io.kaas.coordinator.group.GroupAdmin} (list, describe, delete), configured by a
 * {@link io.kaas.coordinator.group.GroupCoordinatorConfig}. The group and member state, the group states and
 * the two protocols' state machines are package-private here; the assignors are in the unexported
 * {@code io.kaas.coordinator.group.assignor}.
 */
package io.kaas.coordinator.group;
