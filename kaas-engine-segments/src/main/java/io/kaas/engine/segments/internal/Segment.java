package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One {@code .log} file with its {@link SegmentIndex} and {@link TimeIndex}. Writes come from one thread
 * at a time (the partition lock); {@link #size()}, {@link #nextOffset()} and the largest timestamp are
 * the published state: readers never look past them. Indexing a batch stages its timestamp;
 * {@link #publish} makes it visible and {@link #rollback} undoes a failed append.
 *
 * <p>A segment created by the writer of an earlier leader epoch than the partition's is {@link #readOnly()}: its
 * files are opened for reading only and never written (another broker, fenced, may still append to them); its
 * indexes live in memory.
 */
final class Segment implements Closeable {
    private final SegmentFile file;
    private final boolean readOnly;
    private final long baseOffset;
    private final Path logPath;
    private final FileChannel channel;
    private final SegmentIndex index;
    private final TimeIndex timeIndex;
    private volatile long size;
    private volatile long nextOffset;
    private volatile long maxTimestamp = -1;
    private volatile long offsetOfMaxTimestamp = -1;
    /** Time the segment's age counts from for {@code segment.ms}: its first batch's timestamp or creation. */
    private volatile long rollBaseMs = -1;
    private long stagedMaxTimestamp = -1;
    private long stagedOffsetOfMax = -1;
    private long bytesSinceIndexEntry;

    /** Index state before an append, to undo it if the append fails. */
    record Mark(int indexCount, int timeIndexCount, long bytesSinceIndexEntry) {
    }

    private Segment(SegmentFile file, boolean readOnly, Path logPath, FileChannel channel, SegmentIndex index,
                    TimeIndex timeIndex) {
        this.file = file;
        this.readOnly = readOnly;
        this.baseOffset = file.baseOffset();
        this.logPath = logPath;
        this.channel = channel;
        this.index = index;
        this.timeIndex = timeIndex;
        this.nextOffset = baseOffset;
    }

    /** Opens (creating if absent) a segment of the directory's epoch at {@code baseOffset}. */
    static Segment open(PartitionDirectory dir, long baseOffset) throws IOException {
        return open(dir, dir.ownSegment(baseOffset));
    }

    /**
     * Opens {@code file}: one of the directory's epoch is created if absent; one of an earlier epoch is opened
     * read-only (it must exist). Size and next offset are set by recovery via {@link #restore}.
     */
    static Segment open(PartitionDirectory dir, SegmentFile file) throws IOException {
        if (file.epoch() < dir.epoch()) {
            return openReadOnly(dir, file);
        }
        Path log = dir.logFile(file);
        boolean created = !Files.exists(log);
        FileChannel ch = PartitionDirectory.openChannel(log, dir.hooks(), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        SegmentIndex index = null;
        try {
            index = SegmentIndex.open(dir.indexFile(file), dir.hooks());
            TimeIndex timeIndex = TimeIndex.open(dir.timeIndexFile(file), dir.hooks());
            if (created) {
                dir.fsync(); // the new segment's entries (indexes missing after a crash are rebuilt)
            }
            return new Segment(file, false, log, ch, index, timeIndex);
        } catch (IOException | RuntimeException e) {
            if (index != null) {
                index.close();
            }
            ch.close();
            throw e;
        }
    }

    private static Segment openReadOnly(PartitionDirectory dir, SegmentFile file) throws IOException {
        Path log = dir.logFile(file);
        FileChannel ch = FileChannel.open(log, StandardOpenOption.READ);
        SegmentIndex index = null;
        try {
            index = SegmentIndex.openReadOnly(dir.indexFile(file));
            TimeIndex timeIndex = TimeIndex.openReadOnly(dir.timeIndexFile(file));
            return new Segment(file, true, log, ch, index, timeIndex);
        } catch (IOException | RuntimeException e) {
            if (index != null) {
                index.close();
            }
            ch.close();
            throw e;
        }
    }

    /** The file's epoch and base offset. */
    SegmentFile file() {
        return file;
    }

    /** The leader epoch of the writer that created the segment. */
    int epoch() {
        return file.epoch();
    }

    /** Whether the segment belongs to an earlier epoch's writer: never written. */
    boolean readOnly() {
        return readOnly;
    }

    long baseOffset() {
        return baseOffset;
    }

    Path logPath() {
        return logPath;
    }

    FileChannel channel() {
        return channel;
    }

    SegmentIndex index() {
        return index;
    }

    TimeIndex timeIndex() {
        return timeIndex;
    }

    long size() {
        return size;
    }

    long nextOffset() {
        return nextOffset;
    }

    /** Largest batch max-timestamp published in this segment, or -1. */
    long maxTimestamp() {
        return maxTimestamp;
    }

    /** Base offset of the (first) batch carrying {@link #maxTimestamp()}, or -1. */
    long offsetOfMaxTimestamp() {
        return offsetOfMaxTimestamp;
    }

    long rollBaseMs() {
        return rollBaseMs;
    }

    void restore(long validSize, long next) {
        this.size = validSize;
        this.nextOffset = next;
    }

    /** Sets the largest timestamp found by recovery (and the base for the next staged batch). */
    void restoreTimestamps(long maxTs, long offsetOfMax) {
        this.maxTimestamp = maxTs;
        this.offsetOfMaxTimestamp = offsetOfMax;
        this.stagedMaxTimestamp = maxTs;
        this.stagedOffsetOfMax = offsetOfMax;
    }

    /** Continues sparse indexing after recovery kept the index entries below {@code position}. */
    void resumeIndexing(long position) {
        int n = index.count();
        bytesSinceIndexEntry = n == 0 ? Long.MAX_VALUE / 2 : position - Integer.toUnsignedLong(index.positionAt(n - 1));
    }

    Mark mark() {
        return new Mark(index.count(), timeIndex.count(), bytesSinceIndexEntry);
    }

    /** Undoes the index entries and staged timestamps of a failed append. */
    void rollback(Mark mark) throws IOException {
        bytesSinceIndexEntry = mark.bytesSinceIndexEntry();
        stagedMaxTimestamp = maxTimestamp;
        stagedOffsetOfMax = offsetOfMaxTimestamp;
        index.truncateTo(mark.indexCount());
        timeIndex.truncateTo(mark.timeIndexCount());
    }

    /**
     * Records a batch now present at {@code position} in the indexes (sparse) — writer thread only.
     * Its timestamp is staged; {@link #publish} makes it visible.
     */
    void indexBatch(long position, long batchBaseOffset, int batchSize, long batchMaxTimestamp, IoHooks hooks)
            throws IOException {
        if (batchMaxTimestamp > stagedMaxTimestamp) {
            stagedMaxTimestamp = batchMaxTimestamp;
            stagedOffsetOfMax = batchBaseOffset;
        }
        if (index.count() == 0 || bytesSinceIndexEntry >= SegmentIndex.INTERVAL_BYTES) {
            index.add(Math.toIntExact(batchBaseOffset - baseOffset), Math.toIntExact(position), hooks);
            timeIndex.maybeAppend(stagedMaxTimestamp, Math.toIntExact(stagedOffsetOfMax - baseOffset), hooks);
            bytesSinceIndexEntry = 0;
        }
        bytesSinceIndexEntry += batchSize;
    }

    /** Writes {@code batch} at {@code position}, looping until fully written; does not publish it. */
    void write(ByteBuffer batch, long position, IoHooks hooks) throws IOException {
        if (readOnly) {
            throw new IOException(logPath + " belongs to an earlier leader epoch's writer: it is never written");
        }
        hooks.beforeWrite(logPath);
        long at = position;
        while (batch.hasRemaining()) {
            at += channel.write(batch, at);
        }
    }

    /** Makes bytes up to {@code newSize}, offsets up to {@code next} and the staged timestamps visible. */
    void publish(long newSize, long next, long nowMs) {
        if (rollBaseMs < 0) {
            rollBaseMs = nowMs;
        }
        this.maxTimestamp = stagedMaxTimestamp;
        this.offsetOfMaxTimestamp = stagedOffsetOfMax;
        this.nextOffset = next;
        this.size = newSize;
    }

    /** Reads the batch header at {@code position}, or null if fewer than a header's bytes remain before {@code end}. */
    BatchHeader readHeader(long position, long end) throws IOException {
        if (end - position < RecordBatches.HEADER_SIZE) {
            return null;
        }
        ByteBuffer buf = ByteBuffer.allocate(RecordBatches.HEADER_SIZE);
        readFully(buf, position);
        return RecordBatches.header(buf, 0, position);
    }

    /** Reads {@code length} bytes at {@code position} into a new heap buffer (one batch, never a whole log). */
    ByteBuffer read(long position, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        readFully(buf, position);
        return buf.flip();
    }

    private void readFully(ByteBuffer buf, long position) throws IOException {
        long at = position;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) {
                throw new IOException("unexpected end of " + logPath + " at " + at);
            }
            at += n;
        }
    }

    /**
     * Position of the batch containing {@code offset} (its last offset is at or above it), or -1 if no
     * published batch of this segment reaches it.
     */
    long locate(long offset) throws IOException {
        long end = size;
        long pos = index.floorPosition(Math.max(0, offset - baseOffset));
        while (pos < end) {
            BatchHeader h = readHeader(pos, end);
            if (h == null) {
                return -1;
            }
            if (h.lastOffset() >= offset) {
                return pos;
            }
            pos += h.sizeInBytes();
        }
        return -1;
    }

    /**
     * A batch boundary at or below {@code position} and at or above {@code from} (itself a boundary),
     * from the sparse index: as close to {@code position} as the index knows, else {@code from}.
     */
    long batchStartAtOrBelow(long position, long from) {
        return Math.max(from, index.floorBatchStart(position));
    }

    /** Forces both index files (the committer does so before it writes a recovery checkpoint). */
    void flushIndexes() throws IOException {
        index.flush();
        timeIndex.flush();
    }

    /**
     * At roll or close: forces the log (through {@code fsync}, which the watchdog times), appends the final
     * time-index entry, forces and closes both indexes.
     */
    void seal(Fsync fsync) throws IOException {
        fsync.force(channel, logPath);
        if (maxTimestamp >= 0) {
            timeIndex.maybeAppend(maxTimestamp, Math.toIntExact(offsetOfMaxTimestamp - baseOffset), IoHooks.NONE);
        }
        index.flush();
        timeIndex.flush();
        index.close();
        timeIndex.close();
    }

    /** A timed force of a segment file. */
    interface Fsync {
        void force(FileChannel channel, Path file) throws IOException;
    }

    @Override
    public void close() throws IOException {
        try {
            index.close();
            timeIndex.close();
        } finally {
            channel.close();
        }
    }
}
