package io.kaas.engine.segments.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The cleaner's map from key to the offset of its latest record, as Kafka's {@code SkimpyOffsetMap}:
 * a key is stored as its 128-bit MD5 digest (a collision would drop a record of another key; at 2^-64
 * per pair, accepted as Kafka accepts it), in open-addressing arrays that hold at most {@code maxKeys}
 * entries (24 bytes each, plus the free slots of a 0.5 load factor; the arrays grow as keys arrive). Not thread-safe: one pass at a time.
 */
final class KeyMap {
    private final int maxKeys;
    private final MessageDigest md5;
    private long[] hi;
    private long[] lo;
    private long[] offsets;
    private int size;

    KeyMap(int maxKeys) {
        this.maxKeys = maxKeys;
        try {
            this.md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
        allocate(Math.min(1 << 12, Integer.highestOneBit(Math.max(2, maxKeys)) * 2));
    }

    private void allocate(int capacity) {
        hi = new long[capacity];
        lo = new long[capacity];
        offsets = new long[capacity];
        Arrays.fill(offsets, -1L);
        size = 0;
    }

    int size() {
        return size;
    }

    /** The most keys a pass should map; the caller stops adding batches before passing it. */
    int maxKeys() {
        return maxKeys;
    }

    /** Records that {@code key}'s latest record is at {@code offset}. */
    void put(byte[] payload, int keyStart, int keyLength, long offset) {
        long[] d = digest(payload, keyStart, keyLength);
        int slot = find(d[0], d[1]);
        if (offsets[slot] >= 0) {
            offsets[slot] = Math.max(offsets[slot], offset);
            return;
        }
        if ((size + 1) * 2 > offsets.length) {
            grow();
            slot = find(d[0], d[1]);
        }
        hi[slot] = d[0];
        lo[slot] = d[1];
        offsets[slot] = offset;
        size++;
    }

    /** The latest offset of {@code key}, or -1 if the map does not hold it. */
    long get(byte[] payload, int keyStart, int keyLength) {
        long[] d = digest(payload, keyStart, keyLength);
        return offsets[find(d[0], d[1])];
    }

    private int find(long h, long l) {
        int mask = offsets.length - 1;
        int slot = (int) (l ^ (l >>> 32)) & mask;
        while (offsets[slot] >= 0 && (hi[slot] != h || lo[slot] != l)) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void grow() {
        long[] oh = hi;
        long[] ol = lo;
        long[] oo = offsets;
        allocate(oo.length * 2);
        for (int i = 0; i < oo.length; i++) {
            if (oo[i] >= 0) {
                int slot = find(oh[i], ol[i]);
                hi[slot] = oh[i];
                lo[slot] = ol[i];
                offsets[slot] = oo[i];
                size++;
            }
        }
    }

    private long[] digest(byte[] payload, int start, int length) {
        md5.update(payload, start, length);
        byte[] d = md5.digest();
        long h = 0;
        long l = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (d[i] & 0xFF);
            l = (l << 8) | (d[i + 8] & 0xFF);
        }
        return new long[] {h, l};
    }
}
