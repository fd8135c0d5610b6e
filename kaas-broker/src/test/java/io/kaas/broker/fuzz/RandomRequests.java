package io.kaas.broker.fuzz;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * Well-formed requests of any API and version with random field values, encoded from the request schemas of
 * Kafka's generated message classes ({@code ApiMessageType.requestSchemas()}): every field of the version, tagged
 * fields included (known tags with random values, sometimes an unknown tag), arrays of a few elements, strings
 * from a small pool (names that exist on the fuzzed broker among them), integers biased to edge values, record
 * fields either a valid batch or random bytes. Times ({@code ...Ms} fields) stay under a second so no request is
 * parked for long by its own arguments.
 */
final class RandomRequests {

    /** Names the fuzz broker has (a topic, a group) besides random ones; the kept topic is never named. */
    static final String TARGET_TOPIC = "fuzz-target";

    private static final String[] NAMES = {TARGET_TOPIC, "g", "txn", "fuzz-target-2", "__consumer_offsets", "",
        "User:ANONYMOUS", "1", "*", "segment.bytes", "cleanup.policy", "range"};
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789._-";
    private static final int[] EDGE_INTS = {0, 1, -1, 2, 3, Integer.MAX_VALUE, Integer.MIN_VALUE, 255, 65535, 1000000};
    private static final long[] EDGE_LONGS = {0, 1, -1, -2, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 32, 100};

    /** The request fields that are nullable structs (only DescribeTopicPartitions' Cursor in Kafka 4.1). */
    private static final java.util.Set<String> NULLABLE_STRUCTS = java.util.Set.of("cursor");

    /** Ids of topics that exist on the fuzzed broker (the target topic's), mixed into UUID fields. */
    private static volatile java.util.List<java.util.UUID> knownIds = java.util.List.of();

    private final Random random;

    RandomRequests(Random random) {
        this.random = random;
    }

    /** Lets UUID fields name these topic ids now and then. */
    static void knownTopicIds(java.util.List<java.util.UUID> ids) {
        knownIds = java.util.List.copyOf(ids);
    }

    /** A size-prefixed request frame: header (v1 or v2 as the version asks) and a random body. */
    byte[] frame(short apiKey, short version, int correlationId) {
        ApiMessageType type = ApiMessageType.fromApiKey(apiKey);
        Out body = new Out();
        body.int16(apiKey);
        body.int16(version);
        body.int32(correlationId);
        body.string("fuzz-" + random.nextInt(4), false);
        if (type.requestHeaderVersion(version) >= 2) {
            body.uvarint(0);
        }
        write(type.requestSchemas()[version], "", body, 0);
        byte[] bytes = body.toByteArray();
        return ByteBuffer.allocate(4 + bytes.length).putInt(bytes.length).put(bytes).array();
    }

