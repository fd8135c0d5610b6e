package io.kaas.engine.segments.internal;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.EpochStart;
import io.kaas.api.storage.FencedLeaderEpochException;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.PartitionFence;
import io.kaas.api.storage.PartitionOfflineException;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.records.ProducerWindows;
import io.kaas.records.TransactionTracker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition of the segment engine. Appends, roll, log-start advances (DeleteRecords and retention)
 * and close run under one lock (see {@link BatchAppender}, {@link LogRetention}); reads, timestamp
 * lookups and {@link #offsets()} work lock-free on the published {@link LogState}, never looking past a
 * segment's published size.
 *
 * <p>Errors: {@link io.kaas.api.storage.RecordTooLargeException} and {@link PartitionOfflineException}
 * are thrown by {@link #append}; producer-state errors and write/fsync failures complete the future
 * exceptionally. A failed or timed-out fsync takes the partition offline until restart (reads and
 * appends throw); a write refused for lack of space is retriable and leaves nothing behind.
 *
 * <p>Leader epochs: the log is opened at the epoch its writer was assigned ({@link #leaderEpoch()}). Every file
 * it creates or rewrites carries that epoch in its name; files of earlier epochs are only read (bounded at the
 * next epoch's start, see {@link EpochHistory}) and deleted or replaced only after the {@link PartitionFence} said
 * this broker still writes the partition at its epoch. The epoch is checked once, at open: the append path has no
 * extra check.
 */
public final class SegmentPartitionLog implements PartitionLog {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentPartitionLog.class);

    private final PartitionKey key;
    final PartitionDirectory dir;
    final IoHooks hooks;
    final Clock clock;
    final ReentrantLock lock = new ReentrantLock();
    /** Held by the one compaction pass running on this partition (cleaner threads skip a partition that holds it). */
    final ReentrantLock cleaning = new ReentrantLock();
    final ProducerWindows producers;
    /** Open transactions and aborted ranges; changed under {@link #lock}, persisted in the producer snapshot. */
    final TransactionTracker transactions;
    final GroupCommitter committer;
    final CheckpointWriter checkpoints;
    private final LogRecovery.Result recovery;
    private final DeferredCloser closer;
    /** Where fsync times, stalls and recovery times are told (the broker's metrics). */
    final io.kaas.api.storage.EngineStats stats;
    /** Batches appended since the last group-commit fsync began: that fsync's group-commit size. */
    private final java.util.concurrent.atomic.LongAdder batchesSinceForce = new java.util.concurrent.atomic.LongAdder();
    private final LogReader reader;
    private final TimestampSearch timestamps;
    private final BatchAppender appender;
    private volatile LogConfig config;
    /** The published state and the segments: changed only through its methods, under {@link #lock}. */
    final PartitionState state;
    private volatile LogState lastForced;
    private volatile Throwable offlineCause;
    private volatile boolean closed;
    /** The first offset compaction has not cleaned; only the engine's background thread touches it. */
    private long cleanerCheckpoint;
    /** When a tombstone kept by compaction may go (0 = unknown after open: look once); cleaner thread only. */
    private long nextTombstoneExpiryMs;
    /** Marker offset to when compaction may remove it (its data gone); in memory, cleaner thread only. */
    private Map<Long, Long> markerHorizons = Map.of();
    private final FileFence fileFence;
    /** The leader epochs, the last this log's; replaced only at open. */
    private final EpochHistory history;
    /** Bytes of the earlier writer's last segment validated when this log took the partition over (for tests). */
    private long takeoverScannedBytes;
    /** System.nanoTime() when the running fsync started, 0 if none: one slot for the committer, one under the lock. */
    private volatile long committerFsyncStart;
    private volatile long lockedFsyncStart;

    private SegmentPartitionLog(PartitionKey key, LogConfig config, PartitionDirectory dir, LogRecovery.Result recovered,
                                EngineResources resources, IoHooks hooks, Clock clock, EpochHistory history,
                                PartitionFence fence) {
        this.key = key;
        this.history = history;
        this.fileFence = new FileFence(key, dir.epoch(), fence);
        this.config = config;
        this.dir = dir;
        this.hooks = hooks;
        this.clock = clock;
        this.closer = resources.closer();
        this.stats = resources.stats();
        this.recovery = recovered;
        this.producers = recovered.producers();
        this.transactions = recovered.transactions();
        this.transactions.dropBelow(recovered.logStartOffset());
        this.state = new PartitionState(recovered.segments(), recovered.logStartOffset(), recovered.logEndOffset(),
                transactions.lastStableOffset(recovered.logEndOffset()));
        this.checkpoints = new CheckpointWriter(dir, resources.config().checkpointIntervalMs(),
                recovered.cleanShutdown() ? state.current().checkpoint() : null);
        this.committer = new GroupCommitter(resources.committers(), new GroupCommitter.ForceTarget() {
            @Override
            public long force() throws IOException {
                return forceActive();
            }

            @Override
            public void afterDurable() {
                LogState forced = lastForced;
                if (forced != null && offlineCause == null) {
                    checkpoints.afterForce(forced);
                }
            }
        }, recovered.logEndOffset(), this::goOffline);
        this.reader = new LogReader(state.segments());
        this.timestamps = new TimestampSearch(state.segments());
        this.appender = new BatchAppender(this);
        this.cleanerCheckpoint = dir.readCleanerCheckpoint();
    }

    /** Opens (recovering if needed) the partition's directory under {@code dataDir} at epoch 0, never fenced. */
    static SegmentPartitionLog open(PartitionKey key, LogConfig config, Path dataDir, EngineResources resources,
                                    IoHooks hooks, Clock clock) throws IOException {
        return open(key, config, 0, dataDir, resources, hooks, clock, PartitionFence.NONE);
    }

    /**
     * Opens (recovering if needed) the partition's directory under {@code dataDir} as its writer at {@code epoch}.
     * Above the last epoch recorded this is a takeover: the end of the earlier writers' data is found
     * ({@link TakeoverScan#predecessorsEnd}), the epoch history with this epoch starting there is written, then the
     * log is recovered, gets a new segment of this epoch, and this epoch's manifest, recovery checkpoint and producer
     * snapshot are written; the earlier epochs' metadata files are deleted then, if the fence allows.
     *
     * @throws FencedLeaderEpochException if the directory holds a file of a higher epoch
     */
    static SegmentPartitionLog open(PartitionKey key, LogConfig config, int epoch, Path dataDir, EngineResources resources,
                                    IoHooks hooks, Clock clock, PartitionFence fence) throws IOException {
        long started = System.nanoTime();
        PartitionDirectory dir = PartitionDirectory.open(dataDir, key, epoch, hooks);
        EpochHistory history = dir.readEpochHistory();
        boolean takeover = epoch > 0 && history.lastEpoch() < epoch;
        long takeoverScanned = 0;
        if (takeover) {
            TakeoverScan.Takeover found = TakeoverScan.predecessorsEnd(dir, history);
            long start = found.startOffset();
            takeoverScanned = found.scannedBytes();
            long logStart = dir.readManifest().map(Manifest::logStartOffset).orElse(0L);
            if (history.isEmpty() && start > logStart) {
                history = history.with(0, logStart); // a directory written before epochs: its data is epoch 0
            }
            history = history.with(epoch, start);
            dir.writeEpochHistory(history); // durable before any file of this epoch exists
        }
        LogRecovery.Result recovered = LogRecovery.recover(dir, history, clock.millis());
        SegmentPartitionLog log = new SegmentPartitionLog(key, config, dir, recovered, resources, hooks, clock, history, fence);
        log.takeoverScannedBytes = takeoverScanned;
        try {
            log.deleteSegmentsBelowLogStart();
            log.writeManifest();
            if (!recovered.cleanShutdown()) {
                log.checkpoints.write(log.state.current().checkpoint()); // recovery fsynced what it validated
            }
            if (takeover) {
                log.writeProducerSnapshot(recovered.logEndOffset());
            }
        } catch (IOException | RuntimeException e) {
            try {
                log.close(); // the next open at this epoch recovers it as a restart
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (epoch > 0) {
            log.deleteSupersededFiles();
        }
        resources.stats().recovered(key, System.nanoTime() - started, recovered.scannedBytes() + takeoverScanned);
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", epoch)
                .addKeyValue("logStartOffset", recovered.logStartOffset())
                .addKeyValue("logEndOffset", recovered.logEndOffset()).addKeyValue("segments", recovered.segments().size())
                .addKeyValue("cleanShutdown", recovered.cleanShutdown()).addKeyValue("scannedBytes", recovered.scannedBytes())
                .addKeyValue("truncatedBytes", recovered.truncatedBytes()).addKeyValue("takeoverScannedBytes", takeoverScanned)
                .addKeyValue("recoveryMs", (System.nanoTime() - started) / 1_000_000)
                .log("Partition {} opened at leader epoch {}{}: offsets {} to {}, recovered in {} ms ({} bytes scanned)", key,
                        epoch, takeover ? " (taken over)" : "", recovered.logStartOffset(), recovered.logEndOffset(),
                        (System.nanoTime() - started) / 1_000_000, recovered.scannedBytes() + takeoverScanned);
        return log;
    }

    /** Bytes of the earlier writer's last segment validated at the takeover (0: none, or not a takeover). */
    long takeoverScannedBytes() {
        return takeoverScannedBytes;
    }

    /** The leader epoch this log was opened with. */
    @Override
    public int leaderEpoch() {
        return dir.epoch();
    }

    /** The epoch history without the epochs wholly below the log start (Kafka's leader-epoch cache). */
    @Override
    public List<EpochStart> epochs() {
        long logStart = state.current().logStartOffset();
        if (history.isEmpty()) {
            return List.of(new EpochStart(dir.epoch(), logStart));
        }
        return history.trimmedBelow(logStart).entries();
    }

    /** Asks the fence right before a deletion or replacement of this partition's files (see {@link FileFence}). */
    boolean mayChangeFiles(String operation) {
        return fileFence.mayChangeFiles(operation);
    }

    /**
     * After this epoch's metadata files are written: deletes what earlier epochs left that no longer counts, if the
     * fence allows ({@link PartitionDirectory#supersededFiles}).
     */
    private void deleteSupersededFiles() {
        try {
            List<Path> old = dir.supersededFiles(history);
            if (old.isEmpty() || !mayChangeFiles("deleting the files earlier leader epochs superseded")) {
                return;
            }
            for (Path p : old) {
                dir.deleteIfExists(p);
            }
            dir.fsync();
        } catch (IOException e) {
            LOG.atWarn().addKeyValue("partition", key).setCause(e)
                    .log("Could not delete the files of earlier leader epochs of {}: they are ignored", key);
        }
    }

    @Override
    public PartitionKey key() {
        return key;
    }

    LogConfig config() {
        return config;
    }

    /** What recovery did when this partition was opened (for tests and metrics). */
    LogRecovery.Result recovery() {
        return recovery;
    }

    @Override
    public CompletableFuture<AppendResult> append(ProducedBatches batches, boolean durable) {
        return appender.append(batches, durable, config);
    }

    @Override
    public ReadResult read(long offset, int maxBytes, long maxOffset, boolean minOneBatch) {
        LogState s = readableState();
        try {
            return reader.read(s, offset, maxBytes, maxOffset, minOneBatch);
        } catch (IOException e) {
            throw new KafkaStorageException("read of " + key + " at offset " + offset + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public List<AbortedTransaction> abortedTransactions(long fromOffset, long toOffset) {
        return transactions.aborted(fromOffset, toOffset);
    }

    /** Under the partition lock, held by appends only while they write (never while they wait for an fsync). */
    @Override
    public List<ProducerState> producers() {
        lock.lock();
        try {
            return producers.states(transactions.openTransactions());
        } finally {
            lock.unlock();
        }
    }

    /** The published sizes of the segments (Kafka's {@code Log.size}): lock-free, the map is concurrent. */
    @Override
    public long sizeInBytes() {
        long size = 0;
        for (Segment seg : state.segments().values()) {
            size += seg.size();
        }
        return size;
    }

    @Override
    public LogOffsets offsets() {
        return state.current().offsets();
    }

    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp) {
        try {
            return timestamps.offsetForTimestamp(readableState(), timestamp);
        } catch (IOException e) {
            throw new KafkaStorageException("timestamp lookup in " + key + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        try {
            return timestamps.maxTimestamp(readableState());
        } catch (IOException e) {
            throw new KafkaStorageException("timestamp lookup in " + key + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public CompletableFuture<Long> deleteRecordsBefore(long offset) {
        lock.lock();
        try {
            ensureWritable();
            if (!mayChangeFiles("DeleteRecords")) {
                throw new FencedLeaderEpochException("partition " + key + " is no longer written by this broker at leader epoch "
                        + dir.epoch());
            }
            LogState s = state.current();
            if (offset < 0 || offset > s.logEndOffset()) {
                throw new OffsetOutOfRangeException("cannot delete records before " + offset + ": the high watermark is "
                        + s.logEndOffset());
            }
            return CompletableFuture.completedFuture(advanceLogStart(offset));
        } catch (KafkaStorageException | FencedLeaderEpochException e) {
            return CompletableFuture.failedFuture(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The one path that moves the log start (DeleteRecords, retention): persists it in the manifest, then
     * publishes it, then deletes the closed segments wholly below it. Never moves it backwards. Under the lock.
     *
     * @return the log start afterwards
     * @throws KafkaStorageException if the new log start could not be persisted (nothing changed)
     */
    long advanceLogStart(long offset) {
        LogState s = state.current();
        if (offset <= s.logStartOffset()) {
            return s.logStartOffset();
        }
        try {
            dir.writeManifest(new Manifest(dir.epoch(), s.logEndOffset(), offset));
        } catch (IOException e) {
            throw new KafkaStorageException("could not persist the log start offset of " + key + ": " + e.getMessage(), e);
        }
        state.logStartAdvanced(offset);
        transactions.dropBelow(offset); // the next producer snapshot no longer holds them; recovery drops them too
        deleteSegmentsBelowLogStart();
        return offset;
    }

    @Override
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    /** The first offset the cleaner has not compacted yet. */
    long cleanerCheckpoint() {
        return cleanerCheckpoint;
    }

    /** When each transaction marker compaction found removable may go, by marker offset; cleaner thread only. */
    Map<Long, Long> markerHorizons() {
        return markerHorizons;
    }

    /** Records, after a compaction pass, the markers' delete horizons; cleaner thread only. */
    void markerHorizons(Map<Long, Long> horizons) {
        markerHorizons = horizons;
    }

    /** When the next tombstone kept by compaction may go (0 = unknown: look once); cleaner thread only. */
    long nextTombstoneExpiryMs() {
        return nextTombstoneExpiryMs;
    }

    /** Records, after a compaction pass, when the next kept tombstone may go; cleaner thread only. */
    void tombstonesExpireAt(long timeMs) {
        nextTombstoneExpiryMs = timeMs;
    }

    /** After a compaction pass: persists (best effort: losing it only means cleaning again) the new checkpoint. */
    void advanceCleanerCheckpoint(long firstDirtyOffset) {
        if (firstDirtyOffset <= cleanerCheckpoint) {
            return;
        }
        cleanerCheckpoint = firstDirtyOffset;
        try {
            dir.writeCleanerCheckpoint(firstDirtyOffset);
        } catch (IOException e) {
            LOG.atWarn().addKeyValue("partition", key).setCause(e).setMessage("could not write the cleaner checkpoint").log();
        }
    }

    /** Swaps a compacted copy in for a closed segment (under the lock); the old file closes after in-flight reads. */
    void replaceClosedSegment(Segment old, Segment fresh) {
        state.replaced(fresh);
        closer.closeLater(old);
    }

    /** Whether the log was closed (the engine's close, or closePartition). */
    boolean isClosed() {
        return closed;
    }

    boolean isClosedOrOffline() {
        return closed || offlineCause != null;
    }

    /** Number of group-commit fsyncs performed so far (for tests and metrics). */
    public long fsyncCount() {
        return committer.forceCount();
    }

    /** Rolls the active segment if non-empty (segment.ms of a quiet segment); under the lock. */
    void rollLocked() {
        appender.roll();
    }

    /** Flushes, checkpoints and closes every file; writes the clean-shutdown marker last. Later calls are no-ops. */
    void close() throws IOException {
        close(false);
    }

    /**
     * As {@link #close()}, for a partition given up while the broker runs ({@code closePartition}): the segments'
     * channels close after {@code deleted.segment.close.delay.ms}, so file slices already handed to fetches are sent.
     */
    void closeForHandover() throws IOException {
        close(true);
    }

    private void close(boolean deferChannels) throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            IOException failure = null;
            if (offlineCause == null) {
                try {
                    LogState s = state.current();
                    s.active().seal(this::lockedForce);
                    committer.markDurable(s.logEndOffset());
                    writeManifestOrThrow();
                    checkpoints.write(s.checkpoint());
                    writeProducerSnapshot(s.logEndOffset());
                    dir.writeCleanShutdownMarker();
                } catch (IOException e) {
                    failure = e;
                    goOffline(e);
                }
            }
            committer.close();
            for (Segment seg : state.segments().values()) {
                if (deferChannels) {
                    closer.closeLater(seg);
                    continue;
                }
                try {
                    seg.close();
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                }
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Throws if appends are refused: the partition is closed or offline. */
    void ensureWritable() {
        if (closed) {
            throw new KafkaStorageException("partition " + key + " is closed");
        }
        Throwable cause = offlineCause;
        if (cause != null) {
            throw new PartitionOfflineException("partition " + key + " is offline after a storage failure: " + cause, cause);
        }
    }

    private LogState readableState() {
        ensureWritable();
        return state.current();
    }

    /** Sticky: a failed fsync is never retried into success. */
    void goOffline(Throwable cause) {
        if (offlineCause == null) {
            offlineCause = cause;
            LOG.atError().addKeyValue("partition", key).setCause(cause)
                    .log("Partition {} offline until restart after a storage failure: {}", key, cause.getMessage());
        }
        committer.fail(cause);
    }

    /**
     * The fsync watchdog's check: an fsync running longer than {@code timeoutNanos} takes the partition
     * offline (its waiters fail now; whatever it covers is never acknowledged, even if it completes later).
     */
    void checkFsyncDeadline(long nowNanos, long timeoutNanos) {
        long committerStart = committerFsyncStart;
        long lockedStart = lockedFsyncStart;
        boolean committerOverdue = overdue(committerStart, nowNanos, timeoutNanos);
        if (offlineCause == null && (committerOverdue || overdue(lockedStart, nowNanos, timeoutNanos))) {
            double stalledSeconds = (nowNanos - (committerOverdue ? committerStart : lockedStart)) / 1e9;
            LOG.atError().addKeyValue("partition", key).addKeyValue("stalledSeconds", stalledSeconds)
                    .addKeyValue("fsyncTimeoutMs", timeoutNanos / 1_000_000)
                    .log("fsync of partition {} stalled for {} seconds (storage.segments.fsync.timeout.ms={})", key,
                            String.format(java.util.Locale.ROOT, "%.1f", stalledSeconds), timeoutNanos / 1_000_000);
            stats.fsyncStalled(key, nowNanos - (committerOverdue ? committerStart : lockedStart));
            goOffline(new KafkaStorageException("an fsync of " + key + " has not completed within "
                    + timeoutNanos / 1_000_000 + " ms"));
        }
    }

    private static boolean overdue(long started, long nowNanos, long timeoutNanos) {
        return started != 0 && nowNanos - started > timeoutNanos;
    }

    /** Asks for an fsync if data is not yet durable (the periodic flush of non-durable appends). */
    void flushIfBehind() {
        if (!closed && offlineCause == null && committer.durableOffset() < state.current().logEndOffset()) {
            committer.requestFlush();
        }
    }

    /** The group-commit fsync: forces the active segment, covering everything published before it. */
    private long forceActive() throws IOException {
        LogState s = state.current();
        long batches = batchesSinceForce.sumThenReset();
        long started = startStamp();
        committerFsyncStart = started;
        try {
            hooks.beforeForce(s.active().logPath());
            s.active().channel().force(false);
            hooks.afterForce(s.active().logPath());
        } finally {
            committerFsyncStart = 0;
        }
        stats.flushed(key, System.nanoTime() - started, (int) Math.min(Integer.MAX_VALUE, batches));
        lastForced = s;
        return s.logEndOffset();
    }

    /** A synchronous fsync under the lock (roll, close), timed by the watchdog. */
    void lockedForce(FileChannel channel, Path file) throws IOException {
        long started = startStamp();
        lockedFsyncStart = started;
        try {
            hooks.beforeForce(file);
            channel.force(true);
            hooks.afterForce(file);
        } finally {
            lockedFsyncStart = 0;
        }
        stats.flushed(key, System.nanoTime() - started, 0);
    }

    /** Counts appended batches toward the next group-commit fsync's size (once per append, not per record). */
    void appended(int batches) {
        batchesSinceForce.add(batches);
    }

    private static long startStamp() {
        long now = System.nanoTime();
        return now == 0 ? 1 : now;
    }

    void writeManifest() {
        try {
            writeManifestOrThrow();
        } catch (IOException e) {
            LOG.atWarn().addKeyValue("partition", key).setCause(e).setMessage("could not write manifest.json").log();
        }
    }

    private void writeManifestOrThrow() throws IOException {
        LogState s = state.current();
        dir.writeManifest(new Manifest(dir.epoch(), s.logEndOffset(), s.logStartOffset()));
    }

    /** Snapshots the producer state as of {@code offset} (the log end; under the lock). */
    void writeProducerSnapshot(long offset) throws IOException {
        dir.writeProducerSnapshot(ProducerSnapshot.encode(offset, producers.producers(),
                transactions.openTransactions(), transactions.abortedTransactions()));
    }

    /**
     * Compaction removes the ABORT markers of these ranges: forgets them and writes the producer snapshot without
     * them (under the lock), before the segment without the markers is swapped in.
     */
    void forgetAbortedTransactions(List<AbortedTransaction> removed) throws IOException {
        transactions.forget(removed);
        writeProducerSnapshot(state.current().logEndOffset());
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("abortedTransactions", removed)
                .setMessage("compaction removed the ABORT markers of transactions whose data was gone").log();
    }

    /**
     * Removes the producers whose last write is {@code producer.id.expiration.ms} old at {@code nowMs} and that have
     * no open transaction (Kafka's {@code removeExpiredProducers}), then writes the producer snapshot without them
     * as of the log end (fsyncing the active segment first if the log end is not durable yet), so neither a restart
     * nor a crash brings them back. Under the lock; a closed or offline partition is skipped. A failed fsync takes
     * the partition offline, as everywhere. If the snapshot cannot be written the producers are still gone from
     * memory; the older snapshot still holds them, so after a restart the next pass removes them again.
     *
     * @return the number of producers removed
     */
    int expireProducers(long nowMs, ProducerExpiration expiration) {
        lock.lock();
        try {
            if (isClosedOrOffline()) {
                return 0;
            }
            List<Long> expired = producers.expire(nowMs, expiration, transactions);
            if (expired.isEmpty()) {
                return 0;
            }
            LogState s = state.current();
            try {
                // the snapshot is as of the log end: make that durable first, or a crash that cut the log below it
                // would discard the snapshot and rebuild the producer state from the oldest segment
                if (committer.durableOffset() < s.logEndOffset()) {
                    lockedForce(s.active().channel(), s.active().logPath());
                    committer.markDurable(s.logEndOffset());
                }
            } catch (IOException e) {
                goOffline(e);
                return expired.size();
            }
            try {
                writeProducerSnapshot(s.logEndOffset());
            } catch (IOException e) {
                LOG.atWarn().addKeyValue("partition", key).setCause(e)
                        .log("Could not write the producer snapshot of {} after expiring producers", key);
            }
            LOG.atInfo().addKeyValue("partition", key).addKeyValue("count", expired.size())
                    .addKeyValue("producerIds", ProducerWindows.describe(expired))
                    .addKeyValue("producerIdExpirationMs", expiration.expirationMs())
                    .log("Removed the state of {} producer(s) of {} idle for producer.id.expiration.ms={}: {}",
                            expired.size(), key, expiration.expirationMs(), ProducerWindows.describe(expired));
            return expired.size();
        } finally {
            lock.unlock();
        }
    }

    /** Deletes closed segments whose every offset is below the log start; their channels close later. */
    private void deleteSegmentsBelowLogStart() {
        LogState s = state.current();
        NavigableMap<Long, Segment> segments = state.segments();
        boolean deleted = false;
        Long second = segments.higherKey(segments.firstKey());
        if (second == null || second > s.logStartOffset() || !mayChangeFiles("deleting segments below the log start")) {
            return;
        }
        for (Segment seg : segments.values()) {
            Long next = segments.higherKey(seg.baseOffset());
            if (seg == s.active() || next == null || next > s.logStartOffset()) {
                break;
            }
            state.removed(seg);
            try {
                dir.deleteSegmentFiles(seg.file());
                deleted = true;
            } catch (IOException e) {
                LOG.atWarn().addKeyValue("file", seg.logPath()).setCause(e).setMessage("could not delete a segment").log();
            }
            closer.closeLater(seg);
        }
        if (deleted) {
            try {
                dir.fsync();
            } catch (IOException e) {
                LOG.atWarn().addKeyValue("dir", dir.path()).setCause(e).setMessage("could not fsync after deleting segments").log();
            }
        }
    }
}
