/**
 * The segment engine's implementation; never exported.
 *
 * <p>Per partition: a {@link io.kaas.engine.segments.internal.PartitionDirectory} on disk, a
 * {@link io.kaas.engine.segments.internal.SegmentPartitionLog} that serializes appends under one lock
 * and publishes an immutable {@link io.kaas.engine.segments.internal.LogState} for lock-free readers,
 * a {@link io.kaas.engine.segments.internal.GroupCommitter} that coalesces fsyncs, and
 * {@link io.kaas.engine.segments.internal.LogRecovery} that validates the last segment on open.
 */
package io.kaas.engine.segments.internal;
