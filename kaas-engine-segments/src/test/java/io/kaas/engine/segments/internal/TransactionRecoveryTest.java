package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import io.kaas.records.ProducerWindows;
import io.kaas.plugin.tck.TestBatches;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transaction state after a crash: the producer snapshot (written at roll) holds what came before it, and
 * recovery replays the log past it, control batches read for their type; without a snapshot, the whole log.
 */
class TransactionRecoveryTest {
    private static final long P1 = 11L;
    private static final long P2 = 12L;

    @TempDir
    Path dataDir;
    SegmentEngine engine;

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            engine.close();
        }
    }

    private static ByteBuffer txn(long producerId) {
        return TestBatches.batch().records(2).valueSize(40).producer(producerId, 0, -1).transactional().build();
    }

    private static ByteBuffer marker(long producerId, boolean commit) {
        return TestBatches.controlMarker(producerId, 0, commit).build();
    }

    /**
     * Appends three transactions of two producers (offsets in the comments) to small segments, so that they roll in the
     * middle (small segment.bytes), then the engine is dropped without close, as a crash leaves it.
     */
    private LogConfig crashWithTransactions() throws IOException {
        LogConfig config = config(3L * txn(P1).remaining());
        SegmentEngine crashed = LogFixture.engine(dataDir);
        SegmentPartitionLog log = LogFixture.open(crashed, config);
        append(log, txn(P1), true);               // 0-1
        append(log, txn(P2), true);               // 2-3
        append(log, marker(P1, false), true);     // 4: P1 aborted [0, 4]
        append(log, txn(P1), true);               // 5-6 (a roll happened before or here)
        append(log, marker(P2, true), true);      // 7: P2 committed
        append(log, txn(P2), true);               // 8-9
        append(log, marker(P1, false), true);     // 10: P1 aborted [5, 10]; P2 open from 8
        assertThat(log.state.segments()).as("the appends rolled segments").hasSizeGreaterThan(1);
        assertThat(log.offsets().lastStableOffset()).isEqualTo(8);
        return config; // no close
    }

    private static final List<AbortedTransaction> ABORTED = List.of(new AbortedTransaction(P1, 0, 4),
            new AbortedTransaction(P1, 5, 10));

    @Test
    void recoveryReplaysTransactionsPastTheSnapshot() throws IOException {
        LogConfig config = crashWithTransactions();
        assertThat(dataDir.resolve("orders/0").resolve(PartitionDirectory.PRODUCER_SNAPSHOT_FILE)).exists();

        engine = LogFixture.engine(dataDir);
        SegmentPartitionLog reopened = LogFixture.open(engine, config);

        assertThat(reopened.recovery().cleanShutdown()).isFalse();
        assertThat(reopened.offsets().highWatermark()).isEqualTo(11);
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(8);
        assertThat(reopened.abortedTransactions(0, 11)).isEqualTo(ABORTED);
    }

    @Test
    void withoutASnapshotRecoveryRebuildsTransactionsFromTheWholeLog() throws IOException {
        LogConfig config = crashWithTransactions();
        Files.delete(dataDir.resolve("orders/0").resolve(PartitionDirectory.PRODUCER_SNAPSHOT_FILE));

        engine = LogFixture.engine(dataDir);
        SegmentPartitionLog reopened = LogFixture.open(engine, config);

        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(8);
        assertThat(reopened.abortedTransactions(0, 11)).isEqualTo(ABORTED);
        append(reopened, marker(P2, false), true); // 11
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(12);
        assertThat(reopened.abortedTransactions(9, 12)).containsExactly(new AbortedTransaction(P1, 5, 10),
                new AbortedTransaction(P2, 8, 11));
    }

    @Test
    void aVersionOneSnapshotStillLoadsWithNoTransactionState() {
        byte[] v2 = ProducerSnapshot.encode(5, Map.of(), Map.of(P1, 3L), List.of(new AbortedTransaction(P2, 0, 2)));
        ProducerSnapshot.Loaded loaded = ProducerSnapshot.decode(v2).orElseThrow();
        assertThat(loaded.openTransactions()).containsExactly(Map.entry(P1, 3L));
        assertThat(loaded.abortedTransactions()).containsExactly(new AbortedTransaction(P2, 0, 2));

        ByteBuffer v1 = ByteBuffer.allocate(4 + 2 + 8 + 4 + 4).putInt(0x6B505331).putShort((short) 1).putLong(5).putInt(0);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(v1.array(), 0, v1.position());
        v1.putInt((int) crc.getValue());
        ProducerSnapshot.Loaded old = ProducerSnapshot.decode(v1.array()).orElseThrow();
        assertThat(old.offset()).isEqualTo(5);
        assertThat(old.openTransactions()).isEmpty();
        assertThat(old.abortedTransactions()).isEmpty();
    }

    /** Producer P1's transactions with coordinator epoch 3 and a Transactions V2 epoch bump, rolled, then a crash. */
    private LogConfig crashWithProducerState() throws IOException {
        LogConfig config = config(3L * txn(P1).remaining());
        SegmentEngine crashed = LogFixture.engine(dataDir);
        SegmentPartitionLog log = LogFixture.open(crashed, config);
        append(log, TestBatches.batch().records(2).producer(P1, 0, 0).transactional().build(), true); // 0-1
        append(log, TestBatches.controlMarker(P1, 1, true).coordinatorEpoch(3).timestamps(7_000, 0).build(), true); // 2
        append(log, TestBatches.batch().records(2).valueSize(40).producer(P2, 4, 0).build(), true);    // 3-4
        append(log, TestBatches.batch().records(2).valueSize(40).producer(P2, 4, 2).build(), true);    // 5-6
        append(log, TestBatches.batch().records(3).producer(P1, 1, 0).transactional().build(), true); // 7-9: open
        assertThat(log.state.segments()).as("the appends rolled segments").hasSizeGreaterThan(1);
        return config; // no close
    }

    private static final List<ProducerState> PRODUCERS = List.of(new ProducerState(P1, 1, 2, 1_002, 3, 7),
            new ProducerState(P2, 4, 3, 1_001, -1, -1));

    @Test
    void producerStateSurvivesACrashWithAndWithoutTheSnapshot() throws IOException {
        LogConfig config = crashWithProducerState();
        engine = LogFixture.engine(dataDir);
        SegmentPartitionLog reopened = LogFixture.open(engine, config);
        assertThat(reopened.recovery().cleanShutdown()).isFalse();
        assertThat(reopened.producers()).isEqualTo(PRODUCERS);
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(7);
        ByteBuffer zombie = TestBatches.controlMarker(P1, 1, true).coordinatorEpoch(2).build();
        Throwable refused = LogFixture.join(reopened.append(io.kaas.api.record.ProducedBatches.validate(zombie), true)
                .handle((r, e) -> e));
        assertThat(refused).isInstanceOf(TransactionCoordinatorFencedException.class);
        engine.close();

        Files.delete(dataDir.resolve("orders/0").resolve(PartitionDirectory.PRODUCER_SNAPSHOT_FILE));
        engine = LogFixture.engine(dataDir);
        assertThat(LogFixture.open(engine, config).producers()).as("rebuilt from the whole log").isEqualTo(PRODUCERS);
    }

    @Test
    void aVersionTwoSnapshotLoadsItsProducersWithoutTimestampOrCoordinatorEpoch() {
        ByteBuffer v2 = ByteBuffer.allocate(4 + 2 + 8 + 4 + (8 + 2 + 1 + 24) + 4 + 16 + 4 + 4).putInt(0x6B505331)
                .putShort((short) 2).putLong(9).putInt(1)
                .putLong(P1).putShort((short) 2).put((byte) 1).putInt(0).putInt(4).putLong(3).putLong(7)
                .putInt(1).putLong(P1).putLong(3)
                .putInt(0);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(v2.array(), 0, v2.position());
        v2.putInt((int) crc.getValue());
        ProducerSnapshot.Loaded loaded = ProducerSnapshot.decode(v2.array()).orElseThrow();
        assertThat(loaded.producers()).containsExactly(Map.entry(P1, new ProducerWindows.Producer((short) 2,
                List.of(new ProducerWindows.Batch(0, 4, 3, 7)), -1, -1)));
        assertThat(loaded.openTransactions()).containsExactly(Map.entry(P1, 3L));

        byte[] v3 = ProducerSnapshot.encode(9, loaded.producers(), loaded.openTransactions(), List.of());
        assertThat(ProducerSnapshot.decode(v3).orElseThrow().producers()).isEqualTo(loaded.producers());
        Map<Long, ProducerWindows.Producer> withMarker = Map.of(P1, new ProducerWindows.Producer((short) 3, List.of(),
                12_345, 8));
        assertThat(ProducerSnapshot.decode(ProducerSnapshot.encode(9, withMarker, Map.of(), List.of())).orElseThrow()
                .producers()).isEqualTo(withMarker);
    }
}
