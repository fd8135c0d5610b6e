package io.kaas.engine.rocksdb.internal;

import io.kaas.records.ProducerWindows;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The value a producer's idempotence window is stored under in {@code meta} (key {@link Keys#producer}):
 * epoch (int16), batch count (int8), per batch first and last sequence (int32 each), first and last
 * offset (int64 each), then (version 2) the last timestamp (int64) and the coordinator epoch of the producer's
 * last marker (int32), big-endian. A version-1 value ends after the batches; its timestamp and coordinator epoch
 * load as -1.
 */
final class StoredProducers {
    private StoredProducers() {
    }

    static byte[] encode(ProducerWindows.Producer producer) {
        List<ProducerWindows.Batch> batches = producer.batches();
        ByteBuffer b = ByteBuffer.allocate(3 + batches.size() * 24 + 12).putShort(producer.epoch())
                .put((byte) batches.size());
        for (ProducerWindows.Batch e : batches) {
            b.putInt(e.firstSeq()).putInt(e.lastSeq()).putLong(e.firstOffset()).putLong(e.lastOffset());
        }
        b.putLong(producer.lastTimestamp()).putInt(producer.coordinatorEpoch());
        return b.array();
    }

    static ProducerWindows.Producer decode(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        short epoch = b.getShort();
        int n = b.get();
        List<ProducerWindows.Batch> batches = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            batches.add(new ProducerWindows.Batch(b.getInt(), b.getInt(), b.getLong(), b.getLong()));
        }
        if (b.remaining() < 12) {
            return new ProducerWindows.Producer(epoch, batches); // version 1
        }
        return new ProducerWindows.Producer(epoch, batches, b.getLong(), b.getInt());
    }
}
