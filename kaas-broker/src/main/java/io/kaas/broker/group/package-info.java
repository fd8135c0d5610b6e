/**
 * The group coordinator: Kafka's classic group protocol (JoinGroup / SyncGroup / Heartbeat /
 * LeaveGroup) with its state machine, the KIP-848 consumer protocol (ConsumerGroupHeartbeat: member and
 * group epochs, server-side {@code uniform} / {@code range} assignors, revocation before reassignment), and
 * committed offsets kept durably through the
 * {@link io.kaas.api.cluster.ClusterStateStore}. Membership lives in memory only, as in Kafka, where
 * members rejoin after a coordinator restart; offsets survive. All timeouts run as tasks on the
 * broker's scheduler (no thread per group or member); each group's state is guarded by the group's
 * own monitor.
 */
package io.kaas.broker.group;
