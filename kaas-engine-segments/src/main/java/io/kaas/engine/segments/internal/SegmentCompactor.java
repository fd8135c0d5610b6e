package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.storage.AbortedTransaction;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Rewrites one closed segment for {@link LogCleaner} and swaps the copy in crash-safely:
 *
 * <ol>
 *   <li>Batches are copied to {@code <segment>.log.cleaned}: unchanged batches verbatim; a batch that lost
 *       records is rebuilt from the survivors' bytes (same base offset, last offset delta, timestamps and
 *       producer fields; recompressed with its codec; new CRC). A batch left empty is dropped, except the
 *       segment's last batch (so the segment keeps its end offset) and a batch still in its producer's
 *       idempotence window (as Kafka keeps it for the producer's sequence state): those stay as empty
 *       batches. The records of an aborted transaction are all dropped. A COMMIT or ABORT marker is removed only
 *       when {@link CleanedTransactions} says so (its data gone, {@code delete.retention.ms} passed) and it is not
 *       the segment's last batch; other markers and batches at or past {@code mapEnd} are copied as they
 *       are.</li>
 *   <li>If nothing changed the copy is deleted. Else it is fsynced, then, under the partition lock and only if
 *       the segment is still in the log: renamed to {@code .swap} and the directory fsynced (the commit
 *       point), the old indexes deleted, {@code .swap} renamed over {@code .log}, the directory fsynced, and
 *       the segment reopened with indexes rebuilt from its batches. The old file stays open for in-flight
 *       reads until the deferred closer closes it.</li>
 *   <li>{@link PartitionDirectory#open} rolls a crash back (a {@code .cleaned} is deleted) or forward (a
 *       {@code .swap} is completed): either way the log opens and reads.</li>
 * </ol>
 *
 * <p>The copy keeps the segment's name (its epoch and base), also for a segment of an earlier epoch: it holds the
 * same offsets. Right before the swap the fence is asked ({@link SegmentPartitionLog#mayChangeFiles}); a fenced
 * partition drops its copy.
 */
final class SegmentCompactor {
    private SegmentCompactor() {
    }

    /** Compacts {@code seg}; returns whether it was rewritten and swapped in. */
    static boolean compact(SegmentPartitionLog log, Segment seg, KeyMap map, long mapEnd, boolean dropTombstones,
                           Set<Long> producerBatches, LogCleaner.Pass pass, CleanedTransactions txns, IoThrottle throttle)
            throws IOException {
        Path cleaned = log.dir.cleanedFile(seg.file());
        Copy copy = new Copy(log, seg, cleaned, throttle);
        List<AbortedTransaction> removedAborts = new ArrayList<>();
        try {
            long pos = 0;
            long size = seg.size();
            while (pos < size) {
                BatchHeader h = seg.readHeader(pos, size);
                if (h == null) {
                    break;
                }
                long start = pos;
                pos += h.sizeInBytes();
                throttle.charge(h.sizeInBytes()); // read
                if (h.isControl()) {
                    short type = ControlRecords.type(seg.read(start, h.sizeInBytes()), 0, h);
                    boolean removable = txns.onMarker(h, type) && h.baseOffset() < mapEnd;
                    if (removable && pos < size) {
                        copy.replace(start, null);
                        AbortedTransaction range = txns.abortedRangeEndingAt(h.producerId(), h.baseOffset());
                        if (range != null) {
                            removedAborts.add(range);
                        }
                    } else {
                        if (removable) {
                            txns.keptAnyway(h.baseOffset());
                        }
                        copy.keep(start, h.sizeInBytes());
                    }
                    continue;
                }
                boolean aborted = txns.onData(h);
                if (h.baseOffset() >= mapEnd || h.recordCount() == 0) {
                    copy.keep(start, h.sizeInBytes());
                    continue;
                }
                ByteBuffer batch = seg.read(start, h.sizeInBytes());
                KeyedRecords records = KeyedRecords.parse(batch);
                List<KeyedRecords.Rec> kept = aborted ? List.of() : retained(records, map, mapEnd, dropTombstones, pass, seg);
                if (kept.size() == records.records().size()) {
                    copy.keep(start, h.sizeInBytes());
                    continue;
                }
                if (h.isTransactional() && kept.isEmpty()) {
                    txns.dataDropped();
                }
                if (!kept.isEmpty() || pos >= size || producerBatches.contains(h.baseOffset())) {
                    copy.replace(start, records.rewrite(batch, kept));
                } else {
                    copy.replace(start, null);
                }
            }
            if (!copy.finish()) {
                return false;
            }
        } catch (IOException | RuntimeException e) {
            copy.abort();
            throw e;
        }
        return swap(log, seg, cleaned, removedAborts);
    }

    /**
     * The {@code .cleaned} copy, opened only at the first change: an unchanged segment costs reads only. The
     * unchanged batches before it are copied in one transfer.
     */
    private static final class Copy {
        private final SegmentPartitionLog log;
        private final Segment seg;
        private final Path path;
        private final IoThrottle throttle;
        private FileChannel out;
        private long verbatimFrom;
        private long verbatimTo;
        private long written;

        Copy(SegmentPartitionLog log, Segment seg, Path path, IoThrottle throttle) {
            this.log = log;
            this.seg = seg;
            this.path = path;
            this.throttle = throttle;
        }

        void keep(long start, int size) throws IOException {
            if (verbatimTo != start) {
                flushVerbatim();
                verbatimFrom = start;
            }
            verbatimTo = start + size;
        }

        void replace(long start, ByteBuffer batch) throws IOException {
            if (out == null) {
                out = PartitionDirectory.openChannel(path, log.hooks, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
            }
            flushVerbatim();
            verbatimFrom = start;
            verbatimTo = start;
            if (batch != null) {
                log.hooks.beforeWrite(path);
                throttle.charge(batch.remaining()); // written
                while (batch.hasRemaining()) {
                    written += out.write(batch, written);
                }
            }
        }

        private void flushVerbatim() throws IOException {
            if (out == null || verbatimTo <= verbatimFrom) {
                return;
            }
            log.hooks.beforeWrite(path);
            throttle.charge(verbatimTo - verbatimFrom); // written
            long at = verbatimFrom;
            while (at < verbatimTo) {
                long n = seg.channel().transferTo(at, verbatimTo - at, out.position(written));
                at += n;
                written += n;
            }
            verbatimFrom = verbatimTo;
        }

        /** Fsyncs and closes the copy; false if nothing changed (no copy). */
        boolean finish() throws IOException {
            if (out == null) {
                return false;
            }
            flushVerbatim();
            log.hooks.beforeForce(path);
            out.force(true);
            log.hooks.afterForce(path);
            out.close();
            return true;
        }

        void abort() throws IOException {
            if (out != null) {
                out.close();
            }
            log.dir.deleteIfExists(path);
        }
    }

    private static List<KeyedRecords.Rec> retained(KeyedRecords batch, KeyMap map, long mapEnd, boolean dropTombstones,
                                                   LogCleaner.Pass pass, Segment seg) {
        List<KeyedRecords.Rec> kept = new ArrayList<>(batch.records().size());
        long base = batch.header().baseOffset();
        for (KeyedRecords.Rec r : batch.records()) {
            long offset = base + r.offsetDelta();
            if (offset >= mapEnd) {
                kept.add(r);
                continue;
            }
            if (!r.hasKey()) {
                continue; // as Kafka: a keyless record (written before the topic was compacted) is discarded
            }
            if (map.get(batch.payload(), r.keyStart(), r.keyLength()) > offset) {
                continue; // a later record has this key
            }
            if (r.tombstone()) {
                if (dropTombstones) {
                    continue;
                }
                pass.tombstoneKept(seg);
            }
            kept.add(r);
        }
        return kept;
    }

    /**
     * Commits the fsynced copy and swaps it in, under the lock; false (copy deleted) if the segment is gone. The
     * aborted ranges of the ABORT markers the copy removed are forgotten first, and the producer snapshot written
     * without them, so a crash never leaves a range whose marker is gone (a crash in between leaves a marker
     * without its range, which no read_committed consumer needs: its data is gone).
     */
    private static boolean swap(SegmentPartitionLog log, Segment seg, Path cleaned, List<AbortedTransaction> removedAborts)
            throws IOException {
        PartitionDirectory dir = log.dir;
        log.lock.lock();
        try {
            if (log.isClosedOrOffline() || log.state.segments().get(seg.baseOffset()) != seg
                    || !log.mayChangeFiles("compaction")) {
                dir.deleteIfExists(cleaned);
                return false;
            }
            if (!removedAborts.isEmpty()) {
                try {
                    log.forgetAbortedTransactions(removedAborts);
                } catch (IOException e) {
                    dir.deleteIfExists(cleaned);
                    throw e;
                }
            }
            dir.move(cleaned, dir.swapFile(seg.file()));
            dir.fsync(); // the commit point: from here recovery completes the swap
            dir.completeSwap(seg.file());
            Segment fresh = Segment.open(dir, seg.file());
            LogRecovery.reopenClosed(fresh, seg.nextOffset());
            log.replaceClosedSegment(seg, fresh);
            return true;
        } finally {
            log.lock.unlock();
        }
    }
}
