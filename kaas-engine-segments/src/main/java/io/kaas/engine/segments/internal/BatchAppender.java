package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.InvalidRecordException;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionOfflineException;
import io.kaas.api.storage.RecordTooLargeException;
import io.kaas.api.storage.StorageException;
import io.kaas.records.ProducerWindows;
import io.kaas.records.TransactionTracker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The append path of a {@link SegmentPartitionLog}, run under its lock: size check, idempotence
 * check, offset assignment in place, roll, positional write, publish, then durability through the
 * {@link GroupCommitter}. A failed write is cut back to the size before the append, so no partial
 * batch stays and no offset is consumed.
 */
final class BatchAppender {
    private final SegmentPartitionLog log;
    private long unflushedMessages;

    /** A batch to write, with the base offset it was assigned. */
    private record Planned(BatchHeader header, long baseOffset) {
    }

    BatchAppender(SegmentPartitionLog log) {
        this.log = log;
    }

    CompletableFuture<AppendResult> append(ProducedBatches produced, boolean durable, LogConfig config) {
        List<BatchHeader> headers = produced.headers();
        for (BatchHeader h : headers) {
            if (h.sizeInBytes() > config.maxMessageBytes()) {
                throw new RecordTooLargeException("batch of " + h.sizeInBytes() + " bytes exceeds max.message.bytes "
                        + config.maxMessageBytes() + " of " + log.key());
            }
        }
        if (config.compact()) {
            requireKeys(produced);
        }
        log.lock.lock();
        try {
            log.ensureWritable();
            return appendLocked(produced.buffer(), headers, durable, config);
        } catch (StorageException e) {
            if (e instanceof PartitionOfflineException) {
                throw e;
            }
            return CompletableFuture.failedFuture(e);
        } finally {
            log.lock.unlock();
        }
    }

    private CompletableFuture<AppendResult> appendLocked(ByteBuffer batches, List<BatchHeader> headers, boolean durable,
                                                         LogConfig config) {
        LogState before = log.state.current();
        ProducerWindows.Staged staged = log.producers.stage();
        TransactionTracker.Staged txns = log.transactions.stage();
        long appendTime = config.logAppendTime() ? log.clock.millis() : -1L;
        List<Planned> planned = new ArrayList<>(headers.size());
        long next = before.logEndOffset();
        long first = -1;
        long last = -1;
        for (BatchHeader h : headers) {
            int pos = (int) h.position();
            ByteBuffer batch = h.hasProducerId() ? batches.duplicate().limit(pos + h.sizeInBytes()).position(pos).slice()
                    : null;
            Optional<ProducerWindows.Batch> duplicate = staged.check(h, batch);
            if (duplicate.isPresent()) {
                first = first < 0 ? duplicate.get().firstOffset() : first;
                last = duplicate.get().lastOffset();
                continue;
            }
            RecordBatches.setBaseOffset(batches, pos, next);
            if (config.logAppendTime()) {
                RecordBatches.setLogAppendTime(batches, pos, appendTime);
            }
            staged.record(h, next, batch);
            if (TransactionTracker.concerns(h)) {
                txns.record(h, next, batch);
            }
            planned.add(new Planned(h, next));
            first = first < 0 ? next : first;
            last = next + h.lastOffsetDelta();
            next = last + 1;
        }
        AppendResult result = new AppendResult(first, last, planned.isEmpty() ? -1L : appendTime, before.logStartOffset());
        if (!planned.isEmpty()) {
            log.appended(planned.size());
            if (config.logAppendTime()) {
                log.stats.batchesRewritten(io.kaas.api.storage.EngineStats.LOG_APPEND_TIME, planned.size());
            }
            write(batches, planned, next, config, appendTime, txns.lastStableOffset(next));
            staged.commit();
            txns.commit();
            countForFlush(planned, durable, config);
        }
        if (!durable) {
            return CompletableFuture.completedFuture(result);
        }
        return log.committer.awaitDurable(log.state.current().logEndOffset()).thenApply(v -> result);
    }

    private void write(ByteBuffer batches, List<Planned> planned, long next, LogConfig config, long appendTime,
                       long lastStableOffset) {
        long bytes = 0;
        for (Planned p : planned) {
            bytes += p.header().sizeInBytes();
        }
        Segment seg = maybeRoll(bytes, next, config);
        long start = seg.size();
        Segment.Mark mark = seg.mark();
        long at = start;
        try {
            for (Planned p : planned) {
                int pos = (int) p.header().position();
                ByteBuffer slice = batches.duplicate().limit(pos + p.header().sizeInBytes()).position(pos);
                seg.write(slice, at, log.hooks);
                at += p.header().sizeInBytes();
            }
            at = start;
            for (Planned p : planned) {
                long ts = config.logAppendTime() ? appendTime : p.header().maxTimestamp();
                seg.indexBatch(at, p.baseOffset(), p.header().sizeInBytes(), ts, log.hooks);
                at += p.header().sizeInBytes();
            }
        } catch (IOException e) {
            // e.g. no space left: undo the partial batch and its index entries; the append is retriable
            undo(seg, start, mark);
            throw new KafkaStorageException("write to " + seg.logPath() + " failed: " + e.getMessage(), e);
        }
        seg.publish(at, next, log.clock.millis());
        log.state.appended(next, seg, lastStableOffset);
    }

