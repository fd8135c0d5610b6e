package io.kaas.engine.segments.internal;

import io.kaas.api.record.RecordBatches;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Batches of keyed records (value null = tombstone, key null = keyless), optionally compressed, built by the TCK's
 * builder; and the records read back from the engine.
 */
final class KeyedBatches {
    private KeyedBatches() {
    }

    /** A key and value; either may be null. */
    record KV(String key, String value) {
    }

    static KV kv(String key, String value) {
        return new KV(key, value);
    }

    static ByteBuffer batch(long timestamp, int codec, KV... records) {
        return batch(timestamp, codec, -1, (short) -1, -1, records);
    }

    static ByteBuffer batch(long timestamp, int codec, long producerId, short epoch, int sequence, KV... records) {
        io.kaas.plugin.tck.TestBatches batch = io.kaas.plugin.tck.TestBatches.batch();
        for (KV kv : records) {
            batch.record(kv.key(), kv.value());
        }
        // every record at the batch's timestamp
        return batch.timestamps(timestamp, new long[records.length]).producer(producerId, epoch, sequence)
                .compressed(codec, TestBatches.codec(codec)).build();
    }

    /** A record read back: its offset, key and value (null for a tombstone). */
    record Read(long offset, String key, String value) {
    }

    /** Decodes every record in {@code data} (whole batches, any codec), checking each batch's CRC. */
    static List<Read> decode(byte[] data) throws IOException {
        List<Read> out = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.wrap(data);
        int pos = 0;
        while (pos < data.length) {
            int size = RecordBatches.announcedSize(buf, pos);
            RecordBatches.validateOne(buf, pos, pos);
            KeyedRecords batch = KeyedRecords.parse(buf.duplicate().limit(pos + size).position(pos));
            for (KeyedRecords.Rec r : batch.records()) {
                String key = r.hasKey() ? new String(batch.payload(), r.keyStart(), r.keyLength(), StandardCharsets.UTF_8) : null;
                out.add(new Read(batch.header().baseOffset() + r.offsetDelta(), key, value(batch.payload(), r)));
            }
            pos += size;
        }
        return out;
    }

    private static String value(byte[] p, KeyedRecords.Rec r) {
        if (r.tombstone()) {
            return null;
        }
        // value follows the key: its length varint, then the bytes
        int at = r.keyStart() + Math.max(0, r.keyLength());
        long raw = 0;
        int shift = 0;
        while (true) {
            byte b = p[at++];
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
        }
        int len = (int) ((raw >>> 1) ^ -(raw & 1));
        return new String(p, at, len, StandardCharsets.UTF_8);
    }

    /** The latest value per key, in key order of first appearance. */
    static Map<String, Read> latest(List<Read> reads) {
        Map<String, Read> m = new LinkedHashMap<>();
        reads.forEach(r -> m.put(r.key(), r));
        return m;
    }
}
