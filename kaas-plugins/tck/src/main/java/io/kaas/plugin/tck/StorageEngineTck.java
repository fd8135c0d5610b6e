package io.kaas.plugin.tck;

import static io.kaas.plugin.tck.TestBatches.batch;
import static io.kaas.plugin.tck.TestBatches.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.RecordTooLargeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract every {@link io.kaas.api.storage.StorageEngine} passes: appends, reads, offsets,
 * DeleteRecords, durability across a restart and partition deletion. The optional parts (timestamp
 * lookups, log-append time, idempotence) come from its superclass {@link StorageEngineFeatureTck}, transactions
 * (last stable offset, aborted ranges) from {@link TransactionTck} and producer state (what
 * {@code producers()} lists, markers checked against the producer's epoch and coordinator epoch, idle producers
 * expired as {@code producer.id.expiration.ms} says) from {@link ProducerStateTck}; extend this class and implement
 * {@link #provider()}.
 *
 * <p>Each test uses fresh partitions in a fresh data directory, and runs in well under a second on
 * a reasonable engine (the producer-expiration cases wait for the engine's expiry pass, run every 20 ms there). Byte comparisons mask the partition leader epoch (see {@link #maskLeaderEpoch}).
 */
@Timeout(60)
public abstract class StorageEngineTck extends StorageEngineFeatureTck {

    @Test
    public void providerHasAStableNameAndTheCurrentSpiVersion() {
        assertThat(provider().name()).isNotBlank().isEqualTo(provider().name());
        assertThat(io.kaas.api.plugin.SpiVersion.isCompatible(provider().spiVersion())).isTrue();
    }

    @Test
    public void newPartitionIsEmpty() throws IOException {
        PartitionLog log = newPartition();
        assertThat(log.offsets()).isEqualTo(new LogOffsets(0, 0, 0));
        assertThat(log.read(0, 1024, 0, true).slices()).isEmpty();
    }

    @Test
    public void sizeInBytesIsTheBytesOfTheStoredBatches() throws IOException {
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        assertThat(log.sizeInBytes()).as("an empty partition").isZero();
        byte[] first = batch().records(3).valueSize(50).bytes();
        byte[] second = batch().records(1).valueSize(200).seed(1).bytes();
        append(log, ByteBuffer.wrap(first.clone()));
        assertThat(log.sizeInBytes()).isEqualTo(first.length);
        appendDurably(log, ByteBuffer.wrap(second.clone()));
        assertThat(log.sizeInBytes()).isEqualTo(first.length + second.length);
        if (supports(EngineCapability.PERSISTENCE)) {
            restart();
            assertThat(engine.openPartition(key, LogConfig.defaults()).sizeInBytes()).as("after a restart")
                    .isEqualTo(first.length + second.length);
        }
    }

    @Test
    public void anEngineThatPersistsNamesTheDirectoryItsDataIsIn() {
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine does not persist data");
        assertThat(engine.logDir()).as("logDir() of an engine that keeps its data on disk")
                .hasValueSatisfying(d -> assertThat(d.toAbsolutePath().normalize())
                        .startsWith(dataDir.toAbsolutePath().normalize()).isDirectory());
    }

    @Test
    public void openPartitionReturnsTheSameInstanceUntilDeleted() throws IOException {
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        assertThat(engine.openPartition(key, LogConfig.defaults())).isSameAs(log);
        assertThat(log.key()).isEqualTo(key);
    }

    @Test
    public void appendThenReadReturnsTheSameBytesAtTheAssignedOffsets() throws IOException {
        PartitionLog log = newPartition();
        byte[] sent = batch().records(3).valueSize(50).bytes();

        AppendResult result = append(log, ByteBuffer.wrap(sent.clone()));

        assertThat(result.baseOffset()).isZero();
        assertThat(result.lastOffset()).isEqualTo(2);
        assertThat(result.logStartOffset()).isZero();
        ReadResult read = log.read(0, 1024 * 1024, log.offsets().highWatermark(), true);
        assertThat(read.slices()).isNotEmpty();
        assertThat(maskLeaderEpoch(Slices.bytes(read))).isEqualTo(stored(sent, 0));
        assertThat(read.offsets().highWatermark()).isEqualTo(3);
    }

    @Test
    public void assignsOffsetsInOrderAndContiguouslyAcrossBatches() throws IOException {
        PartitionLog log = newPartition();
        List<byte[]> sent = new ArrayList<>();
        long next = 0;
        for (int records : new int[] {1, 5, 3}) {
            byte[] b = batch().records(records).seed(records).bytes();
            sent.add(b);
            AppendResult r = append(log, ByteBuffer.wrap(b.clone()));
            assertThat(r.baseOffset()).isEqualTo(next);
            assertThat(r.lastOffset()).isEqualTo(next + records - 1);
            next += records;
        }
        byte[] x = batch().records(2).seed(7).bytes();
        byte[] y = batch().records(4).seed(8).bytes();
        sent.add(x);
        sent.add(y);
        AppendResult multi = append(log, concat(ByteBuffer.wrap(x.clone()), ByteBuffer.wrap(y.clone())));
        assertThat(multi.baseOffset()).isEqualTo(9);
        assertThat(multi.lastOffset()).isEqualTo(14);

        assertThat(log.offsets().highWatermark()).isEqualTo(15);
        List<byte[]> read = readAll(log);
        assertThat(read).hasSize(5);
        long[] bases = {0, 1, 6, 9, 11};
        for (int i = 0; i < read.size(); i++) {
            assertThat(maskLeaderEpoch(read.get(i))).as("batch %d", i).isEqualTo(stored(sent.get(i), bases[i]));
        }
    }

    @Test
    public void concurrentAppendersAreAllAcknowledgedWithUniqueContiguousOffsets() throws Exception {
        PartitionLog log = newPartition();
        int threads = 8;
        int perThread = 40;
        record Sent(byte[] bytes, int records, AppendResult result) {
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Sent>>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    List<Sent> mine = new ArrayList<>();
                    List<CompletableFuture<AppendResult>> pending = new ArrayList<>();
                    List<byte[]> bytes = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        byte[] b = batch().records(1 + i % 3).seed(thread * 1000 + i).bytes();
                        bytes.add(b);
                        pending.add(log.append(produced(ByteBuffer.wrap(b.clone())), i % 2 == 0));
                    }
                    for (int i = 0; i < perThread; i++) {
                        mine.add(new Sent(bytes.get(i), 1 + i % 3, await(pending.get(i))));
                    }
                    return mine;
                }));
            }
            start.countDown();
            List<Sent> all = new ArrayList<>();
            for (Future<List<Sent>> f : futures) {
                all.addAll(f.get());
            }
            all.sort(Comparator.comparingLong(s -> s.result().baseOffset()));
            long next = 0;
            for (Sent s : all) {
                assertThat(s.result().baseOffset()).as("offsets are unique and contiguous").isEqualTo(next);
                assertThat(s.result().lastOffset()).isEqualTo(next + s.records() - 1);
                next += s.records();
            }
            assertThat(log.offsets().highWatermark()).isEqualTo(next);
            List<byte[]> read = readAll(log);
            assertThat(read).hasSize(all.size());
            for (int i = 0; i < all.size(); i++) {
                Sent s = all.get(i);
                assertThat(maskLeaderEpoch(read.get(i))).as("batch at %d", s.result().baseOffset())
                        .isEqualTo(stored(s.bytes(), s.result().baseOffset()));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    public void appendsWithinOneThreadAreAppliedInCallOrder() throws IOException {
        PartitionLog log = newPartition();
        List<CompletableFuture<AppendResult>> pending = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            pending.add(log.append(produced(batch().seed(i).build()), i % 3 == 0));
        }
        for (int i = 0; i < 20; i++) {
            assertThat(await(pending.get(i)).baseOffset()).isEqualTo(i);
        }
    }

    @Test
    public void readAtEveryOffsetInsideABatchReturnsTheContainingBatch() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(1).build());
        append(log, batch().records(4).build());
        append(log, batch().records(3).build());
        long[] containing = {0, 1, 1, 1, 1, 5, 5, 5};
        for (int offset = 0; offset < 8; offset++) {
            ReadResult r = log.read(offset, 1024 * 1024, 8, true);
            List<BatchHeader> headers = Slices.headers(r);
            assertThat(headers).as("read at %d", offset).isNotEmpty();
            assertThat(headers.get(0).baseOffset()).as("first batch of a read at %d", offset).isEqualTo(containing[offset]);
            assertThat(headers.get(headers.size() - 1).lastOffset()).isEqualTo(7);
        }
    }

    @Test
    public void readStopsBeforeTheBatchThatWouldPassMaxBytes() throws IOException {
        PartitionLog log = newPartition();
        int size = batch().records(2).build().remaining();
        for (int i = 0; i < 3; i++) {
            append(log, batch().records(2).seed(i).build());
        }
        assertThat(Slices.headers(log.read(0, 3 * size, 6, false))).hasSize(3);
        assertThat(Slices.headers(log.read(0, 3 * size - 1, 6, false))).hasSize(2);
        assertThat(Slices.headers(log.read(0, 2 * size, 6, false))).hasSize(2);
        assertThat(Slices.headers(log.read(2, size, 6, false))).hasSize(1).first()
                .extracting(BatchHeader::baseOffset).isEqualTo(2L);
    }

    @Test
    public void minOneBatchReturnsTheFirstBatchEvenPastMaxBytes() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(2).valueSize(500).build());
        append(log, batch().records(2).build());

        assertThat(Slices.headers(log.read(0, 1, 4, true))).hasSize(1);
        assertThat(Slices.headers(log.read(1, 0, 4, true))).hasSize(1);
        assertThat(log.read(0, 1, 4, false).slices()).isEmpty();
    }

    @Test
    public void readStopsBeforeAnyBatchStartingAtOrAfterMaxOffset() throws IOException {
        PartitionLog log = newPartition();
        for (int i = 0; i < 3; i++) {
            append(log, batch().records(2).seed(i).build());
        }
        assertThat(Slices.headers(log.read(0, 1 << 20, 2, true))).hasSize(1);
        assertThat(Slices.headers(log.read(0, 1 << 20, 3, true))).hasSize(2);
        assertThat(Slices.headers(log.read(0, 1 << 20, 4, true))).hasSize(2);
        assertThat(Slices.headers(log.read(0, 1 << 20, 6, true))).hasSize(3);
    }

    @Test
    public void readAtTheHighWatermarkReturnsNothing() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(3).build());
        ReadResult r = log.read(3, 1 << 20, 3, true);
        assertThat(r.slices()).isEmpty();
        assertThat(r.sizeInBytes()).isZero();
        assertThat(r.offsets().highWatermark()).isEqualTo(3);
    }

    @Test
    public void readAboveTheHighWatermarkIsOffsetOutOfRange() throws IOException {
        PartitionLog log = newPartition();
        assertThatThrownBy(() -> log.read(1, 1024, 1, true)).isInstanceOf(OffsetOutOfRangeException.class);
        append(log, batch().records(3).build());
        assertThatThrownBy(() -> log.read(4, 1024, 4, true)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> log.read(Long.MAX_VALUE, 1024, Long.MAX_VALUE, true))
                .isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    public void readBelowTheLogStartIsOffsetOutOfRange() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(3).build());
        append(log, batch().records(3).build());
        await(log.deleteRecordsBefore(4));
        assertThatThrownBy(() -> log.read(3, 1024, 6, true)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> log.read(0, 1024, 6, true)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> log.read(-1, 1024, 6, true)).isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    public void deleteRecordsBeforeMovesTheLogStartAndHidesEarlierBatches() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(2).build());
        append(log, batch().records(3).build());
        append(log, batch().records(1).build());

        assertThat(await(log.deleteRecordsBefore(3))).isEqualTo(3L);

        assertThat(log.offsets()).isEqualTo(new LogOffsets(3, 6, 6));
        List<BatchHeader> headers = Slices.headers(log.read(3, 1 << 20, 6, true));
        assertThat(headers).extracting(BatchHeader::baseOffset).containsExactly(2L, 5L);
        assertThat(append(log, batch().build()).logStartOffset()).isEqualTo(3);
    }

    @Test
    public void deleteRecordsBeforeNeverMovesTheLogStartBackwards() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(5).build());
        await(log.deleteRecordsBefore(3));
        Long result = await(log.deleteRecordsBefore(1));
        assertThat(log.offsets().logStartOffset()).isEqualTo(3);
        assertThat(result).as("the log start after the call").isEqualTo(3L);
    }

    @Test
    public void deleteRecordsAboveTheHighWatermarkIsOffsetOutOfRange() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(2).build());
        assertFailsWith(OffsetOutOfRangeException.class, () -> log.deleteRecordsBefore(3));
        assertThat(log.offsets().logStartOffset()).isZero();
    }

    @Test
    public void deleteRecordsUpToTheHighWatermarkEmptiesTheLogAndAppendsContinue() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(2).build());
        append(log, batch().records(2).build());
        assertThat(await(log.deleteRecordsBefore(4))).isEqualTo(4L);

        assertThat(log.offsets()).isEqualTo(new LogOffsets(4, 4, 4));
        assertThat(log.read(4, 1 << 20, 4, true).slices()).isEmpty();
        assertThat(append(log, batch().build()).baseOffset()).isEqualTo(4);
        assertThat(Slices.headers(log.read(4, 1 << 20, 5, true))).extracting(BatchHeader::baseOffset).containsExactly(4L);
    }

    @Test
    public void recordTooLargeStoresNothing() throws IOException {
        LogConfig small = withMaxMessageBytes(LogConfig.defaults(), 512);
        PartitionLog log = engine.openPartition(newKey(), small);
        ByteBuffer big = batch().records(2).valueSize(1000).build();
        ByteBuffer ok = batch().records(1).build();

        assertFailsWith(RecordTooLargeException.class, () -> log.append(produced(big.duplicate()), false));
        assertFailsWith(RecordTooLargeException.class, () -> log.append(produced(concat(ok, big)), true));

        assertThat(log.offsets()).isEqualTo(new LogOffsets(0, 0, 0));
        assertThat(log.read(0, 1 << 20, 1, true).slices()).isEmpty();
        assertThat(append(log, ok.duplicate()).baseOffset()).isZero();
    }

    @Test
    public void durableAppendCompletesOnlyWithTheDataReadable() throws IOException {
        PartitionLog log = newPartition();
        byte[] sent = batch().records(4).bytes();
        CompletableFuture<AppendResult> future = log.append(produced(ByteBuffer.wrap(sent.clone())), true);
        AppendResult result = await(future);

        assertThat(log.offsets().highWatermark()).isGreaterThan(result.lastOffset());
        assertThat(maskLeaderEpoch(Slices.bytes(log.read(0, 1 << 20, 4, true)))).isEqualTo(stored(sent, 0));
    }

    @Test
    public void nonDurableAppendIsReadableWhenItCompletes() throws IOException {
        PartitionLog log = newPartition();
        for (int i = 0; i < 10; i++) {
            AppendResult r = append(log, batch().seed(i).build());
            assertThat(Slices.headers(log.read(r.baseOffset(), 1 << 20, log.offsets().highWatermark(), true)))
                    .extracting(BatchHeader::baseOffset).containsExactly((long) i);
        }
    }

    @Test
    public void readsReturnSlicesOfTheDeclaredKind() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().records(3).build());
        List<LogSlice> slices = log.read(0, 1 << 20, 3, true).slices();
        assertThat(slices).isNotEmpty();
        if (supports(EngineCapability.FILE_SLICES)) {
            assertThat(slices).as("FILE_SLICES declared").anyMatch(FileSlice.class::isInstance);
        } else {
            assertThat(slices).as("FILE_SLICES not declared").allMatch(BufferSlice.class::isInstance);
        }
    }

    @Test
    public void restartKeepsEveryAcknowledgedBatchTheOffsetsAndTheLogStart() throws IOException {
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine does not persist data");
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            byte[] b = batch().records(1 + i % 2).seed(i).bytes();
            sent.add(b);
            await(log.append(produced(ByteBuffer.wrap(b.clone())), i % 2 == 0));
        }
        await(log.deleteRecordsBefore(2)); // batches at 0 [0], 1 [1-2], 3 [3], 4 [4-5], 6 [6], 7 [7-8]
        List<byte[]> before = readAll(log);

        restart();

        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertThat(reopened.offsets()).isEqualTo(new LogOffsets(2, 9, 9));
        List<byte[]> after = readAll(reopened);
        assertThat(after).hasSize(before.size()).hasSize(5);
        for (int i = 0; i < after.size(); i++) {
            assertThat(after.get(i)).isEqualTo(before.get(i));
        }
        assertThat(maskLeaderEpoch(after.get(4))).isEqualTo(stored(sent.get(5), 7));
        assertThatThrownBy(() -> reopened.read(0, 1024, 9, true)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(append(reopened, batch().build()).baseOffset()).isEqualTo(9);
    }

    @Test
    public void closePartitionKeepsEveryBatchForTheNextOpenAndRefusesLaterAppends() throws IOException {
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        byte[] first = batch().records(2).seed(1).bytes();
        byte[] second = batch().records(3).seed(2).bytes();
        append(log, ByteBuffer.wrap(first.clone()));
        appendDurably(log, ByteBuffer.wrap(second.clone()));

        engine.closePartition(key);
        engine.closePartition(key); // not open any more: a no-op
        engine.closePartition(newKey()); // never opened: a no-op

        assertFailsWith(io.kaas.api.storage.StorageException.class,
                () -> log.append(produced(ByteBuffer.wrap(batch().seed(3).bytes())), true));
        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertThat(reopened.offsets().highWatermark()).isEqualTo(5);
        assertThat(readAll(reopened)).extracting(EngineTckSupport::maskLeaderEpoch)
                .containsExactly(stored(first, 0), stored(second, 2));
        assertThat(append(reopened, ByteBuffer.wrap(batch().seed(4).bytes())).baseOffset()).isEqualTo(5);
    }

    @Test
    public void aClosedPartitionSurvivesARestart() throws IOException {
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine does not persist data");
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        byte[] sent = batch().records(4).seed(5).bytes();
        append(log, ByteBuffer.wrap(sent.clone())); // acks=1: the close makes it durable
        engine.closePartition(key);

        restart();

        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertThat(readAll(reopened)).extracting(EngineTckSupport::maskLeaderEpoch).containsExactly(stored(sent, 0));
    }

    @Test
    public void restartKeepsManyPartitionsApart() throws IOException {
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine does not persist data");
        UUID id = UUID.randomUUID();
        String topic = newKey().topic();
        for (int p = 0; p < 3; p++) {
            PartitionLog log = engine.openPartition(new PartitionKey(topic, id, p), LogConfig.defaults());
            for (int i = 0; i <= p; i++) {
                append(log, batch().records(2).seed(p).build());
            }
        }
        restart();
        for (int p = 0; p < 3; p++) {
            PartitionLog log = engine.openPartition(new PartitionKey(topic, id, p), LogConfig.defaults());
            assertThat(log.offsets().highWatermark()).as("partition %d", p).isEqualTo(2L * (p + 1));
            assertThat(readAll(log)).hasSize(p + 1);
        }
    }

    @Test
    public void deletePartitionRemovesEverything() throws IOException {
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        for (int i = 0; i < 3; i++) {
            append(log, batch().seed(i).build());
        }
        await(log.deleteRecordsBefore(1));

        engine.deletePartition(key);

        PartitionLog fresh = engine.openPartition(key, LogConfig.defaults());
        assertThat(fresh.offsets()).isEqualTo(new LogOffsets(0, 0, 0));
        assertThat(fresh.read(0, 1 << 20, 0, true).slices()).isEmpty();
        byte[] sent = batch().records(3).seed(9).bytes();
        assertThat(append(fresh, ByteBuffer.wrap(sent.clone())).baseOffset()).isZero();
        List<byte[]> read = readAll(fresh);
        assertThat(read).as("only the batch written after the deletion").hasSize(1);
        assertThat(maskLeaderEpoch(read.get(0))).isEqualTo(stored(sent, 0));
        if (supports(EngineCapability.PERSISTENCE)) {
            engine.deletePartition(key);
            restart();
            assertThat(engine.openPartition(key, LogConfig.defaults()).offsets()).isEqualTo(new LogOffsets(0, 0, 0));
        }
    }

    @Test
    public void deletingAPartitionThatDoesNotExistIsANoOp() throws IOException {
        engine.deletePartition(newKey());
    }

    @Test
    public void deletePartitionLeavesOtherPartitionsAlone() throws IOException {
        PartitionKey a = newKey();
        PartitionKey b = new PartitionKey(a.topic(), a.topicId(), 1);
        append(engine.openPartition(a, LogConfig.defaults()), batch().records(2).build());
        PartitionLog logB = engine.openPartition(b, LogConfig.defaults());
        append(logB, batch().records(2).build());

        engine.deletePartition(a);

        assertThat(logB.offsets().highWatermark()).isEqualTo(2);
        assertThat(readAll(logB)).hasSize(1);
    }

    @Test
    public void aPartitionRecreatedWithANewTopicIdStartsEmpty() throws IOException {
        PartitionKey old = newKey();
        append(engine.openPartition(old, LogConfig.defaults()), batch().records(3).build());
        engine.deletePartition(old);

        PartitionLog recreated = engine.openPartition(new PartitionKey(old.topic(), UUID.randomUUID(), 0),
                LogConfig.defaults());
        assertThat(recreated.offsets()).isEqualTo(new LogOffsets(0, 0, 0));
    }

    @Test
    public void aTopicIdNeverSeenBeforeStartsEmptyEvenIfTheNameHasDataFromARestart() throws IOException {
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine does not persist data");
        // The topic was deleted and re-created while this broker was down (another broker on the shared
        // volume did it, or the deletion never reached this engine): the old data must not resurface.
        PartitionKey old = newKey();
        append(engine.openPartition(old, LogConfig.defaults()), batch().records(3).build());
        restart();

        PartitionLog recreated = engine.openPartition(new PartitionKey(old.topic(), UUID.randomUUID(), 0),
                LogConfig.defaults());
        assertThat(recreated.offsets()).isEqualTo(new LogOffsets(0, 0, 0));
        assertThat(recreated.read(0, 1 << 20, 0, true).slices()).isEmpty();
    }

    @Test
    public void everyEntryTheEngineKeepsInTheDataDirectoryBesideTopicsIsAReservedName() throws IOException {
        // The broker refuses topics of these names, so no topic can be named as the engine's own files.
        appendDurably(newPartition(), batch().records(2).build());
        Set<String> reserved = provider().reservedNames();
        try (Stream<Path> entries = Files.list(dataDir)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String name = entry.getFileName().toString();
                if (!name.startsWith("tck-topic-")) {
                    assertThat(reserved).as("the engine keeps %s in the data directory but does not list it in reservedNames()",
                            entry).contains(name);
                }
            }
        }
    }
}
