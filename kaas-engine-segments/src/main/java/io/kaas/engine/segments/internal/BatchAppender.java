package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.InvalidRecordException;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionOfflineException;
import io.kaas.api.storage.RecordTooLargeException;
import io.kaas.api.storage.StorageException;
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

    CompletableFuture<AppendResult> append(ByteBuffer batches, boolean durable, LogConfig config) {
        List<BatchHeader> headers = parse(batches);
        for (BatchHeader h : headers) {
            if (h.sizeInBytes() > config.maxMessageBytes()) {
                throw new RecordTooLargeException("batch of " + h.sizeInBytes() + " bytes exceeds max.message.bytes "
                        + config.maxMessageBytes() + " of " + log.key());
            }
        }
        log.lock.lock();
        try {
            log.ensureWritable();
            return appendLocked(batches, headers, durable, config);
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
        LogState before = log.state;
        ProducerStateTable.Staged staged = log.producers.stage();
        long appendTime = config.logAppendTime() ? log.clock.millis() : -1L;
        List<Planned> planned = new ArrayList<>(headers.size());
        long next = before.logEndOffset();
        long first = -1;
        long last = -1;
        for (BatchHeader h : headers) {
            Optional<ProducerStateTable.BatchMeta> duplicate = staged.check(h);
            if (duplicate.isPresent()) {
                first = first < 0 ? duplicate.get().baseOffset() : first;
                last = duplicate.get().lastOffset();
                continue;
            }
            int pos = (int) h.position();
            RecordBatches.setBaseOffset(batches, pos, next);
            if (config.logAppendTime()) {
                RecordBatches.setLogAppendTime(batches, pos, appendTime);
            }
            staged.record(h, next, next + h.lastOffsetDelta());
            planned.add(new Planned(h, next));
            first = first < 0 ? next : first;
            last = next + h.lastOffsetDelta();
            next = last + 1;
        }
        AppendResult result = new AppendResult(first, last, planned.isEmpty() ? -1L : appendTime, before.logStartOffset());
        if (!planned.isEmpty()) {
            write(batches, planned, next, config);
            staged.commit();
            countForFlush(planned, durable, config);
        }
        if (!durable) {
            return CompletableFuture.completedFuture(result);
        }
        return log.committer.awaitDurable(log.state.logEndOffset()).thenApply(v -> result);
    }

    private void write(ByteBuffer batches, List<Planned> planned, long next, LogConfig config) {
        long bytes = 0;
        for (Planned p : planned) {
            bytes += p.header().sizeInBytes();
        }
        Segment seg = maybeRoll(bytes, next, config);
        long start = seg.size();
        long at = start;
        try {
            for (Planned p : planned) {
                int pos = (int) p.header().position();
                ByteBuffer slice = batches.duplicate().limit(pos + p.header().sizeInBytes()).position(pos);
                seg.write(slice, at, log.hooks);
                at += p.header().sizeInBytes();
            }
        } catch (IOException e) {
            cutBack(seg, start);
            throw new KafkaStorageException("write to " + seg.logPath() + " failed: " + e.getMessage(), e);
        }
        try {
            at = start;
            for (Planned p : planned) {
                seg.indexBatch(at, p.baseOffset(), p.header().sizeInBytes());
                at += p.header().sizeInBytes();
            }
        } catch (IOException e) {
            cutBack(seg, start);
            log.goOffline(e); // the in-memory index may now point past the end: refuse service until restart
            throw new PartitionOfflineException("index write for " + log.key() + " failed: " + e.getMessage(), e);
        }
        seg.publish(at, next);
        log.state = LogState.of(log.state.logStartOffset(), next, seg);
    }

    private void cutBack(Segment seg, long size) {
        try {
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

    /** Rolls to a new segment if the active one would pass segment.bytes (or its int32 relative offsets). */
    private Segment maybeRoll(long bytes, long nextAfter, LogConfig config) {
        LogState s = log.state;
        Segment active = s.active();
        long limit = Math.min(config.segmentBytes(), Integer.MAX_VALUE);
        boolean full = active.size() + bytes > limit;
        boolean offsetsOverflow = nextAfter - active.baseOffset() > Integer.MAX_VALUE;
        if (active.size() == 0 || !(full || offsetsOverflow)) {
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
            active.seal();
        } catch (IOException e) {
            log.goOffline(e);
            throw new PartitionOfflineException("fsync of " + active.logPath() + " at roll failed", e);
        }
        log.committer.markDurable(base);
        log.segments.put(base, fresh);
        log.state = LogState.of(s.logStartOffset(), base, fresh);
        log.writeManifest();
        return fresh;
    }

    private List<BatchHeader> parse(ByteBuffer batches) {
        List<BatchHeader> headers = new ArrayList<>();
        int pos = batches.position();
        while (pos < batches.limit()) {
            int size = RecordBatches.announcedSize(batches, pos);
            if (size < RecordBatches.HEADER_SIZE || size > batches.limit() - pos) {
                throw new InvalidRecordException("malformed record batch at byte " + (pos - batches.position()));
            }
            headers.add(RecordBatches.header(batches, pos, pos));
            pos += size;
        }
        if (headers.isEmpty()) {
            throw new InvalidRecordException("no record batch to append");
        }
        return headers;
    }
}
