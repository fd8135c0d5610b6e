package io.kaas.benchmarks.jmh;

import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/** v2 record batches as a producer would send them, built by kafka-clients. */
final class Batches {
    private Batches() {
    }

    static ByteBuffer batch(int records, int recordSize) {
        Random random = new Random(7);
        SimpleRecord[] r = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            byte[] value = new byte[recordSize];
            random.nextBytes(value);
            r[i] = new SimpleRecord(System.currentTimeMillis(), null, value);
        }
        return MemoryRecords.withRecords(Compression.NONE, r).buffer();
    }
}
