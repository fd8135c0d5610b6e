package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.ReadResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writing and reading a partition of ~200 MB (64 MB segments) keeps the heap flat: the engine never loads a log
 * into memory (reads are file regions; indexes are sparse). {@code -Dkaas.flatmemory.mb=3072} runs the same check
 * over several GB (not in the default suite: it takes minutes and disk).
 */
class FlatMemoryTest {
    private static final int BATCH_BYTES = 1024 * 1024;
    private static final int BATCHES = Integer.getInteger("kaas.flatmemory.mb", 200);
    private static final long BOUND = 24L * 1024 * 1024;

    @TempDir
    Path dataDir;

    @Test
    void heapAfterGcStaysFlatWhileWritingAndReadingTheWholePartition() throws IOException {
        ByteBuffer template = TestBatches.batch().records(16).valueSize(BATCH_BYTES / 16 - 32).build();
        long baseline;
        try (SegmentEngine engine = LogFixture.engine(dataDir)) {
            SegmentPartitionLog log = LogFixture.open(engine, LogFixture.config(64L * 1024 * 1024));
            baseline = heapAfterGc();
            for (int i = 0; i < BATCHES; i++) {
                append(log, template.duplicate(), i % 50 == 49);
            }
            long afterWrite = heapAfterGc();
            ByteBuffer sink = ByteBuffer.allocateDirect(256 * 1024);
            long offset = 0;
            long bytes = 0;
            while (offset < log.offsets().highWatermark()) {
                ReadResult r = log.read(offset, 4 * 1024 * 1024, Long.MAX_VALUE, true);
                for (LogSlice s : r.slices()) {
                    FileSlice f = (FileSlice) s;
                    long pos = f.position();
                    long end = pos + f.sizeInBytes();
                    while (pos < end) {
                        sink.clear().limit((int) Math.min(sink.capacity(), end - pos));
                        pos += f.channel().read(sink, pos);
                    }
                    bytes += f.sizeInBytes();
                    ByteBuffer head = ByteBuffer.allocate(RecordBatches.HEADER_SIZE);
                    f.channel().read(head, end - template.remaining());
                    offset = head.getLong(RecordBatches.BASE_OFFSET) + head.getInt(RecordBatches.LAST_OFFSET_DELTA) + 1;
                }
            }
            long afterRead = heapAfterGc();
            assertThat(bytes).isEqualTo((long) BATCHES * template.remaining());
            assertThat(afterWrite - baseline).as("heap growth after writing %d MB", BATCHES).isLessThan(BOUND);
            assertThat(afterRead - baseline).as("heap growth after reading %d MB", BATCHES).isLessThan(BOUND);
        }
    }

    private static long heapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }
}
