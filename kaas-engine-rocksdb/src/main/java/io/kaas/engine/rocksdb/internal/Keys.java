package io.kaas.engine.rocksdb.internal;

import io.kaas.api.storage.PartitionKey;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The key layout, big-endian so that RocksDB's bytewise order is offset order within a partition.
 * <pre>
 * batches: topicId (16) | partition (4) | baseOffset (8)
 * meta:    topicId (16) | partition (4) | 0x00                  -> log start, next offset, stored bytes
 *          topicId (16) | partition (4) | 0x01 | producerId (8) -> producer state
 *          topicId (16) | partition (4) | 0x02 | producerId (8) -> first offset of its open transaction
 *          topicId (16) | partition (4) | 0x03 | lastOffset (8) | producerId (8) -> first offset of an aborted
 *                                                                   transaction whose ABORT marker is at lastOffset
 * </pre>
 * Keys carry the topic id, not the name: a topic re-created under the same name never sees old data.
 */
final class Keys {
    static final int PREFIX_SIZE = 20;
    private static final byte OFFSETS = 0x00;
    private static final byte PRODUCER = 0x01;
    private static final byte OPEN_TXN = 0x02;
    private static final byte ABORTED_TXN = 0x03;
    private static final byte META_END = 0x04;

    private Keys() {
    }

    static byte[] prefix(PartitionKey key) {
        return ByteBuffer.allocate(PREFIX_SIZE).putLong(key.topicId().getMostSignificantBits())
                .putLong(key.topicId().getLeastSignificantBits()).putInt(key.partition()).array();
    }

    static byte[] batch(byte[] prefix, long baseOffset) {
        return ByteBuffer.allocate(PREFIX_SIZE + 8).put(prefix).putLong(baseOffset).array();
    }

    /** The exclusive end of the partition's batch keys (no batch ever starts at Long.MAX_VALUE). */
    static byte[] batchesEnd(byte[] prefix) {
        return batch(prefix, Long.MAX_VALUE);
    }

    static long baseOffset(byte[] batchKey) {
        return ByteBuffer.wrap(batchKey).getLong(PREFIX_SIZE);
    }

    static boolean hasPrefix(byte[] key, byte[] prefix) {
        return key.length >= PREFIX_SIZE && Arrays.equals(key, 0, PREFIX_SIZE, prefix, 0, PREFIX_SIZE);
    }

    static byte[] offsets(byte[] prefix) {
        return meta(prefix, OFFSETS);
    }

    static byte[] producersStart(byte[] prefix) {
        return meta(prefix, PRODUCER);
    }

    static byte[] metaEnd(byte[] prefix) {
        return meta(prefix, META_END);
    }

    static byte[] producer(byte[] prefix, long producerId) {
        return ByteBuffer.allocate(PREFIX_SIZE + 9).put(prefix).put(PRODUCER).putLong(producerId).array();
    }

    /** The producer id of a producer-state or open-transaction key. */
    static long producerId(byte[] producerKey) {
        return ByteBuffer.wrap(producerKey).getLong(PREFIX_SIZE + 1);
    }

    static byte[] openTxnsStart(byte[] prefix) {
        return meta(prefix, OPEN_TXN);
    }

    static byte[] openTxn(byte[] prefix, long producerId) {
        return ByteBuffer.allocate(PREFIX_SIZE + 9).put(prefix).put(OPEN_TXN).putLong(producerId).array();
    }

    static byte[] abortedTxnsStart(byte[] prefix) {
        return meta(prefix, ABORTED_TXN);
    }

    /** Aborted ranges sort by marker offset, so those below a log start are one key range. */
    static byte[] abortedTxn(byte[] prefix, long lastOffset, long producerId) {
        return ByteBuffer.allocate(PREFIX_SIZE + 17).put(prefix).put(ABORTED_TXN).putLong(lastOffset).putLong(producerId)
                .array();
    }

    static long abortedLastOffset(byte[] abortedKey) {
        return ByteBuffer.wrap(abortedKey).getLong(PREFIX_SIZE + 1);
    }

    static long abortedProducerId(byte[] abortedKey) {
        return ByteBuffer.wrap(abortedKey).getLong(PREFIX_SIZE + 9);
    }

    static byte[] encodeLong(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    static long decodeLong(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }

    private static byte[] meta(byte[] prefix, byte kind) {
        return ByteBuffer.allocate(PREFIX_SIZE + 1).put(prefix).put(kind).array();
    }

    /** Version 2: log start, next offset and the exact sum of the sizes of the partition's stored batches. */
    static byte[] encodeOffsets(long logStart, long nextOffset, long storedBytes) {
        return ByteBuffer.allocate(25).put((byte) 2).putLong(logStart).putLong(nextOffset).putLong(storedBytes).array();
    }

    /** {logStart, nextOffset, storedBytes}; storedBytes is -1 for version 1, which did not keep it. */
    static long[] decodeOffsets(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        byte version = b.get();
        if (version != 1 && version != 2) {
            throw new IllegalStateException("unknown partition metadata version " + version);
        }
        return new long[] {b.getLong(), b.getLong(), version == 2 ? b.getLong() : -1};
    }
}
