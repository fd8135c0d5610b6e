package io.kaas.plugin.tck;

import io.kaas.api.record.RecordBatches;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPOutputStream;

/**
 * Builds valid v2 record batches (magic 2, CRC32C over attributes to the end) of records in Kafka's
 * varint record format, uncompressed, really gzip-compressed ({@link #gzip()}) or compressed by a codec the
 * caller brings ({@link #compressed}), of generated records or of given keys and values ({@link #record}), for
 * engine tests. A builder is mutable and not thread-safe; {@link #build()} may be called many times and returns a
 * fresh buffer each time.
 *
 * <pre>{@code
 * ByteBuffer b = TestBatches.batch().records(3).timestamps(1_000, 0, 5, 10).producer(7, 0, 0).build();
 * ByteBuffer k = TestBatches.batch().record("a", "1").record("a", null).build(); // a value, then a tombstone
 * ByteBuffer t = TestBatches.batch().producer(7, 0, 0).transactional().build(); // data of a transaction
 * ByteBuffer c = TestBatches.controlMarker(7, 0, true).build();                   // its COMMIT marker
 * }</pre>
 */
public final class TestBatches {
    private static final int GZIP_CODEC = 1;

    private long baseTimestamp = 1_000L;
    private long[] timestampDeltas;
    private int records = 1;
    private int valueSize = 10;
    private int seed;
    private long producerId = -1;
    private short producerEpoch = -1;
    private int baseSequence = -1;
    private int partitionLeaderEpoch = -1;
    private boolean keys = true;
    private int compressionCodec;
    private UnaryOperator<byte[]> compressor;
    private List<KeyValue> keyed;
    private boolean transactional;
    private byte[] controlKey;
    private int coordinatorEpoch;

    private TestBatches() {
    }

    /**
     * A transaction marker as the transaction coordinator writes it: a transactional control batch of one
     * record, no sequence, key version 0 and type COMMIT (1) or ABORT (0), value version 0 and coordinator
     * epoch 0 ({@link #coordinatorEpoch} sets another).
     */
    public static TestBatches controlMarker(long producerId, int epoch, boolean commit) {
        return batch().producer(producerId, epoch, -1).transactional()
                .controlKey(ByteBuffer.allocate(4).putShort((short) 0).putShort((short) (commit ? 1 : 0)).array());
    }

    /** The coordinator epoch in a marker's value (default 0). */
    public TestBatches coordinatorEpoch(int epoch) {
        this.coordinatorEpoch = epoch;
        return this;
    }

    /** Sets attribute bit 4: the batch belongs to a transaction of its producer. */
    public TestBatches transactional() {
        this.transactional = true;
        return this;
    }

    /**
     * Makes the batch a control batch (attribute bit 5) of one record with this raw key (normally version
     * and type, int16 each; any bytes here, to build malformed markers) and the marker value.
     */
    public TestBatches controlKey(byte[] key) {
        this.controlKey = key.clone();
        this.records = 1;
        this.keyed = null;
        this.timestampDeltas = null;
        return this;
    }

    /** A one-record batch, base offset 0, timestamp 1000, no producer id. */
    public static TestBatches batch() {
        return new TestBatches();
    }

