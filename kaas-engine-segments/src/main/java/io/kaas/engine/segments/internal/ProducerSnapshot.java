package io.kaas.engine.segments.internal;

import io.kaas.api.storage.AbortedTransaction;
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
 * The binary {@code producer-state.snapshot}: the idempotence window of every producer and the
 * transaction state (open transactions, aborted ranges: Kafka's {@code .txnindex} content) as they stood
 * before {@code offset}, written at roll and clean close. Recovery loads it and replays the batches
 * from {@code offset} on, so a retry is still recognised as a duplicate after a restart, even after
 * rolls, and the last stable offset and aborted ranges come back. Layout (big-endian): magic
 * {@code kPS1}, version (int16), offset (int64), producer count (int32), per producer: id (int64), epoch
 * (int16), batch count (int8), per batch first and last sequence (int32 each), base and last offset (int64
 * each), and from version 3 its last timestamp (int64) and the coordinator epoch of its last marker (int32);
 * then (version 2 on) the open-transaction count (int32), per open transaction producer id and
 * first offset (int64 each), the aborted-range count (int32), per range producer id, first and last offset
 * (int64 each); then CRC32C of everything before (int32). Versions 1 (no transaction state) and 2 (no last
 * timestamp or coordinator epoch: both load as -1) still load.
 */
final class ProducerSnapshot {
    private static final int MAGIC = 0x6B505331;
    private static final short VERSION = 3;

    /** A decoded snapshot. */
    record Loaded(long offset, Map<Long, ProducerWindows.Producer> producers, Map<Long, Long> openTransactions,
                  List<AbortedTransaction> abortedTransactions) {
    }

    private ProducerSnapshot() {
    }

    static byte[] encode(long offset, Map<Long, ProducerWindows.Producer> producers, Map<Long, Long> openTransactions,
                         List<AbortedTransaction> aborted) {
        int size = 4 + 2 + 8 + 4 + 4 + 4 + openTransactions.size() * 16 + 4 + aborted.size() * 24;
        for (ProducerWindows.Producer p : producers.values()) {
            size += 8 + 2 + 1 + p.batches().size() * 24 + 8 + 4;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(MAGIC).putShort(VERSION).putLong(offset).putInt(producers.size());
        for (Map.Entry<Long, ProducerWindows.Producer> e : producers.entrySet()) {
            ProducerWindows.Producer p = e.getValue();
            b.putLong(e.getKey()).putShort(p.epoch()).put((byte) p.batches().size());
            for (ProducerWindows.Batch m : p.batches()) {
                b.putInt(m.firstSeq()).putInt(m.lastSeq()).putLong(m.firstOffset()).putLong(m.lastOffset());
            }
            b.putLong(p.lastTimestamp()).putInt(p.coordinatorEpoch());
        }
        b.putInt(openTransactions.size());
        openTransactions.forEach((id, first) -> b.putLong(id).putLong(first));
        b.putInt(aborted.size());
        for (AbortedTransaction a : aborted) {
            b.putLong(a.producerId()).putLong(a.firstOffset()).putLong(a.lastOffset());
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
        if (stored != (int) crc(data, data.length - 4) || b.getInt() != MAGIC) {
            return Optional.empty();
        }
        short version = b.getShort();
        if (version < 1 || version > VERSION) {
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
                long lastTimestamp = version >= 3 ? b.getLong() : -1L;
                int coordinatorEpoch = version >= 3 ? b.getInt() : -1;
                out.put(id, new ProducerWindows.Producer(epoch, batches, lastTimestamp, coordinatorEpoch));
            }
            Map<Long, Long> open = new HashMap<>();
            List<AbortedTransaction> aborted = new ArrayList<>();
            if (version >= 2) {
                int opens = b.getInt();
                for (int i = 0; i < opens; i++) {
                    open.put(b.getLong(), b.getLong());
                }
                int ranges = b.getInt();
                for (int i = 0; i < ranges; i++) {
                    aborted.add(new AbortedTransaction(b.getLong(), b.getLong(), b.getLong()));
                }
            }
            return b.remaining() == 4 ? Optional.of(new Loaded(offset, out, open, aborted)) : Optional.empty();
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
