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
 * One {@code .log} file and its {@link SegmentIndex}. Writes come from one thread at a time (the
 * partition lock); {@link #size()} is the published end: readers never look past it.
 */
final class Segment implements Closeable {
    private final long baseOffset;
    private final Path logPath;
    private final FileChannel channel;
    private final SegmentIndex index;
    private volatile long size;
    private volatile long nextOffset;
    private long bytesSinceIndexEntry;

    private Segment(long baseOffset, Path logPath, FileChannel channel, SegmentIndex index) {
        this.baseOffset = baseOffset;
        this.logPath = logPath;
        this.channel = channel;
        this.index = index;
        this.nextOffset = baseOffset;
    }

    /** Opens (creating if absent) a segment; size and next offset are set by recovery via {@link #restore}. */
    static Segment open(PartitionDirectory dir, long baseOffset) throws IOException {
        Path log = dir.logFile(baseOffset);
        boolean created = !Files.exists(log);
        FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (created) {
            PartitionDirectory.fsyncDirectory(dir.path());
        }
        try {
            return new Segment(baseOffset, log, ch, SegmentIndex.open(dir.indexFile(baseOffset)));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
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

    long size() {
        return size;
    }

    long nextOffset() {
        return nextOffset;
    }

    void restore(long validSize, long next) {
        this.size = validSize;
        this.nextOffset = next;
    }

    /** Records a batch now present at {@code position} in the index (sparse) — writer thread only. */
    void indexBatch(long position, long batchBaseOffset, int batchSize) throws IOException {
        if (index.count() == 0 || bytesSinceIndexEntry >= SegmentIndex.INTERVAL_BYTES) {
            index.add(Math.toIntExact(batchBaseOffset - baseOffset), Math.toIntExact(position));
            bytesSinceIndexEntry = 0;
        }
        bytesSinceIndexEntry += batchSize;
    }

    /** Writes {@code batch} at the current end, looping until fully written; does not publish it. */
    void write(ByteBuffer batch, long position, IoHooks hooks) throws IOException {
        hooks.beforeWrite(logPath);
        long at = position;
        while (batch.hasRemaining()) {
            at += channel.write(batch, at);
        }
    }

    /** Makes bytes up to {@code newSize} and offsets up to {@code next} visible to readers. */
    void publish(long newSize, long next) {
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

    /** Forces log data and index at roll or close, then closes the index file. */
    void seal() throws IOException {
        channel.force(true);
        index.flush();
        index.close();
    }

    @Override
    public void close() throws IOException {
        try {
            index.close();
        } finally {
            channel.close();
        }
    }
}
