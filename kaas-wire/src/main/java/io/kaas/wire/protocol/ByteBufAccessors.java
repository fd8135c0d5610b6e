package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The primitive encodings of the Kafka protocol on a {@link ByteBuf}: varints, nullable and compact strings,
 * bytes, records (the length prefix here, the bytes through a {@link RecordsWriter}) and array lengths.
 * "Compact" is the flexible-version form: an unsigned varint of length + 1, with 0 meaning null. The classic
 * form is an int16 (strings) or int32 (bytes, arrays) length, -1 meaning null.
 */
public final class ByteBufAccessors {

    public static final byte[] EMPTY_BYTES = new byte[0];
    public static final UUID ZERO_UUID = new UUID(0L, 0L);

    /** Kafka's limit on the encoded length of a string. */
    public static final int MAX_STRING_LENGTH = 0x7fff;

    private ByteBufAccessors() {
    }

    // ---------------------------------------------------------------- varints

    public static int readUnsignedVarint(ByteBuf buf) {
        int value = 0;
        int shift = 0;
        byte b;
        while (((b = buf.readByte()) & 0x80) != 0) {
            value |= (b & 0x7f) << shift;
            shift += 7;
            if (shift > 28) {
                throw new MalformedMessageException("varint is longer than 5 bytes");
            }
        }
        return value | (b << shift);
    }

