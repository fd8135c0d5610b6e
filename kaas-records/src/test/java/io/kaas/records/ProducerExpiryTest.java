package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.ProducerExpiration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kafka's producer.id.expiration.ms in {@link ProducerWindows}: which producers go, and what happens after. */
class ProducerExpiryTest {
    private static final long T = 1_700_000_000_000L;
    private static final ProducerExpiration ONE_MINUTE = new ProducerExpiration(60_000, 1_000);

    private final ProducerWindows windows = new ProducerWindows();
    private final TransactionTracker transactions = new TransactionTracker();

    /** An idempotent (or transactional) batch of producer {@code pid}, epoch 0, max timestamp {@code ts}. */
    private static BatchHeader batch(long pid, int seq, int records, long ts, boolean transactional) {
        short attributes = transactional ? (short) RecordBatches.TRANSACTIONAL_FLAG : 0;
        return new BatchHeader(0, 100, 0, records - 1, 0, attributes, ts, ts, pid, (short) 0, seq, records);
    }

    private void append(BatchHeader h, long offset) {
        ProducerWindows.Staged s = windows.stage();
        assertThat(s.check(h)).isEmpty();
        s.record(h, offset);
        s.commit();
        TransactionTracker.Staged t = transactions.stage();
        t.record(h, offset, null);
        t.commit();
    }

    @Test
    void aProducerExpiresOnceItsLastTimestampIsExpirationMsOld() {
        append(batch(1, 0, 3, T, false), 0);
        append(batch(2, 0, 1, T + 30_000, false), 3);
        assertThat(windows.expired(T + 59_999, ONE_MINUTE, transactions)).as("one ms before the horizon").isEmpty();
        assertThat(windows.expire(T + 60_000, ONE_MINUTE, transactions)).containsExactly(1L);
        assertThat(windows.producers()).containsOnlyKeys(2L);
        assertThat(windows.expire(T + 90_000, ONE_MINUTE, transactions)).containsExactly(2L);
        assertThat(windows.size()).isZero();
    }

    @Test
    void expiredListsAndChangesNothingUntilForgotten() {
        append(batch(3, 0, 1, T, false), 0);
        append(batch(1, 0, 1, T, false), 1);
        List<Long> expired = windows.expired(T + 60_000, ONE_MINUTE, transactions);
        assertThat(expired).as("in producer-id order").containsExactly(1L, 3L);
        assertThat(windows.producers()).containsOnlyKeys(1L, 3L);
        windows.forget(expired);
        assertThat(windows.producers()).isEmpty();
    }

    @Test
    void aProducerWithAnOpenTransactionNeverExpires() {
        append(batch(1, 0, 1, T, true), 0);
        assertThat(windows.expired(T + 10 * 60_000, ONE_MINUTE, transactions)).isEmpty();
        assertThat(windows.states(transactions.openTransactions())).hasSize(1);
    }

    @Test
    void aProducerOfUnknownTimestampExpiresAtTheFirstPassAsInKafka() {
        windows.restore(5, new ProducerWindows.Producer((short) 0, List.of(new ProducerWindows.Batch(0, 0, 0, 0))));
        assertThat(windows.expire(T, ONE_MINUTE, transactions)).containsExactly(5L);
    }

    @Test
    void anExpiredProducerWritesAgainAsANewProducerAtAnySequence() {
        append(batch(1, 0, 5, T, false), 0);
        windows.expire(T + 60_000, ONE_MINUTE, transactions);
        BatchHeader later = batch(1, 42, 1, T + 60_001, false);
        assertThat(windows.stage().check(later)).as("no OutOfOrderSequence: the producer is unknown").isEmpty();
        append(later, 5);
        assertThat(windows.producers().get(1L).lastSequence()).isEqualTo(42);
        assertThat(windows.producers().get(1L).lastTimestamp()).isEqualTo(T + 60_001);
    }

    @Test
    void theSettingsRefuseValuesBelowOne() {
        assertThatThrownBy(() -> new ProducerExpiration(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("producer.id.expiration.ms");
        assertThatThrownBy(() -> new ProducerExpiration(1, -5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("producer.id.expiration.check.interval.ms");
        assertThat(ProducerExpiration.KAFKA_DEFAULTS).isEqualTo(new ProducerExpiration(86_400_000, 600_000));
    }
}
