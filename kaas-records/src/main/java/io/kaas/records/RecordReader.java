package io.kaas.records;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the keys and values of the records of one v2 batch: the counterpart of {@link BatchBuilder}, for logs
 * the broker writes and reads back itself (internal topics). Headers are skipped. A compressed batch is
 * decompressed. Stateless.
 *
 * <pre>{@code
 * for (RecordReader.Record r : RecordReader.read(batch, header)) { ... r.key() ... r.value() ... }
 * }</pre>
 */
public final class RecordReader {

    /**
     * One record.
     *
     * @param offset    its offset (the batch's base offset + its delta)
     * @param timestamp its create time (base timestamp + its delta)
     * @param key       its key, null if it has none
     * @param value     its value, null for a tombstone
     */
    public record Record(long offset, long timestamp, byte[] key, byte[] value) {
    }

    private RecordReader() {
    }

    /**
     * Every record of the batch in {@code batch} from its position to its limit (exactly one batch, as
     * {@link RecordBatches#header} described it in {@code header}).
     *
     * @throws IOException if the records section is shorter than the header says, or a record is malformed
     *                     (a length that runs past its record, a varint over 10 bytes)
     */
    public static List<Record> read(ByteBuffer batch, BatchHeader header) throws IOException {
        int length = batch.remaining() - RecordBatches.HEADER_SIZE;
        if (length < 0) {
            throw new IOException("batch of " + batch.remaining() + " bytes is shorter than its header");
        }
        byte[] raw = new byte[length];
        batch.get(batch.position() + RecordBatches.HEADER_SIZE, raw);
        InputStream in = header.compressionCodec() == CompressionCodecs.NONE ? new ByteArrayInputStream(raw)
                : CompressionCodecs.decompressing(header.compressionCodec(), new ByteArrayInputStream(raw));
        try (in) {
            List<Record> out = new ArrayList<>(Math.max(0, Math.min(header.recordCount(), 1 << 16)));
            for (int i = 0; i < header.recordCount(); i++) {
                out.add(readRecord(in, header, i));
            }
            return out;
        }
    }

    private static Record readRecord(InputStream in, BatchHeader header, int index) throws IOException {
        long length = varlong(in);
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new IOException("record " + index + " has a length of " + length);
        }
        byte[] body = in.readNBytes((int) length);
        if (body.length < length) {
            throw new EOFException("record " + index + " announces " + length + " bytes, the batch holds " + body.length);
        }
        ByteArrayInputStream r = new ByteArrayInputStream(body);
        if (r.read() < 0) { // attributes
            throw new EOFException("record " + index + " is empty");
        }
        long timestamp = header.baseTimestamp() + varlong(r);
        long offset = header.baseOffset() + varlong(r);
        byte[] key = bytes(r, index, "key");
        byte[] value = bytes(r, index, "value");
        return new Record(offset, timestamp, key, value);
    }

    private static byte[] bytes(ByteArrayInputStream in, int index, String what) throws IOException {
        long n = varlong(in);
        if (n < 0) {
            return null;
        }
        if (n > in.available()) {
            throw new EOFException("record " + index + ": " + what + " of " + n + " bytes runs past its record");
        }
        return in.readNBytes((int) n);
    }

    private static long varlong(InputStream in) throws IOException {
        long raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("records end inside a varint");
            }
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IOException("varint longer than 10 bytes");
    }
}
