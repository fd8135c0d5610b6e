package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.records.CompressionCodecs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of one v2 batch, decompressed, each kept as its verbatim bytes plus the fields compaction
 * needs (offset delta, key, whether the value is null). Records are parsed only for compacted topics.
 *
 * @param header  the batch header
 * @param payload the decompressed records section
 * @param records the records, in order
 */
record KeyedRecords(BatchHeader header, byte[] payload, List<Rec> records) {

    /**
     * One record.
     *
     * @param start       first byte of the record (its length varint) in the payload
     * @param length      the record's bytes, length varint included
     * @param offsetDelta offset relative to the batch base
     * @param keyStart    position of the key in the payload, -1 if the key is null
     * @param keyLength   key length, -1 if null
     * @param tombstone   whether the value is null
     */
    record Rec(int start, int length, int offsetDelta, int keyStart, int keyLength, boolean tombstone) {
        boolean hasKey() {
            return keyLength >= 0;
        }
    }

    /** Parses the whole batch at {@code buf}'s position (to its limit, exactly one batch). */
    static KeyedRecords parse(ByteBuffer buf) throws IOException {
        int pos = buf.position();
        BatchHeader h = RecordBatches.header(buf, pos, 0);
        byte[] raw = new byte[h.sizeInBytes() - RecordBatches.HEADER_SIZE];
        buf.duplicate().position(pos + RecordBatches.HEADER_SIZE).get(raw);
        byte[] payload = h.compressionCodec() == CompressionCodecs.NONE ? raw
                : CompressionCodecs.decompress(h.compressionCodec(), raw, 0, raw.length);
        List<Rec> records = new ArrayList<>(Math.max(0, Math.min(h.recordCount(), 1 << 16)));
        int at = 0;
        for (int i = 0; i < h.recordCount(); i++) {
            Rec r = parseRecord(payload, at);
            records.add(r);
            at = r.start() + r.length();
        }
        return new KeyedRecords(h, payload, records);
    }

    private static Rec parseRecord(byte[] p, int start) throws IOException {
        int[] cursor = {start};
        int bodyLength = (int) varlong(p, cursor);
        int bodyStart = cursor[0];
        if (bodyLength < 0 || bodyStart + bodyLength > p.length) {
            throw new IOException("record at " + start + " does not fit its batch");
        }
        cursor[0]++; // attributes
        varlong(p, cursor); // timestamp delta
        int offsetDelta = (int) varlong(p, cursor);
        int keyLength = (int) varlong(p, cursor);
        int keyStart = keyLength < 0 ? -1 : cursor[0];
        cursor[0] += Math.max(0, keyLength);
        int valueLength = (int) varlong(p, cursor);
        if (cursor[0] > bodyStart + bodyLength) {
            throw new IOException("record at " + start + " is malformed");
        }
        return new Rec(start, bodyStart + bodyLength - start, offsetDelta, keyStart, keyLength, valueLength < 0);
    }

    /** Reads a zig-zag varint/varlong at {@code cursor[0]}, advancing it. */
    private static long varlong(byte[] p, int[] cursor) throws IOException {
        long raw = 0;
        int shift = 0;
        while (true) {
            if (cursor[0] >= p.length || shift > 63) {
                throw new IOException("malformed varint in a record");
            }
            byte b = p[cursor[0]++];
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
        }
        return (raw >>> 1) ^ -(raw & 1);
    }

    /**
     * A copy of the original batch holding only {@code kept} (its records' bytes verbatim, so offset and
     * timestamp deltas still hold), recompressed with the batch's codec. Base offset, last offset delta,
     * timestamps, producer id, epoch and base sequence are unchanged, so the batch still ends at the same
     * offset and still accounts for its producer's sequences; an empty result is written uncompressed.
     */
    ByteBuffer rewrite(ByteBuffer original, List<Rec> kept) throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (Rec r : kept) {
            body.write(payload, r.start(), r.length());
        }
        int codec = kept.isEmpty() ? CompressionCodecs.NONE : header.compressionCodec();
        byte[] records = CompressionCodecs.compress(codec, body.toByteArray());
        int size = RecordBatches.HEADER_SIZE + records.length;
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.BIG_ENDIAN);
        ByteBuffer head = original.duplicate();
        head.limit(head.position() + RecordBatches.HEADER_SIZE);
        out.put(head).put(records).flip();
        out.putInt(RecordBatches.LENGTH, size - RecordBatches.LOG_OVERHEAD);
        out.putShort(RecordBatches.ATTRIBUTES, (short) ((header.attributes() & ~RecordBatches.COMPRESSION_CODEC_MASK) | codec));
        out.putInt(RecordBatches.RECORDS_COUNT, kept.size());
        out.putInt(RecordBatches.CRC, (int) RecordBatches.crc(out, 0, size));
        return out;
    }
}
