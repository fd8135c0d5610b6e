package io.kaas.engine.segments.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A segment's sparse offset index: entries of (offset relative to the segment base, int32; byte
 * position of the batch starting there, int32), one about every {@link #INTERVAL_BYTES} of log, kept
 * in memory and appended to the {@code .index} file (fsynced at roll and close, rebuilt on recovery).
 *
 * <p>One writer (under the partition lock), any number of lock-free readers: an entry is stored
 * before the volatile count that makes it visible, and a grown array is published before the count.
 */
final class SegmentIndex extends IndexFile {
    static final int ENTRY_SIZE = 8;
    static final int INTERVAL_BYTES = 4096;

    private volatile long[] entries = new long[16];
    private volatile int count;

    private SegmentIndex(Path path, FileChannel channel, IoHooks hooks, boolean readOnly) {
        super(path, channel, hooks, ENTRY_SIZE, readOnly);
    }

    /** Opens the index file and loads its entries as they are; the caller validates them. */
    static SegmentIndex open(Path path, IoHooks hooks) throws IOException {
        return load(new SegmentIndex(path, openChannel(path, hooks), hooks, false));
    }

    /** Loads an earlier epoch's index without ever writing its file (missing: empty, rebuilt in memory). */
    static SegmentIndex openReadOnly(Path path) throws IOException {
        return load(new SegmentIndex(path, IndexFile.openChannelReadOnly(path), IoHooks.NONE, true));
    }

    private static SegmentIndex load(SegmentIndex index) throws IOException {
        ByteBuffer buf = index.readWhole();
        if (buf == null) {
            index.reset();
            return index;
        }
        while (buf.remaining() >= ENTRY_SIZE) {
            index.addInMemory(buf.getInt(), buf.getInt());
        }
        return index;
    }

    int count() {
        return count;
    }

    int relativeOffsetAt(int i) {
        return (int) (entries[i] >>> 32);
    }

    int positionAt(int i) {
        return (int) entries[i];
    }

    /** Adds an entry in memory and appends it to the file (not fsynced). */
    void add(int relativeOffset, int position, IoHooks hooks) throws IOException {
        writeEntry(ByteBuffer.allocate(ENTRY_SIZE).putInt(relativeOffset).putInt(position).flip(), count, hooks);
        addInMemory(relativeOffset, position);
    }

    private void addInMemory(int relativeOffset, int position) {
        long[] arr = entries;
        int n = count;
        if (n == arr.length) {
            arr = Arrays.copyOf(arr, n * 2);
            entries = arr;
        }
        arr[n] = ((long) relativeOffset << 32) | (position & 0xFFFFFFFFL);
        count = n + 1;
    }

    /** Position of the last indexed batch whose relative offset is at most {@code relativeOffset}, or 0. */
    long floorPosition(long relativeOffset) {
        int n = count; // before the array: a grown array is published before the count
        long[] arr = entries;
        int i = lastAtOrBelow(arr, n, relativeOffset, false);
        return i < 0 ? 0 : Integer.toUnsignedLong((int) arr[i]);
    }

    /** Position of the last indexed batch that starts at or below {@code position}, or -1 if none does. */
    long floorBatchStart(long position) {
        int n = count;
        long[] arr = entries;
        int i = lastAtOrBelow(arr, n, position, true);
        return i < 0 ? -1 : Integer.toUnsignedLong((int) arr[i]);
    }

    /** Binary search over the first {@code n} entries, by position or by relative offset (both ascend). */
    private static int lastAtOrBelow(long[] arr, int n, long key, boolean byPosition) {
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long k = byPosition ? Integer.toUnsignedLong((int) arr[mid]) : arr[mid] >>> 32;
            if (k <= key) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Empties the index in memory and on disk (before a rebuild). */
    void reset() throws IOException {
        truncateTo(0);
    }

    /** Keeps the first {@code n} entries, in memory and on disk (rollback of a failed append, recovery). */
    void truncateTo(int n) throws IOException {
        truncateFile(Math.min(n, count));
        if (n == 0) {
            entries = new long[16];
        }
        count = Math.min(n, count);
    }

    /** Number of leading entries whose position is below {@code position}. */
    int countBelowPosition(long position) {
        int n = count;
        int i = 0;
        while (i < n && Integer.toUnsignedLong(positionAt(i)) < position) {
            i++;
        }
        return i;
    }
}
