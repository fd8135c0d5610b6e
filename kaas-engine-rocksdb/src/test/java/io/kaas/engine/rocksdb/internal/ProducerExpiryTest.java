package io.kaas.engine.rocksdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ProducerState;
import io.kaas.plugin.tck.TestBatches;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Producer expiry in the RocksDB engine, passes run by hand (the background one is an hour away): the producer keys
 * are deleted from the store, so a reopened engine loads only what stayed.
 */
class ProducerExpiryTest {
    private static final long P1 = 31L;
    private static final long P2 = 32L;
    private static final long P3 = 33L;
    private static final long T = 1_700_000_000_000L;
    private static final long EXPIRATION_MS = 60_000L;
    private static final ProducerExpiration BY_HAND = new ProducerExpiration(EXPIRATION_MS, TimeUnit.HOURS.toMillis(1));
    private static final PartitionKey KEY = new PartitionKey("t", new UUID(3, 4), 0);

    @TempDir
    Path dir;
    private final MovableClock clock = new MovableClock();

    private RocksDbEngine open() throws Exception {
        return RocksDbEngine.open(dir, RocksDbConfig.from(PluginConfig.empty()), clock, BY_HAND);
    }

    private static ByteBuffer idempotent(long producerId, int seq, long ts) {
        return TestBatches.batch().timestamps(ts, 0).producer(producerId, 0, seq).build();
    }

    private static void append(PartitionLog log, ByteBuffer batch) throws Exception {
        log.append(ProducedBatches.validate(batch), true).get(10, TimeUnit.SECONDS);
    }

    @Test
    void expiredProducersAreDeletedFromTheStoreAndStartAfreshWhenTheyWriteAgain() throws Exception {
        try (RocksDbEngine engine = open()) {
            PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
            append(log, idempotent(P1, 0, T));                                                  // 0
            append(log, idempotent(P2, 0, T + 1));                                              // 1
            append(log, TestBatches.batch().timestamps(T, 0).producer(P3, 0, 0).transactional().build()); // 2: open
            assertThat(engine.producerExpiryPass()).isZero();
            clock.millis = T + EXPIRATION_MS;
            assertThat(engine.producerExpiryPass()).as("P1 only: P2 is a ms short, P3 has a transaction open")
                    .isEqualTo(1);
            assertThat(engine.producerExpiryPass()).isZero();
        }
        try (RocksDbEngine engine = open()) {
            PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
            assertThat(log.producers()).containsExactly(new ProducerState(P2, 0, 0, T + 1, -1, -1),
                    new ProducerState(P3, 0, 0, T, -1, 2));
            append(log, idempotent(P1, 77, clock.millis()));                                    // 3: a new producer
        }
        try (RocksDbEngine engine = open()) {
            PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
            assertThat(log.producers()).extracting(ProducerState::producerId, ProducerState::lastSequence)
                    .containsExactly(tuple(P1, 77), tuple(P2, 0),
                            tuple(P3, 0));
        }
    }

    @Test
    void aDeletedPartitionIsSkipped() throws Exception {
        try (RocksDbEngine engine = open()) {
            PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
            append(log, idempotent(P1, 0, T));
            engine.deletePartition(KEY);
            clock.millis = T + EXPIRATION_MS;
            assertThat(engine.producerExpiryPass()).isZero();
            assertThat(((RocksPartitionLog) log).expireProducers(clock.millis, BY_HAND)).isEmpty();
        }
    }

    /** A clock the test sets; read by the engine's threads. */
    private static final class MovableClock extends Clock {
        volatile long millis = T;

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