    public static void writeUnsignedVarint(ByteBuf buf, int value) {
        int v = value;
        while ((v & 0xffffff80) != 0) {
            buf.writeByte((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf.writeByte(v);
    }

    public static int sizeOfUnsignedVarint(int value) {
        int v = value;
        int bytes = 1;
        while ((v & 0xffffff80) != 0) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }

    /** A zig-zag encoded signed int (record fields). */
    public static int readVarint(ByteBuf buf) {
        int raw = readUnsignedVarint(buf);
        return (raw >>> 1) ^ -(raw & 1);
    }

    public static void writeVarint(ByteBuf buf, int value) {
        writeUnsignedVarint(buf, (value << 1) ^ (value >> 31));
    }

    public static int sizeOfVarint(int value) {
        return sizeOfUnsignedVarint((value << 1) ^ (value >> 31));
    }

    /** A zig-zag encoded signed long (record fields). */
    public static long readVarlong(ByteBuf buf) {
        long value = 0L;
        int shift = 0;
        long b;
        while (((b = buf.readByte()) & 0x80) != 0) {
            value |= (b & 0x7f) << shift;
            shift += 7;
            if (shift > 63) {
                throw new MalformedMessageException("varlong is longer than 10 bytes");
            }
        }
        value |= b << shift;
        return (value >>> 1) ^ -(value & 1);
    }

    public static void writeVarlong(ByteBuf buf, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xffffffffffffff80L) != 0L) {
            buf.writeByte(((int) v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf.writeByte((int) v);
    }

    public static int sizeOfVarlong(long value) {
        long v = (value << 1) ^ (value >> 63);
        int bytes = 1;
        while ((v & 0xffffffffffffff80L) != 0L) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }

    // ---------------------------------------------------------------- lengths

    private static int readLength(ByteBuf buf, boolean compact, boolean shortLength) {
        if (compact) {
            return readUnsignedVarint(buf) - 1;
        }
        return shortLength ? buf.readShort() : buf.readInt();
    }

    private static void writeLength(ByteBuf buf, int length, boolean compact, boolean shortLength) {
        if (compact) {
            writeUnsignedVarint(buf, length + 1);
        } else if (shortLength) {
            buf.writeShort(length);
        } else {
            buf.writeInt(length);
        }
    }

    private static int sizeOfLength(int length, boolean compact, boolean shortLength) {
        if (compact) {
            return sizeOfUnsignedVarint(length + 1);
        }
        return shortLength ? 2 : 4;
    }

    private static int checkedLength(ByteBuf buf, int length, boolean nullable, String field) {
        if (length < 0) {
            if (!nullable) {
                throw new MalformedMessageException("non-nullable field " + field + " was serialized as null");
            }
            return -1;
        }
        if (length > buf.readableBytes()) {
            throw new MalformedMessageException("field " + field + " has length " + length + " but only "
                + buf.readableBytes() + " bytes remain");
        }
        return length;
    }

    private static void requireNullable(boolean nullable, String field) {
        if (!nullable) {
            throw new NullPointerException("non-nullable field " + field + " was null");
        }
    }

    // ---------------------------------------------------------------- strings

    public static String readString(ByteBuf buf, boolean compact, boolean nullable, String field) {
        int length = checkedLength(buf, readLength(buf, compact, true), nullable, field);
        if (length < 0) {
            return null;
        }
        if (length > MAX_STRING_LENGTH) {
            throw new MalformedMessageException("string field " + field + " had invalid length " + length);
        }
        String value = buf.toString(buf.readerIndex(), length, StandardCharsets.UTF_8);
        buf.skipBytes(length);
        return value;
    }

    public static void writeString(ByteBuf buf, String value, boolean compact, boolean nullable, String field) {
        if (value == null) {
            requireNullable(nullable, field);
            writeLength(buf, -1, compact, true);
            return;
        }
        int length = ByteBufUtil.utf8Bytes(value);
        if (length > MAX_STRING_LENGTH) {
            throw new IllegalArgumentException("field " + field + " is too long to be serialized: " + length + " bytes");
        }
        writeLength(buf, length, compact, true);
        buf.writeCharSequence(value, StandardCharsets.UTF_8);
    }

    public static int sizeOfString(String value, boolean compact) {
        if (value == null) {
            return sizeOfLength(-1, compact, true);
        }
        int length = ByteBufUtil.utf8Bytes(value);
        return sizeOfLength(length, compact, true) + length;
    }

    // ---------------------------------------------------------------- bytes and records

    public static byte[] readBytes(ByteBuf buf, boolean compact, boolean nullable, String field) {
        int length = checkedLength(buf, readLength(buf, compact, false), nullable, field);
        if (length < 0) {
            return null;
        }
        byte[] out = new byte[length];
        buf.readBytes(out);
        return out;
    }

    public static void writeBytes(ByteBuf buf, byte[] value, boolean compact, boolean nullable, String field) {
        if (value == null) {
            requireNullable(nullable, field);
            writeLength(buf, -1, compact, false);
            return;
        }
        writeLength(buf, value.length, compact, false);
        buf.writeBytes(value);
    }

    public static int sizeOfBytes(byte[] value, boolean compact) {
        return value == null ? sizeOfLength(-1, compact, false) : sizeOfLength(value.length, compact, false) + value.length;
    }

    /** Returns records over a slice of {@code buf} (shared content, not retained, no copy), or null. */
    public static BufferRecords readRecords(ByteBuf buf, boolean compact, boolean nullable, String field) {
        int length = checkedLength(buf, readLength(buf, compact, false), nullable, field);
        return length < 0 ? null : new BufferRecords(buf.readSlice(length));
    }

    /**
     * Writes the length prefix of {@code value} to {@code buf}, then hands its bytes to {@code writer}, which
     * copies them in or keeps them as parts of their own.
     */
    public static void writeRecords(ByteBuf buf, RecordsWriter writer, Records value, boolean compact,
                                    boolean nullable, String field) {
        if (value == null) {
            requireNullable(nullable, field);
            writeLength(buf, -1, compact, false);
            return;
        }
        writeLength(buf, value.sizeInBytes(), compact, false);
        writer.write(buf, value);
    }

    public static int sizeOfRecords(Records value, boolean compact) {
        if (value == null) {
            return sizeOfLength(-1, compact, false);
        }
        int size = value.sizeInBytes();
        return sizeOfLength(size, compact, false) + size;
    }

    // ---------------------------------------------------------------- arrays and uuids

    /** Reads an array length; -1 for a null array (only when {@code nullable}). */
    public static int readArrayLength(ByteBuf buf, boolean compact, boolean nullable, String field) {
        return checkedLength(buf, readLength(buf, compact, false), nullable, field);
    }

    public static void writeArrayLength(ByteBuf buf, int length, boolean compact) {
        writeLength(buf, length, compact, false);
    }

    public static int sizeOfArrayLength(int length, boolean compact) {
        return sizeOfLength(length, compact, false);
    }

    public static UUID readUuid(ByteBuf buf) {
        return new UUID(buf.readLong(), buf.readLong());
    }

    public static void writeUuid(ByteBuf buf, UUID value) {
        buf.writeLong(value.getMostSignificantBits());
        buf.writeLong(value.getLeastSignificantBits());
    }
}
