package io.kaas.engine.segments.internal;

import io.kaas.records.ProducerWindows;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The binary {@code producer-state.snapshot}: the idempotence window of every producer as it stood
 * before {@code offset}, written at roll and clean close. Recovery loads it and replays the batches
 * from {@code offset} on, so a retry is still recognised as a duplicate after a restart, even after
 * rolls. Layout (big-endian): magic {@code kPS1}, version (int16), offset (int64), producer count
 * (int32), per producer: id (int64), epoch (int16), batch count (int8), per batch first and last
 * sequence (int32 each), base and last offset (int64 each); then CRC32C of everything before (int32).
 */
final class ProducerSnapshot {
    private static final int MAGIC = 0x6B505331;
    private static final short VERSION = 1;

    /** A decoded snapshot. */
    record Loaded(long offset, Map<Long, ProducerWindows.Producer> producers) {
    }

    private ProducerSnapshot() {
    }

    static byte[] encode(long offset, Map<Long, ProducerWindows.Producer> producers) {
        int size = 4 + 2 + 8 + 4 + 4;
        for (ProducerWindows.Producer p : producers.values()) {
            size += 8 + 2 + 1 + p.batches().size() * 24;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(MAGIC).putShort(VERSION).putLong(offset).putInt(producers.size());
        for (Map.Entry<Long, ProducerWindows.Producer> e : producers.entrySet()) {
            ProducerWindows.Producer p = e.getValue();
            b.putLong(e.getKey()).putShort(p.epoch()).put((byte) p.batches().size());
            for (ProducerWindows.Batch m : p.batches()) {
                b.putInt(m.firstSeq()).putInt(m.lastSeq()).putLong(m.firstOffset()).putLong(m.lastOffset());
            }
        }
        b.putInt((int) crc(b.array(), b.position()));
        return b.array();
    }

    /** Decodes a snapshot, or empty if it is truncated, of another format or fails its CRC. */
    static Optional<Loaded> decode(byte[] data) {
        if (data.length < 22) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        int stored = b.getInt(data.length - 4);
        if (stored != (int) crc(data, data.length - 4) || b.getInt() != MAGIC || b.getShort() != VERSION) {
            return Optional.empty();
        }
        try {
            long offset = b.getLong();
            int count = b.getInt();
            Map<Long, ProducerWindows.Producer> out = new HashMap<>();
            for (int i = 0; i < count; i++) {
                long id = b.getLong();
                short epoch = b.getShort();
                int n = b.get();
                List<ProducerWindows.Batch> batches = new ArrayList<>(n);
                for (int j = 0; j < n; j++) {
                    batches.add(new ProducerWindows.Batch(b.getInt(), b.getInt(), b.getLong(), b.getLong()));
                }
                out.put(id, new ProducerWindows.Producer(epoch, batches));
            }
            return b.remaining() == 4 ? Optional.of(new Loaded(offset, out)) : Optional.empty();
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static long crc(byte[] data, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, 0, length);
        return crc.getValue();
    }
}