    /** Cuts the log and its indexes back to before a failed append; if even that fails, the partition goes offline. */
    private void undo(Segment seg, long size, Segment.Mark mark) {
        try {
            seg.rollback(mark);
            seg.channel().truncate(size);
        } catch (IOException e) {
            log.goOffline(e);
        }
    }

    private void countForFlush(List<Planned> planned, boolean durable, LogConfig config) {
        if (durable) {
            unflushedMessages = 0; // the durable waiter's fsync covers everything written so far
            return;
        }
        for (Planned p : planned) {
            unflushedMessages += Math.max(1, p.header().recordCount());
        }
        if (unflushedMessages >= config.flushMessages()) {
            unflushedMessages = 0;
            log.committer.requestFlush();
        }
    }

    /**
     * Rolls to a new segment if the active one would pass segment.bytes (or its int32 relative offsets), or
     * is older than segment.ms.
     */
    private Segment maybeRoll(long bytes, long nextAfter, LogConfig config) {
        Segment active = log.state.current().active();
        long limit = Math.min(config.segmentBytes(), Integer.MAX_VALUE);
        boolean full = active.size() + bytes > limit;
        boolean offsetsOverflow = nextAfter - active.baseOffset() > Integer.MAX_VALUE;
        if (active.size() == 0 || !(full || offsetsOverflow || isAged(active, config, log.clock.millis()))) {
            return active;
        }
        return roll();
    }

    /** Whether {@code segment.ms} has passed since the segment's first batch. */
    static boolean isAged(Segment segment, LogConfig config, long nowMs) {
        long base = segment.rollBaseMs();
        return config.segmentMs() > 0 && base >= 0 && nowMs - base >= config.segmentMs();
    }

    /**
     * Starts a new segment at the log end, under the lock: creates it (a failure, such as a full disk, is
     * retriable and changes nothing), seals the old one (a failed or timed-out fsync takes the partition
     * offline), then writes the manifest, recovery checkpoint and producer snapshot.
     */
    Segment roll() {
        LogState s = log.state.current();
        Segment active = s.active();
        if (active.size() == 0) {
            return active;
        }
        long base = s.logEndOffset();
        Segment fresh;
        try {
            fresh = Segment.open(log.dir, base);
            fresh.restore(0, base);
        } catch (IOException e) {
            throw new KafkaStorageException("could not create segment " + base + " of " + log.key() + ": " + e.getMessage(), e);
        }
        try {
            active.seal(log::lockedForce);
        } catch (IOException e) {
            log.goOffline(e);
            try {
                fresh.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new PartitionOfflineException("fsync of " + active.logPath() + " at roll failed", e);
        }
        log.ensureWritable(); // the watchdog may have given up on that fsync
        log.committer.markDurable(base);
        log.state.rolled(fresh);
        log.writeManifest();
        try {
            log.checkpoints.write(log.state.current().checkpoint());
            log.writeProducerSnapshot(base);
        } catch (IOException e) {
            // not fatal: the next recovery scans and replays more
            org.slf4j.LoggerFactory.getLogger(BatchAppender.class).atWarn().addKeyValue("partition", log.key()).setCause(e)
                    .setMessage("could not write the recovery checkpoint or producer snapshot at roll").log();
        }
        return fresh;
    }

    /**
     * Compacted topics only (records are decompressed): every record needs a key, as Kafka requires. Every keyless
     * record is named by its index (counted across the appended records) so Produce can answer its record_errors.
     */
    private void requireKeys(ProducedBatches produced) {
        List<InvalidRecordException.RecordError> keyless = new ArrayList<>();
        int index = 0;
        for (BatchHeader h : produced.headers()) {
            if (h.isControl() || h.recordCount() == 0) {
                index += Math.max(0, h.recordCount());
                continue;
            }
            KeyedRecords records;
            if (h.compressionCodec() != 0) {
                log.stats.batchesDecompressed(io.kaas.api.storage.EngineStats.COMPACTED_KEY_VALIDATION, 1);
            }
            try {
                records = KeyedRecords.parse(produced.batch(h));
            } catch (java.io.IOException | RuntimeException e) {
                throw new InvalidRecordException("cannot read the records of a batch for " + log.key() + ": " + e.getMessage(), e);
            }
            for (KeyedRecords.Rec r : records.records()) {
                if (!r.hasKey()) {
                    keyless.add(new InvalidRecordException.RecordError(index,
                            "Compacted topic cannot accept message without key in topic partition " + log.key()));
                }
                index++;
            }
        }
        if (!keyless.isEmpty()) {
            throw InvalidRecordException.forRecords(keyless);
        }
    }
}
