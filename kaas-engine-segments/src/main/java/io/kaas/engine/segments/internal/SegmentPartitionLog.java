package io.kaas.engine.segments.internal;

import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.PartitionOfflineException;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.StorageException;
import io.kaas.api.storage.TimestampOffset;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition of the segment engine. Appends, roll, DeleteRecords and close run under one lock
 * (see {@link BatchAppender}); reads, timestamp lookups and {@link #offsets()} work lock-free on the
 * published {@link LogState}, never looking past a segment's published size.
 *
 * <p>Errors: {@link io.kaas.api.storage.RecordTooLargeException} and {@link PartitionOfflineException}
 * are thrown by {@link #append}; producer-state errors and write/fsync failures complete the future
 * exceptionally. A failed fsync takes the partition offline until restart (reads and appends throw).
 */
public final class SegmentPartitionLog implements PartitionLog {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentPartitionLog.class);

    private final PartitionKey key;
    final PartitionDirectory dir;
    final IoHooks hooks;
    final Clock clock;
    final ReentrantLock lock = new ReentrantLock();
    final ConcurrentSkipListMap<Long, Segment> segments;
    final ProducerStateTable producers;
    final GroupCommitter committer;
    private final DeferredCloser closer;
    private final LogReader reader;
    private final TimestampSearch timestamps;
    private final BatchAppender appender;
    private volatile LogConfig config;
    volatile LogState state;
    private volatile Throwable offlineCause;
    private volatile boolean closed;

    private SegmentPartitionLog(PartitionKey key, LogConfig config, PartitionDirectory dir, LogRecovery.Result recovered,
                                Executor committerPool, DeferredCloser closer, IoHooks hooks, Clock clock) {
        this.key = key;
        this.config = config;
        this.dir = dir;
        this.hooks = hooks;
        this.clock = clock;
        this.closer = closer;
        this.segments = recovered.segments();
        this.producers = recovered.producers();
        Segment active = segments.lastEntry().getValue();
        this.state = LogState.of(recovered.logStartOffset(), recovered.logEndOffset(), active);
        this.committer = new GroupCommitter(committerPool, this::forceActive, recovered.logEndOffset(), this::goOffline);
        this.reader = new LogReader(segments);
        this.timestamps = new TimestampSearch(segments);
        this.appender = new BatchAppender(this);
    }

    /** Opens (recovering if needed) the partition's directory under {@code dataDir}. */
    static SegmentPartitionLog open(PartitionKey key, LogConfig config, Path dataDir, Executor committerPool,
                                    DeferredCloser closer, IoHooks hooks, Clock clock) throws IOException {
        PartitionDirectory dir = PartitionDirectory.open(dataDir, key);
        LogRecovery.Result recovered = LogRecovery.recover(dir);
        SegmentPartitionLog log = new SegmentPartitionLog(key, config, dir, recovered, committerPool, closer, hooks, clock);
        log.deleteSegmentsBelowLogStart();
        log.writeManifest();
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("logStartOffset", recovered.logStartOffset())
                .addKeyValue("logEndOffset", recovered.logEndOffset()).addKeyValue("segments", recovered.segments().size())
                .addKeyValue("truncatedBytes", recovered.truncatedBytes()).setMessage("partition opened").log();
        return log;
    }

    @Override
    public PartitionKey key() {
        return key;
    }

    LogConfig config() {
        return config;
    }

    @Override
    public CompletableFuture<AppendResult> append(ByteBuffer batches, boolean durable) {
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
    public LogOffsets offsets() {
        return state.offsets();
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
            LogState s = state;
            if (offset < 0 || offset > s.logEndOffset()) {
                throw new OffsetOutOfRangeException("cannot delete records before " + offset + ": the high watermark is "
                        + s.logEndOffset());
            }
            if (offset <= s.logStartOffset()) {
                return CompletableFuture.completedFuture(s.logStartOffset());
            }
            try {
                dir.writeManifest(new Manifest(dir.epoch(), s.logEndOffset(), offset));
            } catch (IOException e) {
                return CompletableFuture.failedFuture(new KafkaStorageException(
                        "could not persist the log start offset of " + key + ": " + e.getMessage(), e));
            }
            state = s.withLogStart(offset);
            deleteSegmentsBelowLogStart();
            return CompletableFuture.completedFuture(offset);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    /** Number of group-commit fsyncs performed so far (for tests and metrics). */
    public long fsyncCount() {
        return committer.forceCount();
    }

    /** Flushes and closes every file. Later calls are no-ops. */
    void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            IOException failure = null;
            if (offlineCause == null) {
                try {
                    LogState s = state;
                    s.active().seal();
                    committer.markDurable(s.logEndOffset());
                    writeManifestOrThrow();
                } catch (IOException e) {
                    failure = e;
                    goOffline(e);
                }
            }
            committer.close();
            for (Segment seg : segments.values()) {
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
        return state;
    }

    /** Sticky: a failed fsync is never retried into success. */
    void goOffline(Throwable cause) {
        if (offlineCause == null) {
            offlineCause = cause;
            LOG.atError().addKeyValue("partition", key).setCause(cause)
                    .setMessage("storage failure; partition offline until restart").log();
        }
        committer.fail(cause);
    }

    /** The group-commit fsync: forces the active segment, covering everything published before it. */
    private long forceActive() throws IOException {
        LogState s = state;
        hooks.beforeForce(s.active().logPath());
        s.active().channel().force(false);
        return s.logEndOffset();
    }

    void writeManifest() {
        try {
            writeManifestOrThrow();
        } catch (IOException e) {
            LOG.atWarn().addKeyValue("partition", key).setCause(e).setMessage("could not write manifest.json").log();
        }
    }

    private void writeManifestOrThrow() throws IOException {
        LogState s = state;
        dir.writeManifest(new Manifest(dir.epoch(), s.logEndOffset(), s.logStartOffset()));
    }

    /** Deletes closed segments whose every offset is below the log start; their channels close later. */
    private void deleteSegmentsBelowLogStart() {
        LogState s = state;
        for (Segment seg : segments.values()) {
            Long next = segments.higherKey(seg.baseOffset());
            if (seg == s.active() || next == null || next > s.logStartOffset()) {
                break;
            }
            segments.remove(seg.baseOffset());
            try {
                java.nio.file.Files.deleteIfExists(seg.logPath());
                java.nio.file.Files.deleteIfExists(seg.index().path());
            } catch (IOException e) {
                LOG.atWarn().addKeyValue("file", seg.logPath()).setCause(e).setMessage("could not delete a segment").log();
            }
            closer.closeLater(seg);
        }
    }
}
