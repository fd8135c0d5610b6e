package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.records.ProducerWindows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One compaction pass over a partition with {@code cleanup.policy} including compact, as Kafka's log cleaner:
 *
 * <ol>
 *   <li>The cleanable range is the closed segments (never the active one) that end at or below the last stable
 *       offset (nothing of an open transaction is cleaned), up to the first whose largest timestamp is younger
 *       than {@code min.compaction.lag.ms}.</li>
 *   <li>The dirty part starts at the cleaner checkpoint ({@code cleaner-checkpoint.json}). The pass runs when
 *       dirty bytes / cleanable bytes reach {@code min.cleanable.dirty.ratio}, or when the first dirty segment's
 *       first record is older than {@code max.compaction.lag.ms}, or when a tombstone kept by an earlier pass
 *       has outlived {@code delete.retention.ms} (then only the clean part is rewritten).</li>
 *   <li>A {@link KeyMap} of at most {@code cleaner.max.keys.per.pass} keys is filled from the dirty records in
 *       offset order; where it fills up the pass stops ({@code mapEnd}), and the next pass goes on from there.</li>
 *   <li>Every closed segment below {@code mapEnd} is rewritten, oldest first, by {@link SegmentCompactor}: a
 *       record is dropped if a later record has its key, if it has no key, or if it is a tombstone in a segment
 *       whose largest timestamp is older than {@code delete.retention.ms}. Offsets never move.</li>
 * </ol>
 *
 * <p>Transactions, as Kafka's cleaner treats them ({@link CleanedTransactions}): the records of aborted
 * transactions never enter the key map and are dropped; a COMMIT or ABORT marker stays while any batch of its
 * transaction stays, and goes only once {@code delete.retention.ms} has passed since a pass first found its data
 * gone (its aborted range is then forgotten too, see {@link SegmentCompactor}); nothing at or above the last
 * stable offset is cleaned, so an open transaction stays whole.
 *
 * Runs on a cleaner thread ({@link CleanerThreads}), its reads and writes charged to the cleaner's {@link IoThrottle}
 * ({@code cleaner.io.max.bytes.per.second}); the partition lock is held only to take the plan and to swap each
 * rewritten segment in, so appends and reads go on while segments are rewritten.
 */
