package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.baseOffsets;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static io.kaas.engine.segments.internal.LogFixture.config;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogRecoveryTest {
    @TempDir
    Path dataDir;
    SegmentEngine engine;

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            engine.close();
        }
    }

    /** Appends {@code n} batches of 2 records and "crashes": the engine is dropped without close. */
    private List<Integer> appendAndCrash(int n, LogConfig config) throws IOException {
        SegmentEngine crashed = LogFixture.engine(dataDir);
        SegmentPartitionLog log = LogFixture.open(crashed, config);
        List<Integer> sizes = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            ByteBuffer b = batch().records(2).valueSize(40).build();
            sizes.add(b.remaining());
            append(log, b, true);
        }
        return sizes; // no close: the files stay as a crash leaves them
    }

    private SegmentPartitionLog reopen(LogConfig config) throws IOException {
        engine = LogFixture.engine(dataDir);
        return LogFixture.open(engine, config);
    }

    @Test
    void truncatesGarbageAppendedAfterTheLastBatch() throws IOException {
        appendAndCrash(5, LogConfig.defaults());
        Path log = lastLogFile();
        long clean = Files.size(log);
        Files.write(log, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17},
                StandardOpenOption.APPEND);

        SegmentPartitionLog reopened = reopen(LogConfig.defaults());

        assertThat(Files.size(log)).isEqualTo(clean);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(10);
        assertThat(baseOffsets(bytes(reopened.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false))))
                .containsExactly(0, 2, 4, 6, 8);
        assertThat(append(reopened, batch().build(), true).baseOffset()).isEqualTo(10);
    }

    @Test
    void truncatesABatchTornInTheMiddle() throws IOException {
        List<Integer> sizes = appendAndCrash(4, LogConfig.defaults());
        Path log = lastLogFile();
        long threeBatches = sizes.get(0) + sizes.get(1) + sizes.get(2);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.truncate(threeBatches + sizes.get(3) / 2);
        }

        SegmentPartitionLog reopened = reopen(LogConfig.defaults());

        assertThat(Files.size(log)).isEqualTo(threeBatches);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(6);
        assertThat(append(reopened, batch().build(), true).baseOffset()).isEqualTo(6);
        assertThat(baseOffsets(bytes(reopened.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false))))
                .containsExactly(0, 2, 4, 6);
    }

    @Test
    void truncatesFromACorruptCrcInTheMiddleOfTheLastSegment() throws IOException {
        List<Integer> sizes = appendAndCrash(5, LogConfig.defaults());
        Path log = lastLogFile();
        long secondBatch = sizes.get(0);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xFF}), secondBatch + 70); // inside the records: CRC mismatch
        }

        SegmentPartitionLog reopened = reopen(LogConfig.defaults());

        assertThat(Files.size(log)).isEqualTo(secondBatch);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(2);
        assertThat(append(reopened, batch().build(), true).baseOffset()).isEqualTo(2);
    }

    @Test
    void rebuildsAMissingIndexOfAClosedSegment() throws IOException {
        int size = batch().records(2).valueSize(40).build().remaining();
        // ~4 KiB index interval: make segments big enough to hold several index entries
        LogConfig config = config(40L * size);
        appendAndCrash(100, config);
        Path firstIndex;
        try (Stream<Path> s = Files.list(partitionDir())) {
            firstIndex = s.filter(p -> p.toString().endsWith(".index")).sorted().findFirst().orElseThrow();
        }
        long indexSize = Files.size(firstIndex);
        assertThat(indexSize).isGreaterThan(SegmentIndex.ENTRY_SIZE); // more than one entry
        Files.delete(firstIndex);

        SegmentPartitionLog reopened = reopen(config);

        assertThat(Files.size(firstIndex)).isEqualTo(indexSize);
        assertThat(baseOffsets(bytes(reopened.read(61, size, Long.MAX_VALUE, true)))).containsExactly(60);
        assertThat(baseOffsets(bytes(reopened.read(33, size, Long.MAX_VALUE, true)))).containsExactly(32);
    }

    @Test
    void rebuildsProducerStateFromTheLogOnReopen() throws IOException {
        SegmentEngine first = LogFixture.engine(dataDir);
        SegmentPartitionLog log = LogFixture.open(first, LogConfig.defaults());
        append(log, batch().records(2).producer(7, 3, 0).build(), true);
        append(log, batch().records(2).producer(7, 3, 2).build(), true);
        first.close();

        SegmentPartitionLog reopened = reopen(LogConfig.defaults());

        assertThat(append(reopened, batch().records(2).producer(7, 3, 2).build(), true).baseOffset()).isEqualTo(2);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(4);
        assertThat(append(reopened, batch().records(2).producer(7, 3, 4).build(), true).baseOffset()).isEqualTo(4);
    }

    @Test
    void aDirectoryOfAnEarlierTopicWithTheSameNameIsDiscarded() throws IOException {
        appendAndCrash(3, LogConfig.defaults());
        engine = LogFixture.engine(dataDir);
        PartitionKey recreated = new PartitionKey(LogFixture.KEY.topic(), UUID.randomUUID(), 0);

        SegmentPartitionLog log = (SegmentPartitionLog) engine.openPartition(recreated, LogConfig.defaults());

        assertThat(log.offsets().highWatermark()).isZero();
        assertThat(PartitionDirectory.readTopicId(partitionDir())).contains(recreated.topicId());
    }

    private Path partitionDir() {
        return dataDir.resolve("orders").resolve("0");
    }

    private Path lastLogFile() throws IOException {
        try (Stream<Path> s = Files.list(partitionDir())) {
            return s.filter(p -> p.toString().endsWith(".log")).sorted().reduce((a, b) -> b).orElseThrow();
        }
    }
}
