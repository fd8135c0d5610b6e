package io.kaas.broker.console;

import io.kaas.api.record.RecordBatches;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The record batch of one test message the console produces: magic 2, uncompressed, create time, no producer id
 * (not idempotent), one record with its key, value and headers; CRC32C over the attributes to the end, as a Java
 * producer writes it.
 */
final class TestMessageBatch {

    private TestMessageBatch() {
    }

    static byte[] of(byte[] key, byte[] value, Map<String, String> headers, long timestamp) {
        ByteArrayOutputStream record = new ByteArrayOutputStream();
        record.write(0); // attributes
        varlong(record, 0); // timestamp delta
        varlong(record, 0); // offset delta
        bytes(record, key);
        bytes(record, value);
        varlong(record, headers.size());
        for (Map.Entry<String, String> h : headers.entrySet()) {
            byte[] k = h.getKey().getBytes(StandardCharsets.UTF_8);
            varlong(record, k.length);
            record.writeBytes(k);
            bytes(record, h.getValue() == null ? null : h.getValue().getBytes(StandardCharsets.UTF_8));
        }
        byte[] r = record.toByteArray();
        ByteArrayOutputStream body = new ByteArrayOutputStream(r.length + 5);
        varlong(body, r.length);
        body.writeBytes(r);
        byte[] records = body.toByteArray();
        ByteBuffer buf = ByteBuffer.allocate(RecordBatches.HEADER_SIZE + records.length);
        buf.putLong(RecordBatches.BASE_OFFSET, 0L)
            .putInt(RecordBatches.LENGTH, buf.capacity() - RecordBatches.LOG_OVERHEAD)
            .putInt(RecordBatches.PARTITION_LEADER_EPOCH, -1)
            .put(RecordBatches.MAGIC, RecordBatches.MAGIC_V2)
            .putShort(RecordBatches.ATTRIBUTES, (short) 0)
            .putInt(RecordBatches.LAST_OFFSET_DELTA, 0)
            .putLong(RecordBatches.BASE_TIMESTAMP, timestamp)
            .putLong(RecordBatches.MAX_TIMESTAMP, timestamp)
            .putLong(RecordBatches.PRODUCER_ID, -1L)
            .putShort(RecordBatches.PRODUCER_EPOCH, (short) -1)
            .putInt(RecordBatches.BASE_SEQUENCE, -1)
            .putInt(RecordBatches.RECORDS_COUNT, 1);
        buf.put(RecordBatches.HEADER_SIZE, records);
        buf.putInt(RecordBatches.CRC, (int) RecordBatches.crc(buf, 0, buf.capacity()));
        return buf.array();
    }

    private static void bytes(ByteArrayOutputStream out, byte[] b) {
        if (b == null) {
            varlong(out, -1);
        } else {
            varlong(out, b.length);
            out.writeBytes(b);
        }
    }

    private static void varlong(ByteArrayOutputStream out, long v) {
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            out.write((int) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        out.write((int) z);
    }
}