final class LogCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);
    /** What a pass decided to clean, with the key map it was built with. */
    private record Plan(List<Segment> segments, KeyMap keyMap, long firstDirty, long mapEnd) {
    }

    private LogCleaner() {
    }

    /** What one pass learns while rewriting: when the earliest tombstone it kept may be dropped. */
    static final class Pass {
        private final long deleteRetentionMs;
        private long nextTombstoneExpiryMs = Long.MAX_VALUE;

        Pass(long deleteRetentionMs) {
            this.deleteRetentionMs = deleteRetentionMs;
        }

        void tombstoneKept(Segment seg) {
            long expiry = seg.maxTimestamp() < 0 ? Long.MIN_VALUE : seg.maxTimestamp() + deleteRetentionMs;
            nextTombstoneExpiryMs = Math.min(nextTombstoneExpiryMs, expiry);
        }
    }

    /**
     * Runs one pass if the partition is compacted and dirty enough. A producer with no open transaction and nothing
     * written for {@code producer.id.expiration.ms} ({@code expiration}) is no longer active, so the marker it wrote
     * last need not be kept for its epoch.
     *
     * @return the number of segments rewritten
     */
    static int run(SegmentPartitionLog log, long nowMs, int maxKeys, ProducerExpiration expiration, IoThrottle throttle)
            throws IOException {
        LogConfig config = log.config();
        if (!config.compact() || !log.mayChangeFiles("compaction")) {
            return 0;
        }
        List<Segment> closed;
        long logStart;
        Set<Long> producerBatches = new HashSet<>();
        Map<Long, Short> markerOnlyProducers = new HashMap<>();
        List<AbortedTransaction> aborted;
        log.lock.lock();
        try {
            log.ensureWritable();
            LogState s = log.state.current();
            logStart = s.logStartOffset();
            closed = new ArrayList<>(log.state.segments().headMap(s.active().baseOffset()).values());
            long lso = s.offsets().lastStableOffset();
            closed.removeIf(seg -> seg.nextOffset() > lso || seg.nextOffset() <= logStart);
            // Kafka keeps each producer's last batches, even emptied, so its sequence state survives a rebuild.
            Map<Long, Long> open = log.transactions.openTransactions();
            for (Map.Entry<Long, ProducerWindows.Producer> e : log.producers.producers().entrySet()) {
                e.getValue().batches().forEach(b -> producerBatches.add(b.firstOffset()));
                ProducerWindows.Producer p = e.getValue();
                boolean active = !expiration.isExpired(p.lastTimestamp(), nowMs) || open.containsKey(e.getKey());
                if (p.batches().isEmpty() && active) {
                    markerOnlyProducers.put(e.getKey(), p.epoch());
                }
            }
            aborted = log.transactions.abortedTransactions();
        } finally {
            log.lock.unlock();
        }
        Plan plan = plan(log, closed, Math.max(logStart, log.cleanerCheckpoint()), config, nowMs, maxKeys,
                new CleanedTransactions(aborted, Map.of(), Map.of(), nowMs, config.deleteRetentionMs()), throttle);
        if (plan == null) {
            return 0;
        }
        CleanedTransactions txns = new CleanedTransactions(aborted, markerOnlyProducers, log.markerHorizons(), nowMs,
                config.deleteRetentionMs());
        int rewritten = 0;
        Pass pass = new Pass(config.deleteRetentionMs());
        for (Segment seg : plan.segments()) {
            boolean dropTombstones = seg.maxTimestamp() >= 0 && nowMs - seg.maxTimestamp() > config.deleteRetentionMs();
            if (SegmentCompactor.compact(log, seg, plan.keyMap(), plan.mapEnd(), dropTombstones, producerBatches, pass,
                    txns, throttle)) {
                rewritten++;
            }
        }
        log.markerHorizons(txns.horizons());
        log.tombstonesExpireAt(Math.min(pass.nextTombstoneExpiryMs, txns.nextWorkMs()));
        log.advanceCleanerCheckpoint(plan.mapEnd());
        LOG.atInfo().addKeyValue("partition", log.key()).addKeyValue("firstDirtyOffset", plan.firstDirty())
                .addKeyValue("cleanedUpTo", plan.mapEnd()).addKeyValue("keys", plan.keyMap().size())
                .addKeyValue("segmentsRewritten", rewritten).setMessage("compaction pass done").log();
        return rewritten;
    }

    private static Plan plan(SegmentPartitionLog log, List<Segment> closed, long firstDirty, LogConfig config,
                             long nowMs, int maxKeys, CleanedTransactions txns, IoThrottle throttle) throws IOException {
        List<Segment> cleanable = new ArrayList<>();
        for (Segment seg : closed) {
            if (seg.maxTimestamp() >= 0 && nowMs - seg.maxTimestamp() < config.minCompactionLagMs()) {
                break; // min.compaction.lag.ms: this segment and everything after it stays as written
            }
            cleanable.add(seg);
        }
        long cleanBytes = 0;
        long dirtyBytes = 0;
        Segment firstDirtySegment = null;
        for (Segment seg : cleanable) {
            if (seg.nextOffset() <= firstDirty) {
                cleanBytes += seg.size();
            } else {
                dirtyBytes += seg.size();
                firstDirtySegment = firstDirtySegment == null ? seg : firstDirtySegment;
            }
        }
        // Kept tombstones whose delete.retention.ms has passed make the log cleanable by themselves (as KIP-534).
        boolean tombstonesDue = nowMs >= log.nextTombstoneExpiryMs() && cleanBytes > 0;
        boolean dirtyEnough = dirtyBytes > 0 && ((double) dirtyBytes / (cleanBytes + dirtyBytes) >= config.minCleanableDirtyRatio()
                || overdue(firstDirtySegment, config, nowMs));
        if (!dirtyEnough && !tombstonesDue) {
            return null;
        }
        KeyMap map = new KeyMap(dirtyEnough ? maxKeys : 1);
        long mapEnd = dirtyEnough ? fill(map, cleanable, firstDirty, txns, throttle) : firstDirty;
        List<Segment> toRewrite = new ArrayList<>();
        for (Segment seg : cleanable) {
            if (seg.baseOffset() < mapEnd) {
                toRewrite.add(seg);
            }
        }
        return new Plan(toRewrite, map, firstDirty, mapEnd);
    }

    /** max.compaction.lag.ms: the first dirty segment's first record waited too long, whatever the ratio. */
    private static boolean overdue(Segment seg, LogConfig config, long nowMs) throws IOException {
        BatchHeader first = seg.readHeader(0, seg.size());
        long ts = first == null ? seg.maxTimestamp() : first.baseTimestamp();
        return ts >= 0 && nowMs - ts > config.maxCompactionLagMs();
    }

    /**
     * Maps each key of the dirty records to its latest offset, in offset order, until the map is full. Aborted
     * records are left out: they must not shadow an older committed record of their key.
     *
     * @return the first offset not mapped: the end of the range this pass cleans
     */
    private static long fill(KeyMap map, List<Segment> cleanable, long firstDirty, CleanedTransactions txns,
                             IoThrottle throttle) throws IOException {
        long end = firstDirty;
        for (Segment seg : cleanable) {
            if (seg.nextOffset() <= firstDirty) {
                continue;
            }
            long pos = 0;
            long size = seg.size();
            while (pos < size) {
                BatchHeader h = seg.readHeader(pos, size);
                if (h == null) {
                    break;
                }
                if (h.lastOffset() >= firstDirty && !h.isControl() && h.recordCount() > 0 && !txns.isAborted(h)) {
                    KeyedRecords batch = KeyedRecords.parse(seg.read(pos, h.sizeInBytes()));
                    throttle.charge(h.sizeInBytes());
                    if (map.size() > 0 && map.size() + batch.records().size() > map.maxKeys()) {
                        return end; // full: the next pass goes on from this batch
                    }
                    for (KeyedRecords.Rec r : batch.records()) {
                        long offset = h.baseOffset() + r.offsetDelta();
                        if (offset >= firstDirty && r.hasKey()) {
                            map.put(batch.payload(), r.keyStart(), r.keyLength(), offset);
                        }
                    }
                }
                end = Math.max(end, h.nextOffset());
                pos += h.sizeInBytes();
            }
            end = Math.max(end, seg.nextOffset());
        }
        return end;
    }
}
