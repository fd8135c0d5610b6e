package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.group.OffsetManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The record format of {@code __transaction_state} (kaas's own; Kafka's is not needed since only the coordinator
 * reads it). One record per change of a transactional id; the last record of an id wins on load, a null value
 * (tombstone) removes the id. All integers big-endian; a string is an int byte length then UTF-8 (-1: null).
 *
 * <pre>
 * key   v0: int16 version (0), then the transactional id's UTF-8 bytes (the rest of the key)
 * value v0: int16 version (0)
 *           int64 producerId, int64 previousProducerId, int64 nextProducerId,
 *           int16 producerEpoch, int16 lastProducerEpoch, int32 timeoutMs,
 *           int8  state (0 Empty, 1 Ongoing, 2 PrepareCommit, 3 PrepareAbort, 4 CompleteCommit,
 *                        5 CompleteAbort, 6 Dead, 7 PrepareEpochFence: Kafka's state ids)
 *           int8  flags (bit 0: the last EndTxn used transactions V2)
 *           int64 startTimeMs, int64 lastUpdateMs
 *           int32 partition count, each: string topic, int32 partition
 *           int32 group count, each: string group id, int32 offset count,
 *                 each: string topic, int32 partition, int64 offset, int32 leaderEpoch, string metadata (nullable)
 * </pre>
 *
 * A record that does not decode raises {@link DecodeException} naming what is wrong; the loader logs it and keeps
 * the other records.
 */
final class TransactionRecordCodec {
    static final short KEY_VERSION = 0;
    static final short VALUE_VERSION = 0;
    private static final TransactionState[] STATES = {TransactionState.EMPTY, TransactionState.ONGOING,
        TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT, TransactionState.COMPLETE_COMMIT,
        TransactionState.COMPLETE_ABORT, TransactionState.DEAD, TransactionState.PREPARE_EPOCH_FENCE};

    /** A state record that cannot be decoded: an unknown version, a truncated field, a bad value. */
    static final class DecodeException extends IOException {
        DecodeException(String message) {
            super(message);
        }
    }

    private TransactionRecordCodec() {
    }

    /** The state's id in the format (Kafka's), from the table, not the enum order. */
    private static int stateId(TransactionState state) {
        for (int i = 0; i < STATES.length; i++) {
            if (STATES[i] == state) {
                return i;
            }
        }
        throw new IllegalArgumentException("no id for state " + state);
    }

    static byte[] key(String transactionalId) {
        byte[] id = transactionalId.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[2 + id.length];
        key[0] = (byte) (KEY_VERSION >> 8);
        key[1] = (byte) KEY_VERSION;
        System.arraycopy(id, 0, key, 2, id.length);
        return key;
    }

    static String decodeKey(byte[] key) throws DecodeException {
        if (key == null || key.length < 2) {
            throw new DecodeException("state record key of " + (key == null ? "null" : key.length + " bytes")
                    + " has no version");
        }
        short version = (short) (((key[0] & 0xFF) << 8) | (key[1] & 0xFF));
        if (version != KEY_VERSION) {
            throw new DecodeException("state record key has unknown version " + version);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(key, 2, key.length - 2)).toString();
        } catch (CharacterCodingException e) {
            throw new DecodeException("state record key is not UTF-8");
        }
    }

    static byte[] value(TransactionImage image) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeShort(VALUE_VERSION);
            out.writeLong(image.producerId());
            out.writeLong(image.previousProducerId());
            out.writeLong(image.nextProducerId());
            out.writeShort(image.producerEpoch());
            out.writeShort(image.lastProducerEpoch());
            out.writeInt(image.timeoutMs());
            out.writeByte(stateId(image.state()));
            out.writeByte(image.transactionV2() ? 1 : 0);
            out.writeLong(image.startTimeMs());
            out.writeLong(image.lastUpdateMs());
            out.writeInt(image.partitions().size());
            for (TopicPartitionRef tp : image.partitions()) {
                string(out, tp.topic());
                out.writeInt(tp.partition());
            }
            out.writeInt(image.groups().size());
            for (Map.Entry<String, Map<TopicPartitionRef, OffsetManager.Commit>> g : image.groups().entrySet()) {
                string(out, g.getKey());
                out.writeInt(g.getValue().size());
                for (OffsetManager.Commit c : g.getValue().values()) {
                    string(out, c.partition().topic());
                    out.writeInt(c.partition().partition());
                    out.writeLong(c.offset());
                    out.writeInt(c.leaderEpoch());
                    string(out, c.metadata());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    static TransactionImage decodeValue(byte[] value) throws DecodeException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(value));
        String field = "version";
        try {
            short version = in.readShort();
            if (version != VALUE_VERSION) {
                throw new DecodeException("state record value has unknown version " + version);
            }
            field = "producer ids";
            long producerId = in.readLong();
            long previous = in.readLong();
            long next = in.readLong();
            field = "epochs";
            short epoch = in.readShort();
            short lastEpoch = in.readShort();
            field = "timeout";
            int timeout = in.readInt();
            field = "state";
            int state = in.readUnsignedByte();
            if (state >= STATES.length) {
                throw new DecodeException("state record value has unknown state " + state);
            }
            int flags = in.readUnsignedByte();
            field = "timestamps";
            long start = in.readLong();
            long update = in.readLong();
            field = "partitions";
            int partitionCount = count(in, "partition");
            Set<TopicPartitionRef> partitions = new LinkedHashSet<>();
            for (int i = 0; i < partitionCount; i++) {
                partitions.add(partition(in));
            }
            field = "groups";
            int groupCount = count(in, "group");
            Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> groups = new LinkedHashMap<>();
            for (int i = 0; i < groupCount; i++) {
                String group = nonNullString(in, "group id");
                int offsets = count(in, "offset");
                Map<TopicPartitionRef, OffsetManager.Commit> pending = new LinkedHashMap<>();
                for (int j = 0; j < offsets; j++) {
                    TopicPartitionRef tp = partition(in);
                    pending.put(tp, new OffsetManager.Commit(tp, in.readLong(), in.readInt(), string(in)));
                }
                groups.put(group, pending);
            }
            if (in.available() > 0) {
                throw new DecodeException("state record value has " + in.available() + " bytes after its last field");
            }
            return new TransactionImage(producerId, previous, next, epoch, lastEpoch, timeout, STATES[state],
                    partitions, groups, start, update, (flags & 1) != 0);
        } catch (DecodeException e) {
            throw e;
        } catch (EOFException e) {
            throw new DecodeException("state record value of " + value.length + " bytes ends inside its " + field);
        } catch (IOException | IllegalArgumentException e) {
            throw new DecodeException("state record value has a bad " + field + ": " + e.getMessage());
        }
    }

    private static TopicPartitionRef partition(DataInputStream in) throws IOException {
        String topic = nonNullString(in, "topic");
        int partition = in.readInt();
        if (partition < 0) {
            throw new DecodeException("state record value has partition " + partition + " of topic " + topic);
        }
        return new TopicPartitionRef(topic, partition);
    }

    private static int count(DataInputStream in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new DecodeException("state record value announces " + n + " " + what + "s in " + in.available()
                    + " bytes");
        }
        return n;
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String nonNullString(DataInputStream in, String what) throws IOException {
        String s = string(in);
        if (s == null) {
            throw new DecodeException("state record value has a null " + what);
        }
        return s;
    }

    private static String string(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        if (n > in.available()) {
            throw new EOFException();
        }
        return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }
}
