package io.kaas.engine.segments.internal;

import io.kaas.api.record.RecordBatches;
import io.kaas.records.CompressionCodecs;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Builds valid v2 record batches for tests (records in the varint format, CRC32C over attributes..end). */
final class TestBatches {
    private long baseTimestamp = 1_000L;
    private long[] timestampDeltas;
    private int records = 1;
    private int valueSize = 10;
    private long producerId = -1;
    private short producerEpoch = -1;
    private int baseSequence = -1;
    private int codec;
    private boolean compress;

    static TestBatches batch() {
        return new TestBatches();
    }

    TestBatches records(int n) {
        this.records = n;
        return this;
    }

    TestBatches valueSize(int bytes) {
        this.valueSize = bytes;
        return this;
    }

    TestBatches timestamps(long base, long... deltas) {
        this.baseTimestamp = base;
        this.timestampDeltas = deltas;
        this.records = deltas.length;
        return this;
    }

    TestBatches producer(long id, int epoch, int sequence) {
        this.producerId = id;
        this.producerEpoch = (short) epoch;
        this.baseSequence = sequence;
        return this;
    }

    /** Compresses the records with {@code compressionCodec} (1 gzip, 2 snappy, 3 lz4, 4 zstd), as a producer does. */
    TestBatches compressed(int compressionCodec) {
        this.codec = compressionCodec;
        this.compress = true;
        return this;
    }

    /** Sets the codec bits without compressing: a batch whose payload is not what its attributes say. */
    TestBatches codecBitsOnly(int compressionCodec) {
        this.codec = compressionCodec;
        this.compress = false;
        return this;
    }

    ByteBuffer build() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        long maxTs = Long.MIN_VALUE;
        for (int i = 0; i < records; i++) {
            long delta = timestampDeltas == null ? i : timestampDeltas[i];
            maxTs = Math.max(maxTs, baseTimestamp + delta);
            body.writeBytes(record(i, delta));
        }
        byte[] recs = body.toByteArray();
        if (compress) {
            try {
                recs = CompressionCodecs.compress(codec, recs);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        int size = RecordBatches.HEADER_SIZE + recs.length;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putLong(0L).putInt(size - RecordBatches.LOG_OVERHEAD).putInt(-1).put(RecordBatches.MAGIC_V2).putInt(0)
                .putShort((short) codec).putInt(records - 1).putLong(baseTimestamp).putLong(maxTs)
                .putLong(producerId).putShort(producerEpoch).putInt(baseSequence).putInt(records).put(recs);
        b.flip();
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, size));
        return b;
    }

    private byte[] record(int offsetDelta, long timestampDelta) {
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        r.write(0);
        writeVarlong(r, timestampDelta);
        writeVarlong(r, offsetDelta);
        byte[] key = ("k" + offsetDelta).getBytes(StandardCharsets.UTF_8);
        writeVarlong(r, key.length);
        r.writeBytes(key);
        byte[] value = new byte[valueSize];
        for (int i = 0; i < valueSize; i++) {
            value[i] = (byte) (offsetDelta + i);
        }
        writeVarlong(r, value.length);
        r.writeBytes(value);
        writeVarlong(r, 0);
        byte[] rec = r.toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeVarlong(out, rec.length);
        out.writeBytes(rec);
        return out.toByteArray();
    }

    static void writeVarlong(ByteArrayOutputStream out, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    static ByteBuffer concat(ByteBuffer... batches) {
        int size = 0;
        for (ByteBuffer b : batches) {
            size += b.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer b : batches) {
            out.put(b.duplicate());
        }
        return out.flip();
    }
}
