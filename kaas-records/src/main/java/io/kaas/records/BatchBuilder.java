package io.kaas.records;

import io.kaas.api.record.ControlRecords;
import io.kaas.api.record.RecordBatches;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes uncompressed v2 record batches the broker itself produces: the records of an internal log (keys and
 * values), the console's test messages (with headers) and transaction markers (control batches). The layout is Kafka's: the 61-byte header of
 * {@link RecordBatches}, then varint records, CRC32C over attributes to the end. Not thread-safe; one batch per
 * builder.
 *
 * <pre>{@code
 * ByteBuffer state = BatchBuilder.create(now).add(key, value).build();
 * ByteBuffer marker = BatchBuilder.marker(producerId, epoch, coordinatorEpoch, true, now);
 * }</pre>
 */
public final class BatchBuilder {
    private final long timestamp;
    private final List<Entry> records = new ArrayList<>();
    private long producerId = -1;
    private short producerEpoch = -1;
    private int baseSequence = -1;
    private boolean transactional;
    private boolean control;

    private BatchBuilder(long timestamp) {
        this.timestamp = timestamp;
    }

    /** An empty batch whose records all carry {@code timestamp} (create time). */
    public static BatchBuilder create(long timestamp) {
        return new BatchBuilder(timestamp);
    }

    /**
     * A COMMIT or ABORT marker as Kafka's transaction coordinator writes it: a transactional control batch of
     * one record, no sequence, key version 0 and the control type, value version 0 and the coordinator epoch.
     */
    public static ByteBuffer marker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                                    long timestamp) {
        byte[] key = ByteBuffer.allocate(ControlRecords.KEY_SIZE).putShort((short) 0)
                .putShort(commit ? ControlRecords.COMMIT : ControlRecords.ABORT).array();
        byte[] value = ByteBuffer.allocate(6).putShort((short) 0).putInt(coordinatorEpoch).array();
        BatchBuilder b = create(timestamp).producer(producerId, producerEpoch, -1).add(key, value);
        b.transactional = true;
        b.control = true;
        return b.build();
    }

    /** Sets the producer fields of the header (id, epoch, base sequence; -1 for none). */
    public BatchBuilder producer(long id, short epoch, int sequence) {
        this.producerId = id;
        this.producerEpoch = epoch;
        this.baseSequence = sequence;
        return this;
    }

    /**
     * Marks the batch transactional (the attribute bit): its records count once its producer's COMMIT marker
     * follows, and never after an ABORT, as the records Kafka's group coordinator writes for TxnOffsetCommit.
     */
    public BatchBuilder transactional() {
        this.transactional = true;
        return this;
    }

    private record Entry(byte[] key, byte[] value, List<Map.Entry<String, byte[]>> headers) {
    }

    /** Adds a record; a null value is a tombstone, a null key a keyless record. */
    public BatchBuilder add(byte[] key, byte[] value) {
        return add(key, value, List.of());
    }

    /**
     * Adds a record with headers, in their order (a header key is UTF-8, never null; a header value may be null).
     */
    public BatchBuilder add(byte[] key, byte[] value, List<Map.Entry<String, byte[]>> headers) {
        for (Map.Entry<String, byte[]> h : headers) {
            Objects.requireNonNull(h.getKey(), "a header key is never null");
        }
        records.add(new Entry(key, value, List.copyOf(headers)));
        return this;
    }

    /** The number of records added. */
    public int size() {
        return records.size();
    }

    /**
     * The batch, base offset 0 (the engine assigns offsets), position 0 to its size.
     *
     * @throws IllegalStateException if no record was added
     */
    public ByteBuffer build() {
        if (records.isEmpty()) {
            throw new IllegalStateException("a record batch holds at least one record");
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int i = 0; i < records.size(); i++) {
            writeRecord(body, i, records.get(i));
        }
        byte[] bytes = body.toByteArray();
        ByteBuffer buf = ByteBuffer.allocate(RecordBatches.HEADER_SIZE + bytes.length);
        short attributes = (short) ((transactional ? RecordBatches.TRANSACTIONAL_FLAG : 0)
                | (control ? RecordBatches.CONTROL_FLAG : 0));
        buf.putLong(RecordBatches.BASE_OFFSET, 0L)
                .putInt(RecordBatches.LENGTH, buf.capacity() - RecordBatches.LOG_OVERHEAD)
                .putInt(RecordBatches.PARTITION_LEADER_EPOCH, -1)
                .put(RecordBatches.MAGIC, RecordBatches.MAGIC_V2)
                .putShort(RecordBatches.ATTRIBUTES, attributes)
                .putInt(RecordBatches.LAST_OFFSET_DELTA, records.size() - 1)
                .putLong(RecordBatches.BASE_TIMESTAMP, timestamp)
                .putLong(RecordBatches.MAX_TIMESTAMP, timestamp)
                .putLong(RecordBatches.PRODUCER_ID, producerId)
                .putShort(RecordBatches.PRODUCER_EPOCH, producerEpoch)
                .putInt(RecordBatches.BASE_SEQUENCE, baseSequence)
                .putInt(RecordBatches.RECORDS_COUNT, records.size());
        buf.put(RecordBatches.HEADER_SIZE, bytes);
        buf.putInt(RecordBatches.CRC, (int) RecordBatches.crc(buf, 0, buf.capacity()));
        return buf;
    }

    private static void writeRecord(ByteArrayOutputStream out, int offsetDelta, Entry e) {
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        r.write(0); // attributes
        varlong(r, 0); // timestamp delta
        varlong(r, offsetDelta);
        bytes(r, e.key());
        bytes(r, e.value());
        varlong(r, e.headers().size());
        for (Map.Entry<String, byte[]> h : e.headers()) {
            bytes(r, h.getKey().getBytes(StandardCharsets.UTF_8));
            bytes(r, h.getValue());
        }
        byte[] record = r.toByteArray();
        varlong(out, record.length);
        out.writeBytes(record);
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
