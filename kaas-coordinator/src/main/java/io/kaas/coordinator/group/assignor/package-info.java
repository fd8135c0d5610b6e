/**
 * The server-side assignors of KIP-848 consumer groups ({@code uniform}, {@code range}): pure functions
 * from members and topics to a target assignment. Internal to the coordinator module (not exported).
 */
package io.kaas.coordinator.group.assignor;