    /** Number of records; timestamps become base, base+1, … unless set by {@link #timestamps}. */
    public TestBatches records(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a batch needs at least one record, got " + n);
        }
        this.records = n;
        this.timestampDeltas = null;
        this.keyed = null;
        return this;
    }

    /**
     * Adds a record with this key and value (UTF-8) instead of the generated ones: a null key is a keyless record,
     * a null value a tombstone. Each call adds one; all records of the batch are then the ones added this way,
     * at timestamp deltas 0, 1, … unless set by {@link #timestamps} after the last one.
     */
    public TestBatches record(String key, String value) {
        if (keyed == null) {
            keyed = new ArrayList<>();
        }
        keyed.add(new KeyValue(key, value));
        this.records = keyed.size();
        this.timestampDeltas = null;
        return this;
    }

    /** Size of each record's value. */
    public TestBatches valueSize(int bytes) {
        this.valueSize = bytes;
        return this;
    }

    /** Records with a null key (what a compacted topic refuses). */
    public TestBatches withoutKeys() {
        this.keys = false;
        return this;
    }

    /** Varies the value bytes, so that batches with otherwise equal settings differ. */
    public TestBatches seed(int seed) {
        this.seed = seed;
        return this;
    }

    /** The records' timestamps: {@code base + deltas[i]}; also sets the record count (that of {@link #record}s added). */
    public TestBatches timestamps(long base, long... deltas) {
        if (deltas.length < 1) {
            throw new IllegalArgumentException("a batch needs at least one record");
        }
        if (keyed != null && keyed.size() != deltas.length) {
            throw new IllegalArgumentException(deltas.length + " timestamps for " + keyed.size() + " records");
        }
        this.baseTimestamp = base;
        this.timestampDeltas = deltas.clone();
        this.records = deltas.length;
        return this;
    }

    /** Makes the batch idempotent: producer id, epoch and the sequence of its first record. */
    public TestBatches producer(long id, int epoch, int sequence) {
        this.producerId = id;
        this.producerEpoch = (short) epoch;
        this.baseSequence = sequence;
        return this;
    }

    public TestBatches partitionLeaderEpoch(int epoch) {
        this.partitionLeaderEpoch = epoch;
        return this;
    }

    /**
     * Sets the compression codec bits (1 gzip … 4 zstd) without compressing: the records stay readable
     * to the TCK but an engine must treat the payload as opaque, as it would a really compressed one.
     */
    public TestBatches compressionAttribute(int codec) {
        this.compressionCodec = codec;
        this.compressor = null;
        return this;
    }

    /**
     * Really compresses the records with gzip (codec 1), as a Kafka producer with
     * {@code compression.type=gzip} does: the header stays plain, the records become one gzip stream.
     */
    public TestBatches gzip() {
        return compressed(GZIP_CODEC, TestBatches::gzipped);
    }

    /**
     * Compresses the records with {@code compressor} and sets the codec bits to {@code codec} (1 gzip, 2 snappy,
     * 3 lz4, 4 zstd): for an engine that tests its own codecs, which the kit does not bring.
     */
    public TestBatches compressed(int codec, UnaryOperator<byte[]> compressor) {
        this.compressionCodec = codec;
        this.compressor = compressor;
        return this;
    }

    public int recordCount() {
        return records;
    }

    /** The batch, position 0, limit its size, big-endian. */
    public ByteBuffer build() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        long maxTs = Long.MIN_VALUE;
        for (int i = 0; i < records; i++) {
            long delta = timestampDeltas == null ? i : timestampDeltas[i];
            maxTs = Math.max(maxTs, baseTimestamp + delta);
            body.writeBytes(controlKey != null ? record(i, delta, controlKey, markerValue())
                    : keyed == null ? record(i, delta) : record(i, delta, keyed.get(i)));
        }
        byte[] recs = compressor != null ? compressor.apply(body.toByteArray()) : body.toByteArray();
        int size = RecordBatches.HEADER_SIZE + recs.length;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putLong(0L).putInt(size - RecordBatches.LOG_OVERHEAD).putInt(partitionLeaderEpoch)
                .put(RecordBatches.MAGIC_V2).putInt(0).putShort((short) attributes()).putInt(records - 1)
                .putLong(baseTimestamp).putLong(maxTs).putLong(producerId).putShort(producerEpoch)
                .putInt(baseSequence).putInt(records).put(recs);
        b.flip();
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, size));
        return b;
    }

    /** A marker's value: version 0 (int16), the coordinator epoch (int32). */
    private byte[] markerValue() {
        return ByteBuffer.allocate(6).putShort((short) 0).putInt(coordinatorEpoch).array();
    }

    private int attributes() {
        return compressionCodec | (transactional ? RecordBatches.TRANSACTIONAL_FLAG : 0)
                | (controlKey != null ? RecordBatches.CONTROL_FLAG : 0);
    }

    /** The batch as a byte array. */
    public byte[] bytes() {
        return toArray(build());
    }

    /** The batches one after another in one buffer, as a Produce request carries them. */
    public static ByteBuffer concat(ByteBuffer... batches) {
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

    /** A copy of one batch with its base offset set, as an engine stores it. */
    public static byte[] withBaseOffset(ByteBuffer batch, long baseOffset) {
        ByteBuffer copy = ByteBuffer.wrap(toArray(batch));
        RecordBatches.setBaseOffset(copy, 0, baseOffset);
        return copy.array();
    }

    /** The bytes from position to limit; the buffer is not changed. */
    public static byte[] toArray(ByteBuffer buffer) {
        ByteBuffer d = buffer.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    private byte[] record(int offsetDelta, long timestampDelta) {
        byte[] value = new byte[valueSize];
        for (int i = 0; i < valueSize; i++) {
            value[i] = (byte) (seed * 31 + offsetDelta + i);
        }
        byte[] key = keys ? ("k" + offsetDelta).getBytes(StandardCharsets.UTF_8) : null;
        return record(offsetDelta, timestampDelta, key, value);
    }

    private static byte[] record(int offsetDelta, long timestampDelta, KeyValue kv) {
        return record(offsetDelta, timestampDelta, utf8(kv.key()), utf8(kv.value()));
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /** One record in the v2 varint format; a null key or value is written with length -1. */
    private static byte[] record(int offsetDelta, long timestampDelta, byte[] key, byte[] value) {
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        r.write(0); // attributes
        writeVarlong(r, timestampDelta);
        writeVarlong(r, offsetDelta);
        writeBytes(r, key);
        writeBytes(r, value);
        writeVarlong(r, 0); // no headers
        byte[] rec = r.toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeVarlong(out, rec.length);
        out.writeBytes(rec);
        return out.toByteArray();
    }

    private static byte[] gzipped(byte[] records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(records);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen: in-memory streams
        }
        return out.toByteArray();
    }

    private static void writeBytes(ByteArrayOutputStream out, byte[] bytes) {
        if (bytes == null) {
            writeVarlong(out, -1);
        } else {
            writeVarlong(out, bytes.length);
            out.writeBytes(bytes);
        }
    }

    private record KeyValue(String key, String value) {
    }

    private static void writeVarlong(ByteArrayOutputStream out, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}
