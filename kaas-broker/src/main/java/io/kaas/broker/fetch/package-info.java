/**
 * The Fetch machinery behind {@link io.kaas.broker.handler.FetchHandler}: reading the requested partitions
 * within the byte budgets ({@link io.kaas.broker.fetch.FetchReader}), incremental fetch sessions (KIP-227:
 * {@link io.kaas.broker.fetch.FetchSessions}, {@link io.kaas.broker.fetch.FetchSessionCache}), and long-polls
 * parked without a thread ({@link io.kaas.broker.fetch.DelayedFetch}).
 *
 * <p>Records are never copied here: a partition's records are the engine's slices wrapped as a
 * {@code records} field value ({@code LogSliceRecords}); the generated codec writes the response through
 * {@link io.kaas.wire.protocol.ResponseWriter#writeParts}, file slices as file regions (sendfile) on plaintext
 * connections, buffer slices as wrapped buffers.
 */
package io.kaas.broker.fetch;
