package io.kaas.coordinator.group;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The records of {@code __consumer_offsets}, in Kafka's layout so Kafka's tools can read them. All integers
 * big-endian; a string is an int16 byte length then UTF-8 (Kafka's non-flexible string), a compact string an unsigned
 * varint of length + 1 then UTF-8.
 *
 * <pre>
 * key   int16 version: 0 or 1 an offset commit (OffsetCommitKey: string group, string topic, int32 partition),
 *       2 group metadata (GroupMetadataKey: string group; skipped here), higher versions other record types (skipped)
 * value OffsetCommitValue: int16 version (0-4), int64 offset, [v3+ int32 leaderEpoch], string metadata (compact in
 *       v4), int64 commitTimestamp, [v1 only int64 expireTimestamp], [v4 tagged fields]
 * </pre>
 *
 * kaas writes key version 1 and value version 3 (version 1 for a commit with an explicit expiry), as Kafka; a null
 * value (tombstone) removes the offset.
 */
final class OffsetRecordCodec {
    static final short OFFSET_KEY_VERSION = 1;
    static final short GROUP_METADATA_KEY_VERSION = 2;

    /** A record that does not decode: an unknown version, a truncated field, bad UTF-8. */
    static final class DecodeException extends Exception {
        DecodeException(String message) {
            super(message);
        }
    }

    /** A decoded key: an offset commit's group and partition, or (partition null) a record of another type. */
    record Key(short version, String group, TopicPartitionRef partition) {
        boolean isOffset() {
            return partition != null;
        }
    }

    private OffsetRecordCodec() {
    }

    static byte[] key(String group, TopicPartitionRef tp) {
        byte[] g = group.getBytes(StandardCharsets.UTF_8);
        byte[] t = tp.topic().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(2 + 2 + g.length + 2 + t.length + 4);
        b.putShort(OFFSET_KEY_VERSION);
        b.putShort((short) g.length).put(g);
        b.putShort((short) t.length).put(t);
        b.putInt(tp.partition());
        return b.array();
    }

    static byte[] value(CommittedOffset o) {
        byte[] m = o.metadata().getBytes(StandardCharsets.UTF_8);
        boolean expiring = o.expireTimestamp() >= 0;
        ByteBuffer b = ByteBuffer.allocate(2 + 8 + 4 + 2 + m.length + 8 + 8);
        if (expiring) {
            b.putShort((short) 1).putLong(o.offset()).putShort((short) m.length).put(m).putLong(o.commitTimestamp())
                    .putLong(o.expireTimestamp());
        } else {
            b.putShort((short) 3).putLong(o.offset()).putInt(o.leaderEpoch()).putShort((short) m.length).put(m)
                    .putLong(o.commitTimestamp());
        }
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    static Key decodeKey(byte[] key) throws DecodeException {
        if (key == null) {
            throw new DecodeException("record has no key");
        }
        ByteBuffer b = ByteBuffer.wrap(key);
        try {
            short version = b.getShort();
            if (version < 0) {
                throw new DecodeException("record key has negative version " + version);
            }
            if (version > GROUP_METADATA_KEY_VERSION) {
                return new Key(version, null, null);
            }
            String group = string(b, "group");
            if (version == GROUP_METADATA_KEY_VERSION) {
                return new Key(version, group, null);
            }
            String topic = string(b, "topic");
            int partition = b.getInt();
            if (partition < 0) {
                throw new DecodeException("offset commit key has negative partition " + partition);
            }
            return new Key(version, group, new TopicPartitionRef(topic, partition));
        } catch (BufferUnderflowException e) {
            throw new DecodeException("record key of " + key.length + " bytes is truncated");
        }
    }

    static CommittedOffset decodeValue(byte[] value) throws DecodeException {
        ByteBuffer b = ByteBuffer.wrap(value);
        try {
            short version = b.getShort();
            if (version < 0 || version > 4) {
                throw new DecodeException("offset commit value has unknown version " + version);
            }
            long offset = b.getLong();
            int leaderEpoch = version >= 3 ? b.getInt() : -1;
            String metadata = version >= 4 ? compactString(b) : string(b, "metadata");
            long commitTimestamp = b.getLong();
            long expireTimestamp = version == 1 ? b.getLong() : -1;
            return new CommittedOffset(offset, leaderEpoch, metadata, commitTimestamp, expireTimestamp);
        } catch (BufferUnderflowException e) {
            throw new DecodeException("offset commit value of " + value.length + " bytes is truncated");
        }
    }

    private static String string(ByteBuffer b, String field) throws DecodeException {
        short length = b.getShort();
        if (length < 0) {
            throw new DecodeException("null " + field);
        }
        return utf8(b, length, field);
    }

    private static String compactString(ByteBuffer b) throws DecodeException {
        int length = unsignedVarint(b) - 1;
        if (length < 0) {
            throw new DecodeException("null metadata");
        }
        return utf8(b, length, "metadata");
    }

    private static int unsignedVarint(ByteBuffer b) throws DecodeException {
        int value = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            byte x = b.get();
            value |= (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return value;
            }
        }
        throw new DecodeException("varint longer than 5 bytes");
    }

    private static String utf8(ByteBuffer b, int length, String field) throws DecodeException {
        if (length > b.remaining()) {
            throw new BufferUnderflowException();
        }
        ByteBuffer slice = b.slice(b.position(), length);
        b.position(b.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(slice).toString();
        } catch (CharacterCodingException e) {
            throw new DecodeException(field + " is not UTF-8");
        }
    }
}
