package io.kaas.coordinator.group;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The membership of a classic group in {@code __consumer_offsets}, in Kafka's layout: key {@code GroupMetadataKey}
 * (int16 version 2, string group), value {@code GroupMetadataValue} version 3 (string protocolType, int32 generation,
 * nullable string protocol, nullable string leader, int64 currentStateTimestamp, int32 member count, each: string
 * memberId, nullable string groupInstanceId, string clientId, string clientHost, int32 rebalanceTimeout, int32
 * sessionTimeout, bytes subscription, bytes assignment; a string is an int16 length (-1: null), bytes an int32
 * length). Versions 0-3 are read; a null value (tombstone) removes the group.
 */
final class GroupMetadataCodec {
    static final short VALUE_VERSION = 3;

    /** One member as the record carries it. */
    record Member(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
                  int sessionTimeoutMs, byte[] subscription, byte[] assignment) {
    }

    /** A classic group's membership at the end of a rebalance. */
    record Image(String protocolType, int generation, String protocol, String leader, long stateTimestampMs,
                 List<Member> members) {
    }

    private GroupMetadataCodec() {
    }

    static byte[] key(String groupId) {
        byte[] g = groupId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + g.length).putShort(OffsetRecordCodec.GROUP_METADATA_KEY_VERSION)
                .putShort((short) g.length).put(g).array();
    }

    /** The image of {@code group}: its generation, protocol, leader and members with their assignments. */
    static Image image(ClassicGroup group) {
        List<Member> members = new ArrayList<>();
        for (ClassicMember m : group.members.values()) {
            byte[] subscription = group.protocolName == null ? null : m.metadata(group.protocolName);
            members.add(new Member(m.memberId, m.groupInstanceId, m.clientId, m.clientHost, m.rebalanceTimeoutMs,
                    m.sessionTimeoutMs, subscription == null ? new byte[0] : subscription,
                    m.assignment == null ? new byte[0] : m.assignment));
        }
        return new Image(group.protocolType == null ? "" : group.protocolType, group.generationId, group.protocolName,
                group.leaderId, group.stateTimestampMs, members);
    }

    static byte[] value(Image image) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeShort(VALUE_VERSION);
            string(out, image.protocolType());
            out.writeInt(image.generation());
            string(out, image.protocol());
            string(out, image.leader());
            out.writeLong(image.stateTimestampMs());
            out.writeInt(image.members().size());
            for (Member m : image.members()) {
                string(out, m.memberId());
                string(out, m.groupInstanceId());
                string(out, m.clientId());
                string(out, m.clientHost());
                out.writeInt(m.rebalanceTimeoutMs());
                out.writeInt(m.sessionTimeoutMs());
                out.writeInt(m.subscription().length);
                out.write(m.subscription());
                out.writeInt(m.assignment().length);
                out.write(m.assignment());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    static Image decodeValue(byte[] value) throws OffsetRecordCodec.DecodeException {
        ByteBuffer b = ByteBuffer.wrap(value);
        try {
            short version = b.getShort();
            if (version < 0 || version > VALUE_VERSION) {
                throw new OffsetRecordCodec.DecodeException("group metadata value has unsupported version " + version);
            }
            String protocolType = string(b);
            int generation = b.getInt();
            String protocol = string(b);
            String leader = string(b);
            long timestamp = version >= 2 ? b.getLong() : -1;
            int count = b.getInt();
            if (count < 0 || count > b.remaining()) {
                throw new OffsetRecordCodec.DecodeException("group metadata value has a bad member count " + count);
            }
            List<Member> members = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String memberId = string(b);
                String instanceId = version >= 3 ? string(b) : null;
                String clientId = string(b);
                String clientHost = string(b);
                int rebalanceTimeout = version >= 1 ? b.getInt() : -1;
                int sessionTimeout = b.getInt();
                byte[] subscription = bytes(b);
                byte[] assignment = bytes(b);
                if (memberId == null || clientId == null || clientHost == null) {
                    throw new OffsetRecordCodec.DecodeException("group metadata member has a null id, client id or host");
                }
                members.add(new Member(memberId, instanceId, clientId, clientHost,
                        rebalanceTimeout < 0 ? sessionTimeout : rebalanceTimeout, sessionTimeout, subscription,
                        assignment));
            }
            if (protocolType == null) {
                throw new OffsetRecordCodec.DecodeException("group metadata value has a null protocol type");
            }
            return new Image(protocolType, generation, protocol, leader, timestamp, members);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new OffsetRecordCodec.DecodeException("group metadata value of " + value.length
                    + " bytes is truncated");
        }
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeShort(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }

    private static String string(ByteBuffer b) {
        short length = b.getShort();
        if (length < 0) {
            return null;
        }
        byte[] s = new byte[length];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer b) {
        int length = b.getInt();
        if (length < 0) {
            return new byte[0];
        }
        if (length > b.remaining()) {
            throw new BufferUnderflowException();
        }
        byte[] out = new byte[length];
        b.get(out);
        return out;
    }
}
