package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RecordCursorTest {

    private static void varlong(ByteArrayOutputStream out, long v) {
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            out.write((int) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        out.write((int) z);
    }

    /** A batch at base offset 100, base time 1000, whose records have the given timestamp deltas and 3-byte values. */
    static ByteBuffer batch(int codec, long... timestampDeltas) throws IOException {
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        for (int i = 0; i < timestampDeltas.length; i++) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.write(0); // attributes
            varlong(body, timestampDeltas[i]);
            varlong(body, i); // offset delta
            varlong(body, -1); // null key
            varlong(body, 3);
            body.write(new byte[] {1, 2, 3});
            varlong(body, 0); // no headers
            varlong(records, body.size());
            body.writeTo(records);
        }
        byte[] section = CompressionCodecs.compress(codec, records.toByteArray());
        int size = RecordBatches.HEADER_SIZE + section.length;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putLong(RecordBatches.BASE_OFFSET, 100).putInt(RecordBatches.LENGTH, size - RecordBatches.LOG_OVERHEAD)
                .put(RecordBatches.MAGIC, RecordBatches.MAGIC_V2).putShort(RecordBatches.ATTRIBUTES, (short) codec)
                .putInt(RecordBatches.LAST_OFFSET_DELTA, timestampDeltas.length - 1)
                .putLong(RecordBatches.BASE_TIMESTAMP, 1000).putLong(RecordBatches.PRODUCER_ID, -1)
                .putInt(RecordBatches.BASE_SEQUENCE, -1).putInt(RecordBatches.RECORDS_COUNT, timestampDeltas.length);
        b.put(RecordBatches.HEADER_SIZE, section);
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, size));
        return b;
    }

    @ParameterizedTest
    @ValueSource(ints = {CompressionCodecs.NONE, CompressionCodecs.GZIP, CompressionCodecs.SNAPPY, CompressionCodecs.LZ4,
            CompressionCodecs.ZSTD})
    void walksEveryRecordOfABatchInEachCodec(int codec) throws IOException {
        ByteBuffer b = batch(codec, 5, 0, 300);
        BatchHeader h = RecordBatches.validateOne(b, 0, 0);
        assertThat(h.compressionCodec()).isEqualTo(codec);
        List<long[]> seen = new ArrayList<>();
        try (RecordCursor c = RecordCursor.of(b, h)) {
            while (c.next()) {
                seen.add(new long[] {c.offset(), c.timestamp()});
            }
        }
        assertThat(seen).containsExactly(new long[] {100, 1005}, new long[] {101, 1000}, new long[] {102, 1300});
        byte[] array = new byte[b.limit()];
        b.get(0, array);
        try (RecordCursor c = RecordCursor.of(array, h)) {
            assertThat(c.next()).isTrue();
            assertThat(c.timestamp()).isEqualTo(1005);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {CompressionCodecs.GZIP, CompressionCodecs.SNAPPY, CompressionCodecs.LZ4, CompressionCodecs.ZSTD})
    void compressionRoundTrips(int codec) throws IOException {
        byte[] data = "the same words, the same words, the same words".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] packed = CompressionCodecs.compress(codec, data);
        assertThat(packed).isNotEqualTo(data);
        assertThat(CompressionCodecs.decompress(codec, packed, 0, packed.length)).isEqualTo(data);
    }
}
