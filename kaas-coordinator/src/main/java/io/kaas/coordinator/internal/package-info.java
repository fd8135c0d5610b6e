/**
 * What both coordinators share and nothing outside this module uses: the partitions of an internal topic this broker
 * owns now ({@link io.kaas.coordinator.internal.OwnedPartitions}) and the reading of such a partition from its log
 * start ({@link io.kaas.coordinator.internal.StateLogReader}).
 */
package io.kaas.coordinator.internal;
