package io.kaas.engine.segments.internal;

import io.kaas.api.record.RecordBatches;
import io.kaas.records.CompressionCodecs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds v2 batches of keyed records (value null = tombstone, key null = keyless), optionally compressed. */
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
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int i = 0; i < records.length; i++) {
            body.writeBytes(record(i, records[i]));
        }
        byte[] recs;
        try {
            recs = CompressionCodecs.compress(codec, body.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int size = RecordBatches.HEADER_SIZE + recs.length;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putLong(0L).putInt(size - RecordBatches.LOG_OVERHEAD).putInt(-1).put(RecordBatches.MAGIC_V2).putInt(0)
                .putShort((short) codec).putInt(records.length - 1).putLong(timestamp).putLong(timestamp)
                .putLong(producerId).putShort(epoch).putInt(sequence).putInt(records.length).put(recs);
        b.flip();
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, size));
        return b;
    }

    private static byte[] record(int offsetDelta, KV kv) {
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        r.write(0);
        TestBatches.writeVarlong(r, 0);
        TestBatches.writeVarlong(r, offsetDelta);
        bytes(r, kv.key());
        bytes(r, kv.value());
        TestBatches.writeVarlong(r, 0);
        byte[] rec = r.toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TestBatches.writeVarlong(out, rec.length);
        out.writeBytes(rec);
        return out.toByteArray();
    }

    private static void bytes(ByteArrayOutputStream out, String s) {
        if (s == null) {
            TestBatches.writeVarlong(out, -1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        TestBatches.writeVarlong(out, b.length);
        out.writeBytes(b);
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
