package io.kaas.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.wire.message.FetchResponseData.AbortedTransaction;
import io.kaas.wire.message.FetchResponseData.PartitionData;
import io.kaas.wire.protocol.Errors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read_committed fetch over a partition holding transactions, written straight to the engine as the
 * transaction coordinator will write them (a client cannot yet): capped at the last stable offset, with the
 * aborted transactions the consumer needs.
 */
class FetchReaderTransactionsTest {
    private static final UUID TOPIC_ID = UUID.randomUUID();

    @TempDir
    Path dataDir;
    private StorageEngine engine;
    private PartitionLog log;

    @BeforeEach
    void open() throws Exception {
        StorageEngineProvider provider = ServiceLoader.load(StorageEngineProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.name().equals("segments")).findFirst().orElseThrow();
        engine = provider.open(new EngineContext(dataDir, PluginConfig.empty(), 1, Clock.systemUTC()));
        log = engine.openPartition(new PartitionKey("t", TOPIC_ID, 0), LogConfig.defaults());
        append(plain());                                   // 0
        append(transactional(5L, 0));                      // 1
        append(transactional(5L, 1));                      // 2
        append(marker(5L, ControlRecordType.ABORT));       // 3
        append(plain());                                   // 4
        append(transactional(6L, 0));                      // 5, still open
        assertThat(log.offsets().highWatermark()).isEqualTo(6);
        assertThat(log.offsets().lastStableOffset()).isEqualTo(5);
    }

    @AfterEach
    void close() throws Exception {
        engine.close();
    }

    private void append(ByteBuffer batch) throws Exception {
        log.append(ProducedBatches.validate(batch), false).get(10, TimeUnit.SECONDS);
    }

    private static SimpleRecord record() {
        return new SimpleRecord(1_000L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
    }

    private static ByteBuffer plain() {
        return MemoryRecords.withRecords(Compression.NONE, record()).buffer();
    }

    private static ByteBuffer transactional(long producerId, int sequence) {
        return MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, sequence, record()).buffer();
    }

    private static ByteBuffer marker(long producerId, ControlRecordType type) {
        return MemoryRecords.withEndTransactionMarker(1_000L, producerId, (short) 0, new EndTransactionMarker(type, 0))
                .buffer();
    }

    private PartitionData fetch(long offset, boolean readCommitted) {
        FetchReader reader = new FetchReader(List.of(new FetchReader.Target("t", TOPIC_ID, 0, offset, 1 << 20, log,
                Errors.NONE)), 1 << 20, readCommitted);
        return reader.read().response().responses().get(0).partitions().get(0);
    }

    @Test
    void readCommittedStopsAtTheLastStableOffsetAndListsTheAbortedTransactions() {
        PartitionData committed = fetch(0, true);
        PartitionData uncommitted = fetch(0, false);
        assertThat(committed.errorCode()).isEqualTo(Errors.NONE);
        assertThat(committed.lastStableOffset()).isEqualTo(5);
        assertThat(committed.highWatermark()).isEqualTo(6);
        assertThat(committed.abortedTransactions()).containsExactly(new AbortedTransaction().setProducerId(5L)
                .setFirstOffset(1L));
        assertThat(committed.records().sizeInBytes()).as("the open transaction's batch is not returned")
                .isEqualTo(uncommitted.records().sizeInBytes() - transactional(6L, 0).remaining());
        assertThat(uncommitted.abortedTransactions()).as("read_uncommitted sends none").isNull();
    }

    @Test
    void aReadPastTheAbortedRangeListsNone() {
        PartitionData committed = fetch(4, true);
        assertThat(committed.abortedTransactions()).isEmpty();
        assertThat(committed.records().sizeInBytes()).isEqualTo(plain().remaining());
        assertThat(fetch(5, true).records().sizeInBytes()).as("at the last stable offset: nothing yet").isZero();
    }
}
