package io.kaas.plugin.tck;

import static io.kaas.plugin.tck.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.InvalidRecordException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.OutOfOrderSequenceException;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.api.storage.UnsupportedFeatureException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The optional parts of the engine contract, each gated by an {@link EngineCapability}: timestamp
 * lookups, idempotent producers and log-append time. Not extended directly: extend
 * {@link StorageEngineTck}, which inherits these tests.
 */
public abstract class StorageEngineFeatureTck extends TransactionTck {
    private static final long PRODUCER = 4_242L;

    // ---- timestamps ------------------------------------------------------------------------------

    /** Offsets 0-2 at 1000/1005/1010, 3-4 at 1020/1030, 5-7 at 1100/1050/1100. */
    private PartitionLog logWithTimestamps() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().timestamps(1000, 0, 5, 10).build());
        append(log, batch().timestamps(1020, 0, 10).build());
        append(log, batch().timestamps(1100, 0, -50, 0).build());
        return log;
    }

    @Test
    public void offsetForTimestampFindsTheFirstRecordAtOrAfterTheTimestamp() throws IOException {
        PartitionLog log = logWithTimestamps();
        if (!supports(EngineCapability.TIMESTAMP_INDEX)) {
            assertThatThrownBy(() -> log.offsetForTimestamp(1000)).isInstanceOf(UnsupportedFeatureException.class);
            return;
        }
        assertLookup(log, 0, 1000, 0);
        assertLookup(log, 1000, 1000, 0);
        assertLookup(log, 1001, 1005, 1);
        assertLookup(log, 1010, 1010, 2);
        assertLookup(log, 1011, 1020, 3);
        assertLookup(log, 1025, 1030, 4);
        assertLookup(log, 1031, 1100, 5);
        assertLookup(log, 1100, 1100, 5);
        assertThat(log.offsetForTimestamp(1101)).isEmpty();
    }

    @Test
    public void offsetForTimestampIgnoresRecordsBelowTheLogStart() throws IOException {
        assumeTrue(supports(EngineCapability.TIMESTAMP_INDEX), "no timestamp lookups");
        PartitionLog log = logWithTimestamps();
        await(log.deleteRecordsBefore(1));
        assertLookup(log, 0, 1005, 1);
        await(log.deleteRecordsBefore(6));
        assertLookup(log, 1031, 1050, 6);
    }

    @Test
    public void offsetForTimestampOnAnEmptyLogIsEmpty() throws IOException {
        assumeTrue(supports(EngineCapability.TIMESTAMP_INDEX), "no timestamp lookups");
        PartitionLog log = newPartition();
        assertThat(log.offsetForTimestamp(0)).isEmpty();
        assertThat(log.maxTimestamp()).isEmpty();
    }

    /**
     * Kafka answers a lookup into a compressed batch with the exact record, not the batch: the engine
     * has to look inside the (here really gzip-compressed) records. Offsets 0-1 at 1000/1001, then one
     * gzip batch with offsets 2-6 at 2000/2005/2010/2003/2010.
     */
    @Test
    public void offsetForTimestampInACompressedBatchFindsTheExactRecord() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().timestamps(1000, 0, 1).build());
        append(log, batch().timestamps(2000, 0, 5, 10, 3, 10).gzip().build());
        if (!supports(EngineCapability.TIMESTAMP_INDEX)) {
            assertThatThrownBy(() -> log.offsetForTimestamp(2004)).isInstanceOf(UnsupportedFeatureException.class);
            return;
        }
        assertLookup(log, 1500, 2000, 2);
        assertLookup(log, 2001, 2005, 3);
        assertLookup(log, 2005, 2005, 3);
        assertLookup(log, 2006, 2010, 4);
        assertThat(log.offsetForTimestamp(2011)).isEmpty();

        Optional<TimestampOffset> max = log.maxTimestamp();
        assertThat(max).as("max timestamp: the first record with the largest").isPresent();
        assertThat(max.get().timestamp()).isEqualTo(2010);
        assertThat(max.get().offset()).isEqualTo(4);
    }

    @Test
    public void maxTimestampIsTheFirstRecordWithTheLargestTimestamp() throws IOException {
        PartitionLog log = logWithTimestamps();
        if (!supports(EngineCapability.TIMESTAMP_INDEX)) {
            assertThatThrownBy(log::maxTimestamp).isInstanceOf(UnsupportedFeatureException.class);
            return;
        }
        Optional<TimestampOffset> max = log.maxTimestamp();
        assertThat(max).isPresent();
        assertThat(max.get().timestamp()).isEqualTo(1100);
        assertThat(max.get().offset()).isEqualTo(5);
    }

    private static void assertLookup(PartitionLog log, long target, long timestamp, long offset) {
        Optional<TimestampOffset> found = log.offsetForTimestamp(target);
        assertThat(found).as("lookup of %d", target).isPresent();
        assertThat(found.get().offset()).as("offset found for %d", target).isEqualTo(offset);
        assertThat(found.get().timestamp()).as("timestamp found for %d", target).isEqualTo(timestamp);
    }

    // ---- compaction ------------------------------------------------------------------------------

    private static LogConfig compacted(LogConfig c) {
        return c.withCleanup(true, false, c.deleteRetentionMs(), c.minCompactionLagMs(), c.maxCompactionLagMs(),
                c.minCleanableDirtyRatio());
    }

    @Test
    public void everyEngineServesTheDeletePolicy() {
        engine.checkConfig(LogConfig.defaults());
        engine.checkConfig(LogConfig.defaults().withCleanup(false, true, 0, 0, Long.MAX_VALUE, 0.5));
    }

    @Test
    public void compactionIsServedOrRefusedByCheckConfig() throws IOException {
        LogConfig compact = compacted(LogConfig.defaults());
        if (!supports(EngineCapability.COMPACTION)) {
            assertThatThrownBy(() -> engine.checkConfig(compact)).as("an engine that does not compact refuses compact")
                    .isInstanceOf(InvalidConfigException.class).hasMessageContaining("compact");
            assertThatThrownBy(() -> engine.checkConfig(compact.withCleanup(true, true, 0, 0, Long.MAX_VALUE, 0.5)))
                    .isInstanceOf(InvalidConfigException.class);
            return;
        }
        engine.checkConfig(compact);
        PartitionLog log = engine.openPartition(newKey(), compact);
        append(log, batch().build());
        assertFailsWith(InvalidRecordException.class, () -> log.append(produced(batch().withoutKeys().build()), false));
        assertThat(log.offsets().highWatermark()).as("the keyless batch is not stored").isEqualTo(batch().recordCount());
        InvalidRecordException mixed = assertFailsWith(InvalidRecordException.class, () -> log.append(produced(
                batch().record("a", "1").record(null, "2").record("b", "3").record(null, "4").build()), false));
        assertThat(mixed.recordErrors()).as("each keyless record, by its index in the batch (KIP-467)")
                .extracting(InvalidRecordException.RecordError::batchIndex).containsExactly(1, 3);
        assertThat(mixed.recordErrors()).allSatisfy(e -> assertThat(e.message())
                .startsWith("Compacted topic cannot accept message without key in topic partition "));
        assertThat(log.offsets().highWatermark()).as("nor is a batch with some keyless records").isEqualTo(batch().recordCount());
    }

    // ---- log-append time -------------------------------------------------------------------------

    @Test
    public void logAppendTimeStampsTheEngineClockOnEveryBatch() throws IOException {
        PartitionKey key = newKey();
        LogConfig config = withLogAppendTime(LogConfig.defaults());
        if (!supports(EngineCapability.LOG_APPEND_TIME)) {
            assertFailsWith(UnsupportedFeatureException.class,
                    () -> engine.openPartition(key, config).append(produced(batch().build()), false));
            return;
        }
        PartitionLog log = engine.openPartition(key, config);
        AppendResult result = append(log, batch().timestamps(5, 0, 1).build());

        assertThat(result.logAppendTime()).isEqualTo(CLOCK_MILLIS);
        List<BatchHeader> headers = Slices.headers(log.read(0, 1 << 20, 2, true)); // validates the new CRC
        assertThat(headers).hasSize(1);
        assertThat(headers.get(0).isLogAppendTime()).isTrue();
        assertThat(headers.get(0).maxTimestamp()).isEqualTo(CLOCK_MILLIS);
    }

    @Test
    public void createTimeAppendsReportNoLogAppendTime() throws IOException {
        AppendResult result = append(newPartition(), batch().build());
        assertThat(result.logAppendTime()).isEqualTo(-1);
    }

    // ---- idempotence -----------------------------------------------------------------------------

    private static ByteBuffer idempotent(int epoch, int sequence, int records) {
        return batch().records(records).producer(PRODUCER, epoch, sequence).seed(sequence).build();
    }

    @Test
    public void idempotentBatchesAreAcceptedInSequence() throws IOException {
        PartitionLog log = newPartition();
        if (!supports(EngineCapability.IDEMPOTENCE)) {
            assertFailsWith(UnsupportedFeatureException.class, () -> log.append(produced(idempotent(0, 0, 1)), false));
            assertThat(log.offsets().highWatermark()).isZero();
            return;
        }
        assertThat(append(log, idempotent(0, 0, 3)).baseOffset()).isZero();
        assertThat(append(log, batch().build()).baseOffset()).isEqualTo(3);
        assertThat(append(log, idempotent(0, 3, 2)).baseOffset()).isEqualTo(4);
        assertThat(log.offsets().highWatermark()).isEqualTo(6);
    }

    @Test
    public void aDuplicateBatchGetsItsOriginalOffsetsAndIsNotWrittenAgain() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotence");
        PartitionLog log = newPartition();
        append(log, idempotent(0, 0, 3));
        append(log, batch().build());

        AppendResult duplicate = append(log, idempotent(0, 0, 3));

        assertThat(duplicate.baseOffset()).isZero();
        assertThat(duplicate.lastOffset()).isEqualTo(2);
        assertThat(log.offsets().highWatermark()).isEqualTo(4);
        assertThat(readAll(log)).hasSize(2);
    }

    @Test
    public void duplicatesAreRecognisedAcrossTheLastFiveBatches() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotence");
        PartitionLog log = newPartition();
        for (int i = 0; i < 5; i++) {
            append(log, idempotent(0, i * 2, 2));
        }
        for (int i = 0; i < 5; i++) {
            AppendResult dup = appendDurably(log, idempotent(0, i * 2, 2));
            assertThat(dup.baseOffset()).as("duplicate of batch %d", i).isEqualTo(i * 2L);
        }
        assertThat(log.offsets().highWatermark()).isEqualTo(10);
    }

    @Test
    public void aSequenceGapIsOutOfOrderAndStoresNothing() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotence");
        PartitionLog log = newPartition();
        append(log, idempotent(0, 0, 2));
        assertFailsWith(OutOfOrderSequenceException.class, () -> log.append(produced(idempotent(0, 5, 1)), false));
        assertFailsWith(OutOfOrderSequenceException.class, () -> log.append(produced(idempotent(0, 1, 2)), true));
        assertThat(log.offsets().highWatermark()).isEqualTo(2);
        assertThat(append(log, idempotent(0, 2, 1)).baseOffset()).isEqualTo(2);
    }

    @Test
    public void aStaleProducerEpochIsRefused() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotence");
        PartitionLog log = newPartition();
        append(log, idempotent(3, 0, 1));
        assertFailsWith(InvalidProducerEpochException.class, () -> log.append(produced(idempotent(2, 1, 1)), false));
        assertThat(log.offsets().highWatermark()).isEqualTo(1);
    }

    @Test
    public void aNewProducerEpochStartsAtSequenceZero() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotence");
        PartitionLog log = newPartition();
        append(log, idempotent(0, 0, 3));
        assertFailsWith(OutOfOrderSequenceException.class, () -> log.append(produced(idempotent(1, 3, 1)), false));
        assertThat(append(log, idempotent(1, 0, 1)).baseOffset()).isEqualTo(3);
        assertFailsWith(InvalidProducerEpochException.class, () -> log.append(produced(idempotent(0, 3, 1)), false));
    }

    @Test
    public void producerStateSurvivesARestart() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotence");
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine does not persist data");
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        append(log, idempotent(0, 0, 2));
        appendDurably(log, idempotent(0, 2, 2));

        restart();

        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertThat(append(reopened, idempotent(0, 2, 2)).baseOffset()).as("duplicate after restart").isEqualTo(2);
        assertFailsWith(OutOfOrderSequenceException.class, () -> reopened.append(produced(idempotent(0, 7, 1)), false));
        assertThat(append(reopened, idempotent(0, 4, 1)).baseOffset()).isEqualTo(4);
    }

    @Test
    public void idempotentBatchesKeepTheirProducerFieldsVerbatim() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotence");
        PartitionLog log = newPartition();
        append(log, batch().records(2).producer(PRODUCER, 7, 40).build());
        BatchHeader h = Slices.headers(log.read(0, 1 << 20, 2, true)).get(0);
        assertThat(h.producerId()).isEqualTo(PRODUCER);
        assertThat(h.producerEpoch()).isEqualTo((short) 7);
        assertThat(h.baseSequence()).isEqualTo(40);
    }
}
