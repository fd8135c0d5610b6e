package io.kaas.broker.coordinator;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.EpochStart;
import io.kaas.api.storage.FencedLeaderEpochException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionFence;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.TimestampOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A coordinator's partition of {@code __consumer_offsets} or {@code __transaction_state} whose appends count only
 * while this broker still writes the partition at the epoch it gained it with: checked once the append is durable, as
 * Produce checks before it acknowledges. A broker that was fenced meanwhile (paused past its session, or the partition
 * handed over) fails the append with {@link FencedLeaderEpochException}, so no commit it could not prove is answered
 * as done: its successor does not read what it wrote then. Everything else is the log's own.
 */
final class FencedCoordinatorLog implements PartitionLog {
    private final PartitionLog log;
    private final PartitionFence fence;
    private final int leaderEpoch;

    FencedCoordinatorLog(PartitionLog log, PartitionFence fence, int leaderEpoch) {
        this.log = log;
        this.fence = fence;
        this.leaderEpoch = leaderEpoch;
    }

    @Override
    public PartitionKey key() {
        return log.key();
    }

    @Override
    public CompletableFuture<AppendResult> append(ProducedBatches batches, boolean durable) {
        return log.append(batches, durable).thenApply(result -> {
            if (!fence.mayWrite(log.key(), leaderEpoch)) {
                throw new CompletionException(new FencedLeaderEpochException("this broker no longer writes "
                        + log.key() + " at leader epoch " + leaderEpoch + ": the write is not acknowledged"));
            }
            return result;
        });
    }

    @Override
    public ReadResult read(long offset, int maxBytes, long maxOffset, boolean minOneBatch) {
        return log.read(offset, maxBytes, maxOffset, minOneBatch);
    }

    @Override
    public List<AbortedTransaction> abortedTransactions(long fromOffset, long toOffset) {
        return log.abortedTransactions(fromOffset, toOffset);
    }

    @Override
    public List<ProducerState> producers() {
        return log.producers();
    }

    @Override
    public long sizeInBytes() {
        return log.sizeInBytes();
    }

    @Override
    public LogOffsets offsets() {
        return log.offsets();
    }

    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp) {
        return log.offsetForTimestamp(timestamp);
    }

    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        return log.maxTimestamp();
    }

    @Override
    public CompletableFuture<Long> deleteRecordsBefore(long offset) {
        return log.deleteRecordsBefore(offset);
    }

    @Override
    public void updateConfig(LogConfig config) {
        log.updateConfig(config);
    }

    @Override
    public int leaderEpoch() {
        return log.leaderEpoch();
    }

    @Override
    public List<EpochStart> epochs() {
        return log.epochs();
    }

    @Override
    public String toString() {
        return log.toString();
    }
}
