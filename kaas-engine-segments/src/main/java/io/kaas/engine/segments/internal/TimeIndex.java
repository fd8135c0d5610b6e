package io.kaas.engine.segments.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A segment's sparse time index ({@code .timeindex}), as Kafka keeps it: entries of (largest timestamp
 * seen so far in the segment, int64; offset of the batch that carried it, relative to the segment base,
 * int32), appended only when the largest timestamp grows, alongside an offset-index entry, plus a final
 * entry when the segment is sealed. So the last entry of a closed segment is its largest timestamp.
 *
 * <p>One writer (under the partition lock), lock-free readers: an entry is stored before the volatile
 * count that publishes it, a grown array before the count.
 */
final class TimeIndex extends IndexFile {
    static final int ENTRY_SIZE = 12;

    /** Two slots per entry: timestamp, relative offset. */
    private volatile long[] entries = new long[32];
    private volatile int count;

    private TimeIndex(Path path, FileChannel channel, IoHooks hooks, boolean readOnly) {
        super(path, channel, hooks, ENTRY_SIZE, readOnly);
    }

    /** Opens the file and loads its entries as they are; the caller checks them with {@link #isConsistent}. */
    static TimeIndex open(Path path, IoHooks hooks) throws IOException {
        return load(new TimeIndex(path, openChannel(path, hooks), hooks, false));
    }

    /** Loads an earlier epoch's index without ever writing its file (missing: empty, rebuilt in memory). */
    static TimeIndex openReadOnly(Path path) throws IOException {
        return load(new TimeIndex(path, IndexFile.openChannelReadOnly(path), IoHooks.NONE, true));
    }

    private static TimeIndex load(TimeIndex index) throws IOException {
        ByteBuffer buf = index.readWhole();
        if (buf == null) {
            index.truncateTo(0);
            return index;
        }
        while (buf.remaining() >= ENTRY_SIZE) {
            index.addInMemory(buf.getLong(), buf.getInt());
        }
        return index;
    }

    int count() {
        return count;
    }

    long timestampAt(int i) {
        return entries[2 * i];
    }

    int relativeOffsetAt(int i) {
        return (int) entries[2 * i + 1];
    }

    /** The largest timestamp recorded, or -1 if none. */
    long lastTimestamp() {
        int n = count;
        return n == 0 ? -1L : entries[2 * (n - 1)];
    }

    /** Appends (timestamp, relative offset) if the timestamp is larger than the last entry's (not fsynced). */
    void maybeAppend(long timestamp, int relativeOffset, IoHooks hooks) throws IOException {
        int n = count;
        if (timestamp < 0 || (n > 0 && timestamp <= entries[2 * (n - 1)])) {
            return;
        }
        writeEntry(ByteBuffer.allocate(ENTRY_SIZE).putLong(timestamp).putInt(relativeOffset).flip(), n, hooks);
        addInMemory(timestamp, relativeOffset);
    }

    private void addInMemory(long timestamp, int relativeOffset) {
        long[] arr = entries;
        int n = count;
        if (2 * n + 1 >= arr.length) {
            arr = Arrays.copyOf(arr, arr.length * 2);
            entries = arr;
        }
        arr[2 * n] = timestamp;
        arr[2 * n + 1] = relativeOffset;
        count = n + 1;
    }

    /**
     * Relative offset of the last entry whose timestamp is at most {@code timestamp} (Kafka's lookup):
     * every batch before it has a smaller or equal timestamp. -1 if none (search from the segment start).
     */
    int floorRelativeOffset(long timestamp) {
        int n = count;
        long[] arr = entries;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (arr[2 * mid] <= timestamp) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? -1 : (int) arr[2 * found + 1];
    }

    /** Timestamps strictly increasing, offsets non-decreasing and below {@code relativeEnd}. */
    boolean isConsistent(long relativeEnd) {
        int n = count;
        for (int i = 0; i < n; i++) {
            if (relativeOffsetAt(i) < 0 || relativeOffsetAt(i) >= relativeEnd) {
                return false;
            }
            if (i > 0 && (timestampAt(i) <= timestampAt(i - 1) || relativeOffsetAt(i) < relativeOffsetAt(i - 1))) {
                return false;
            }
        }
        return true;
    }

    /** Keeps the first {@code n} entries, in memory and on disk. */
    void truncateTo(int n) throws IOException {
        truncateFile(Math.min(n, count));
        if (n == 0) {
            entries = new long[32];
        }
        count = Math.min(n, count);
    }

    /** Number of leading entries whose relative offset is below {@code relativeOffset}. */
    int countBelow(long relativeOffset) {
        int n = count;
        int i = 0;
        while (i < n && relativeOffsetAt(i) < relativeOffset) {
            i++;
        }
        return i;
    }
}
