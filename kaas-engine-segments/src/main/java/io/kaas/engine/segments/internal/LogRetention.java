package io.kaas.engine.segments.internal;

import io.kaas.api.storage.LogConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One retention pass over a partition, as Kafka's log cleaner thread does it for {@code cleanup.policy=delete}:
 * rolls the active segment when {@code segment.ms} has passed (so a quiet segment becomes deletable), then
 * deletes closed segments (if the partition's fence allows: a fenced partition deletes nothing), oldest first, while their largest timestamp is older than {@code retention.ms},
 * then while the log would still exceed {@code retention.bytes} without them. The active segment is never
 * deleted, and a topic whose {@code cleanup.policy} lacks delete only rolls. Deleting means moving the log start to the next segment's base through
 * {@link SegmentPartitionLog#advanceLogStart}, the path DeleteRecords uses.
 */
final class LogRetention {
    private LogRetention() {
    }

    /** Runs one pass with the partition's current config; returns the log start afterwards. */
    static long run(SegmentPartitionLog log, long nowMs) throws IOException {
        log.lock.lock();
        try {
            log.ensureWritable();
            LogConfig config = log.config();
            if (BatchAppender.isAged(log.state.current().active(), config, nowMs)) {
                log.rollLocked();
            }
            if (!config.delete()) {
                return log.state.current().logStartOffset(); // cleanup.policy=compact: segments are compacted, never deleted
            }
            long newStart = deletableUpTo(log, config, nowMs);
            if (newStart <= log.state.current().logStartOffset() || !log.mayChangeFiles("retention")) {
                return log.state.current().logStartOffset();
            }
            return log.advanceLogStart(newStart);
        } finally {
            log.lock.unlock();
        }
    }

    /** The log start that drops every closed segment retention allows to drop. */
    private static long deletableUpTo(SegmentPartitionLog log, LogConfig config, long nowMs) throws IOException {
        LogState s = log.state.current();
        List<Segment> closed = new ArrayList<>();
        long total = 0;
        Long first = log.state.segments().floorKey(s.logStartOffset());
        for (Map.Entry<Long, Segment> e : log.state.segments().tailMap(first == null ? 0L : first).entrySet()) {
            total += e.getValue().size();
            if (e.getValue() != s.active()) {
                closed.add(e.getValue());
            }
        }
        long newStart = s.logStartOffset();
        int i = 0;
        if (config.retentionMs() >= 0) {
            while (i < closed.size() && nowMs - largestTimestamp(closed.get(i)) > config.retentionMs()) {
                total -= closed.get(i).size();
                newStart = closed.get(i).nextOffset();
                i++;
            }
        }
        if (config.retentionBytes() >= 0) {
            long excess = total - config.retentionBytes();
            while (i < closed.size() && excess - closed.get(i).size() >= 0) {
                excess -= closed.get(i).size();
                newStart = closed.get(i).nextOffset();
                i++;
            }
        }
        return newStart;
    }

    /** A segment's age counts from its largest record timestamp; without any, from its file's mtime (as Kafka). */
    private static long largestTimestamp(Segment seg) throws IOException {
        long ts = seg.maxTimestamp();
        return ts >= 0 ? ts : Files.getLastModifiedTime(seg.logPath()).toMillis();
    }
}
