package io.kaas.plugin.tck;

import static io.kaas.plugin.tck.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.EpochStart;
import io.kaas.api.storage.FencedLeaderEpochException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.StorageEngine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of an engine whose provider declares {@link io.kaas.api.storage.StorageEngineProvider#sharedVolume()}
 * (skipped for the others): several engines ("brokers") over one data directory, each opening a partition at the
 * leader epoch it was assigned ({@link StorageEngine#openPartition(PartitionKey, LogConfig, int)}). A higher epoch
 * takes over where the data ends and records that start in {@link PartitionLog#epochs()}; a lower one is refused with
 * {@link FencedLeaderEpochException}; a writer that keeps appending after it was taken over (a paused broker that
 * resumed) is never served, and while its {@link io.kaas.api.storage.PartitionFence} says no it deletes nothing.
 */
public abstract class SharedVolumeTck extends EngineTckSupport {
    private final List<StorageEngine> brokers = new ArrayList<>();

    /** Skips the calling test unless the engine shares a volume. */
    private void onlyForSharedVolumes() {
        assumeTrue(provider().sharedVolume(), "the engine does not share a volume");
    }

    @AfterEach
    final void closeBrokers() throws IOException {
        for (StorageEngine b : brokers) {
            b.close();
        }
        brokers.clear();
    }

    /** Another engine over the same data directory, as broker {@code id}, writing while {@code owns} is true. */
    protected StorageEngine broker(int id, AtomicBoolean owns) throws IOException {
        StorageEngine e = provider().open(new EngineContext(dataDir, config(), id, clock(), ProducerExpiration.KAFKA_DEFAULTS,
                (key, epoch) -> owns.get()));
        brokers.add(e);
        return e;
    }

    protected StorageEngine broker(int id) throws IOException {
        return broker(id, new AtomicBoolean(true));
    }

    private static byte[] batchOf(int seed) {
        return batch().records(2).valueSize(40).seed(seed).bytes();
    }

    private static List<byte[]> masked(List<byte[]> batches) {
        return batches.stream().map(EngineTckSupport::maskLeaderEpoch).toList();
    }

    @Test
    public void aTakeoverContinuesTheOffsetsAndRecordsWhereItsEpochStarts() throws IOException {
        onlyForSharedVolumes();
        PartitionKey key = newKey();
        PartitionLog a = broker(1).openPartition(key, LogConfig.defaults(), 1);
        appendDurably(a, ByteBuffer.wrap(batchOf(1)));
        appendDurably(a, ByteBuffer.wrap(batchOf(2)));
        assertThat(a.leaderEpoch()).isEqualTo(1);

        PartitionLog b = broker(2).openPartition(key, LogConfig.defaults(), 2);

        assertThat(b.leaderEpoch()).isEqualTo(2);
        assertThat(b.offsets().highWatermark()).isEqualTo(4);
        assertThat(b.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 4));
        assertThat(appendDurably(b, ByteBuffer.wrap(batchOf(3))).baseOffset()).isEqualTo(4);
        assertThat(masked(readAll(b))).containsExactly(stored(batchOf(1), 0), stored(batchOf(2), 2), stored(batchOf(3), 4));
    }

    @Test
    public void anOpenAtALowerEpochThanThePartitionWasWrittenAtIsRefused() throws IOException {
        onlyForSharedVolumes();
        PartitionKey key = newKey();
        StorageEngine first = broker(1);
        PartitionLog b = first.openPartition(key, LogConfig.defaults(), 3);
        appendDurably(b, ByteBuffer.wrap(batchOf(1)));
        StorageEngine other = broker(2);

        assertThatThrownBy(() -> other.openPartition(key, LogConfig.defaults(), 2)).isInstanceOf(FencedLeaderEpochException.class);
        assertThatThrownBy(() -> first.openPartition(key, LogConfig.defaults(), 2)).isInstanceOf(FencedLeaderEpochException.class);
        assertThat(first.openPartition(key, LogConfig.defaults(), 3)).isSameAs(b);
        assertThat(masked(readAll(b))).containsExactly(stored(batchOf(1), 0));
    }

    @Test
    public void aWriterTakenOverWhilePausedIsNeverServedWhatItAppendsLaterAndDeletesNothing() throws IOException {
        onlyForSharedVolumes();
        PartitionKey key = newKey();
        AtomicBoolean aOwns = new AtomicBoolean(true);
        PartitionLog a = broker(1, aOwns).openPartition(key, LogConfig.defaults(), 1);
        for (int i = 0; i < 3; i++) {
            appendDurably(a, ByteBuffer.wrap(batchOf(i)));
        }
        PartitionLog b = broker(2).openPartition(key, LogConfig.defaults(), 2); // A was not closed: it is paused

        aOwns.set(false); // A resumes, its lease gone, with appends and a DeleteRecords in flight
        for (int i = 0; i < 3; i++) {
            try {
                appendDurably(a, ByteBuffer.wrap(batchOf(100 + i)));
            } catch (RuntimeException | AssertionError refused) {
                // an engine may refuse them: either way they must never be served
            }
        }
        try {
            await(a.deleteRecordsBefore(4));
        } catch (RuntimeException | AssertionError refused) {
            // refused by the fence: expected
        }
        appendDurably(b, ByteBuffer.wrap(batchOf(10)));

        List<byte[]> expected = List.of(stored(batchOf(0), 0), stored(batchOf(1), 2), stored(batchOf(2), 4),
                stored(batchOf(10), 6));
        assertThat(masked(readAll(b))).containsExactlyElementsOf(expected);
        PartitionLog c = broker(3).openPartition(key, LogConfig.defaults(), 3); // B "crashed": never closed
        assertThat(c.offsets().logStartOffset()).isZero();
        assertThat(masked(readAll(c))).containsExactlyElementsOf(expected);
        assertThat(c.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 6), new EpochStart(3, 8));
    }

    @Test
    public void epochsListsEveryTakeoverOldestFirst() throws IOException {
        onlyForSharedVolumes();
        PartitionKey key = newKey();
        PartitionLog log = null;
        for (int epoch = 1; epoch <= 3; epoch++) {
            log = broker(epoch).openPartition(key, LogConfig.defaults(), epoch * 2);
            appendDurably(log, ByteBuffer.wrap(batchOf(epoch)));
        }
        assertThat(log.leaderEpoch()).isEqualTo(6);
        assertThat(log.epochs()).containsExactly(new EpochStart(2, 0), new EpochStart(4, 2), new EpochStart(6, 4));
    }

    @Test
    public void openingAtTheOpenEpochReturnsTheLogAndAHigherEpochReopensIt() throws IOException {
        onlyForSharedVolumes();
        PartitionKey key = newKey();
        StorageEngine engine = broker(1);
        PartitionLog at1 = engine.openPartition(key, LogConfig.defaults(), 1);
        appendDurably(at1, ByteBuffer.wrap(batchOf(1)));
        assertThat(engine.openPartition(key, LogConfig.defaults(), 1)).isSameAs(at1);

        PartitionLog at5 = engine.openPartition(key, LogConfig.defaults(), 5);

        assertThat(at5.leaderEpoch()).isEqualTo(5);
        assertThat(at5.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(5, 2));
        assertThat(appendDurably(at5, ByteBuffer.wrap(batchOf(2))).baseOffset()).isEqualTo(2);
    }

    @Test
    public void aClosedPartitionOpensOnAnotherBrokerWithEverythingItHeld() throws IOException {
        onlyForSharedVolumes();
        PartitionKey key = newKey();
        StorageEngine first = broker(1);
        PartitionLog a = first.openPartition(key, LogConfig.defaults(), 1);
        append(a, ByteBuffer.wrap(batchOf(1))); // acks=1: the close makes it durable
        appendDurably(a, ByteBuffer.wrap(batchOf(2)));
        first.closePartition(key);

        PartitionLog b = broker(2).openPartition(key, LogConfig.defaults(), 2);

        assertThat(masked(readAll(b))).containsExactly(stored(batchOf(1), 0), stored(batchOf(2), 2));
        assertThat(b.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 4));
    }
}
