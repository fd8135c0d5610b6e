package io.kaas.plugins.internal;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.TimestampOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A plugin's {@link PartitionLog}, with the plugin's context class loader around every call. On the
 * produce and fetch path: the swap is two field writes per call; no allocation beyond the
 * try-with-resources object, which escape analysis usually removes.
 */
final class PluginPartitionLog implements PartitionLog {
    private final PartitionLog delegate;
    private final PartitionKey key;
    private final ClassLoader loader;

    PluginPartitionLog(PartitionLog delegate, PartitionKey key, ClassLoader loader) {
        this.delegate = delegate;
        this.key = key;
        this.loader = loader;
    }

    /** The key the partition was opened with (the SPI requires the log to report the same). */
    @Override
    public PartitionKey key() {
        return key;
    }

    @Override
    public CompletableFuture<AppendResult> append(ProducedBatches batches, boolean durable) {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.append(batches, durable);
        }
    }

    @Override
    public ReadResult read(long offset, int maxBytes, long maxOffset, boolean minOneBatch) {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.read(offset, maxBytes, maxOffset, minOneBatch);
        }
    }

    @Override
    public List<AbortedTransaction> abortedTransactions(long fromOffset, long toOffset) {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.abortedTransactions(fromOffset, toOffset);
        }
    }

    @Override
    public List<ProducerState> producers() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.producers();
        }
    }

    @Override
    public long sizeInBytes() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.sizeInBytes();
        }
    }

    @Override
    public LogOffsets offsets() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.offsets();
        }
    }

    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp) {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.offsetForTimestamp(timestamp);
        }
    }

    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.maxTimestamp();
        }
    }

    @Override
    public CompletableFuture<Long> deleteRecordsBefore(long offset) {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.deleteRecordsBefore(offset);
        }
    }

    @Override
    public void updateConfig(LogConfig config) {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            delegate.updateConfig(config);
        }
    }

    @Override
    public int leaderEpoch() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.leaderEpoch();
        }
    }

    @Override
    public List<io.kaas.api.storage.EpochStart> epochs() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.epochs();
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