    /** Whether Kafka's schemas hold {@code version} of {@code apiKey}. */
    static boolean hasSchema(short apiKey, short version) {
        try {
            Schema[] schemas = ApiMessageType.fromApiKey(apiKey).requestSchemas();
            return version >= 0 && version < schemas.length && schemas[version] != null;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void write(Type type, String name, Out out, int depth) {
        if (type instanceof Schema && depth > 0 && NULLABLE_STRUCTS.contains(name)) {
            // Kafka's schema types cannot say a struct is nullable; its generated codec writes a marker byte first.
            if (random.nextInt(3) == 0) {
                out.int8(-1);
                return;
            }
            out.int8(1);
        }
        if (type instanceof Schema schema) {
            for (BoundField f : schema.fields()) {
                write(f.def.type, f.def.name, out, depth + 1);
            }
        } else if (type instanceof TaggedFields tagged) {
            writeTagged(tagged, out, depth);
        } else if (type.isArray()) {
            writeArray(type, name, out, depth);
        } else {
            writePrimitive(type, name, out);
        }
    }

    private void writeArray(Type type, String name, Out out, int depth) {
        boolean compact = type instanceof CompactArrayOf;
        if (type.isNullable() && random.nextInt(8) == 0) {
            if (compact) {
                out.uvarint(0);
            } else {
                out.int32(-1);
            }
            return;
        }
        int n = depth > 4 ? random.nextInt(2) : random.nextInt(4);
        if (compact) {
            out.uvarint(n + 1);
        } else {
            out.int32(n);
        }
        Type element = type.arrayElementType().orElseThrow();
        for (int i = 0; i < n; i++) {
            write(element, name, out, depth + 1);
        }
    }

    private void writeTagged(TaggedFields tagged, Out out, int depth) {
        TreeMap<Integer, byte[]> chosen = new TreeMap<>();
        for (Map.Entry<Integer, org.apache.kafka.common.protocol.types.Field> e : knownTags(tagged).entrySet()) {
            if (random.nextInt(3) == 0) {
                Out value = new Out();
                write(e.getValue().type, e.getValue().name, value, depth + 1);
                chosen.put(e.getKey(), value.toByteArray());
            }
        }
        if (random.nextInt(10) == 0) {
            byte[] raw = new byte[random.nextInt(6)];
            random.nextBytes(raw);
            chosen.put(100 + random.nextInt(100), raw);
        }
        out.uvarint(chosen.size());
        chosen.forEach((tag, bytes) -> {
            out.uvarint(tag);
            out.uvarint(bytes.length);
            out.bytes(bytes);
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<Integer, org.apache.kafka.common.protocol.types.Field> knownTags(TaggedFields tagged) {
        try {
            Field fields = TaggedFields.class.getDeclaredField("fields");
            fields.setAccessible(true);
            return (Map<Integer, org.apache.kafka.common.protocol.types.Field>) fields.get(tagged);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the tags of " + tagged, e);
        }
    }

    private void writePrimitive(Type type, String name, Out out) {
        boolean time = name.endsWith("Ms") || name.contains("Timeout");
        if (type == Type.BOOLEAN) {
            out.int8(random.nextBoolean() ? 1 : 0);
        } else if (type == Type.INT8) {
            out.int8(random.nextInt(4) == 0 ? random.nextInt(256) - 128 : random.nextInt(3) - 1);
        } else if (type == Type.INT16) {
            out.int16(time ? random.nextInt(1000) : (short) edgeInt());
        } else if (type == Type.UINT16) {
            out.int16(random.nextInt(65536));
        } else if (type == Type.INT32) {
            out.int32(time ? smallTime() : edgeInt());
        } else if (type == Type.UNSIGNED_INT32) {
            out.int32(random.nextInt(3) == 0 ? -1 : random.nextInt(1000));
        } else if (type == Type.INT64) {
            out.int64(time ? smallTime() : edgeLong());
        } else if (type == Type.VARINT) {
            out.varint(edgeInt());
        } else if (type == Type.VARLONG) {
            out.varlong(edgeLong());
        } else if (type == Type.FLOAT64) {
            out.int64(Double.doubleToRawLongBits(random.nextInt(4) == 0 ? Double.NaN : random.nextDouble() * 1000));
        } else if (type == Type.UUID) {
            java.util.List<java.util.UUID> ids = knownIds;
            if (!ids.isEmpty() && random.nextInt(3) == 0) {
                java.util.UUID id = ids.get(random.nextInt(ids.size()));
                out.int64(id.getMostSignificantBits());
                out.int64(id.getLeastSignificantBits());
            } else if (random.nextInt(3) == 0) {
                out.int64(0);
                out.int64(0);
            } else {
                out.int64(random.nextLong());
                out.int64(random.nextLong());
            }
        } else if (type == Type.STRING || type == Type.COMPACT_STRING) {
            out.string(string(), type == Type.COMPACT_STRING);
        } else if (type == Type.NULLABLE_STRING || type == Type.COMPACT_NULLABLE_STRING) {
            out.string(random.nextInt(6) == 0 ? null : string(), type == Type.COMPACT_NULLABLE_STRING);
        } else if (type == Type.BYTES || type == Type.COMPACT_BYTES) {
            out.blob(randomBytes(16), type == Type.COMPACT_BYTES);
        } else if (type == Type.NULLABLE_BYTES || type == Type.COMPACT_NULLABLE_BYTES) {
            out.blob(random.nextInt(6) == 0 ? null : randomBytes(16), type == Type.COMPACT_NULLABLE_BYTES);
        } else if (type == Type.RECORDS || type == Type.COMPACT_RECORDS) {
            out.blob(records(), type == Type.COMPACT_RECORDS);
        } else if (type == Type.NULLABLE_RECORDS || type == Type.COMPACT_NULLABLE_RECORDS) {
            // Kafka 4.4's schemas tell nullable records fields (Produce's) from the others
            out.blob(random.nextInt(8) == 0 ? null : records(), type == Type.COMPACT_NULLABLE_RECORDS);
        } else {
            throw new IllegalStateException("no generator for type " + type + " of field " + name);
        }
    }

    private byte[] records() {
        if (random.nextBoolean()) {
            return randomBytes(80);
        }
        SimpleRecord[] records = new SimpleRecord[1 + random.nextInt(3)];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(random.nextInt(3) == 0 ? -1L : System.currentTimeMillis(),
                random.nextBoolean() ? null : randomBytes(8), randomBytes(32));
        }
        Compression compression = switch (random.nextInt(4)) {
            case 0 -> Compression.gzip().build();
            case 1 -> Compression.lz4().build();
            default -> Compression.NONE;
        };
        ByteBuffer buffer = MemoryRecords.withRecords(compression, records).buffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    private int smallTime() {
        return random.nextInt(5) == 0 ? -1 : random.nextInt(1000);
    }

    private int edgeInt() {
        return random.nextBoolean() ? EDGE_INTS[random.nextInt(EDGE_INTS.length)] : random.nextInt(20) - 2;
    }

    private long edgeLong() {
        return random.nextBoolean() ? EDGE_LONGS[random.nextInt(EDGE_LONGS.length)] : random.nextInt(1000) - 2;
    }

    private String string() {
        if (random.nextBoolean()) {
            return NAMES[random.nextInt(NAMES.length)];
        }
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            s.append(random.nextInt(30) == 0 ? (char) (0x80 + random.nextInt(0x700)) : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return s.toString();
    }

    private byte[] randomBytes(int max) {
        byte[] b = new byte[random.nextInt(max + 1)];
        random.nextBytes(b);
        return b;
    }

    /** Kafka's primitive encodings. */
    static final class Out extends ByteArrayOutputStream {
        void int8(int v) {
            write(v);
        }

        void int16(int v) {
            write(v >>> 8);
            write(v);
        }

        void int32(int v) {
            int16(v >>> 16);
            int16(v);
        }

        void int64(long v) {
            int32((int) (v >>> 32));
            int32((int) v);
        }

        void uvarint(int v) {
            while ((v & 0xffffff80) != 0) {
                write((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            write(v);
        }

        void varint(int v) {
            uvarint((v << 1) ^ (v >> 31));
        }

        void varlong(long v) {
            long z = (v << 1) ^ (v >> 63);
            while ((z & 0xffffffffffffff80L) != 0) {
                write((int) ((z & 0x7f) | 0x80));
                z >>>= 7;
            }
            write((int) z);
        }

        void bytes(byte[] b) {
            write(b, 0, b.length);
        }

        void string(String s, boolean compact) {
            blob(s == null ? null : s.getBytes(StandardCharsets.UTF_8), compact, true);
        }

        void blob(byte[] b, boolean compact) {
            blob(b, compact, false);
        }

        private void blob(byte[] b, boolean compact, boolean shortLength) {
            if (compact) {
                uvarint(b == null ? 0 : b.length + 1);
            } else if (shortLength) {
                int16(b == null ? -1 : b.length);
            } else {
                int32(b == null ? -1 : b.length);
            }
            if (b != null) {
                bytes(b);
            }
        }
    }
}
