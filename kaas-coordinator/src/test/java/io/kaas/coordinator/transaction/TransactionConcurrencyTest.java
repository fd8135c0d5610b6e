package io.kaas.coordinator.transaction;

import static io.kaas.coordinator.transaction.TxnHarness.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Producers of several ids running transactions at once while state partitions are rewritten: no lost change. */
@Timeout(120)
class TransactionConcurrencyTest extends TxnTestSupport {
    static final int IDS = 6;
    static final int ROUNDS = 15;

    @Override
    void configure(TxnHarness harness) {
        harness.cleanupMinRecords = 10;
    }

    @Test
    void concurrentTransactionsOfManyIdsAllComplete() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(IDS);
        try {
            List<Future<TransactionCoordinator.InitResult>> runs = new ArrayList<>();
            for (int i = 0; i < IDS; i++) {
                String id = "p" + i;
                runs.add(pool.submit(() -> run(id)));
            }
            for (int i = 0; i < IDS; i++) {
                TransactionCoordinator.InitResult last = runs.get(i).get(90, TimeUnit.SECONDS);
                String id = "p" + i;
                awaitState(id, TransactionState.COMPLETE_COMMIT);
                assertThat(c().describe(id).orElseThrow().producerEpoch()).isEqualTo(last.producerEpoch());
            }
        } finally {
            pool.shutdownNow();
        }
        for (int p = 0; p < 3; p++) {
            assertThat(h.offsets(p).lastStableOffset()).isEqualTo(h.offsets(p).highWatermark());
        }
        long rewritten = 0;
        for (int p = 0; p < TxnHarness.STATE_PARTITIONS; p++) {
            rewritten += h.stateLog.partition(p).offsets().logStartOffset() > 0 ? 1 : 0;
        }
        assertThat(rewritten).as("state partitions rewritten meanwhile").isPositive();
        h.restart();
        for (int i = 0; i < IDS; i++) {
            assertThat(state("p" + i)).isEqualTo(TransactionState.COMPLETE_COMMIT);
        }
    }

    /** Rounds of init / add / produce / commit (V2), retrying on CONCURRENT_TRANSACTIONS as a client does. */
    private TransactionCoordinator.InitResult run(String id) throws Exception {
        TransactionCoordinator.InitResult p = retry(() -> init(id));
        long pid = p.producerId();
        short epoch = p.producerEpoch();
        for (int r = 0; r < ROUNDS; r++) {
            TopicPartitionRef tp = tp(r % 3);
            long fpid = pid;
            short fepoch = epoch;
            Map<TopicPartitionRef, Short> added = retryMap(() -> get(c().addPartitions(id, fpid, fepoch,
                    List.of(tp), false)));
            assertThat(added).containsEntry(tp, Errors.NONE);
            synchronized (this) {
                h.produceTransactional(tp.partition(), pid, epoch, 0);
            }
            TransactionCoordinator.EndResult e = retryEnd(() -> end(id, fpid, fepoch, true, true));
            pid = e.producerId();
            epoch = e.producerEpoch();
        }
        return new TransactionCoordinator.InitResult(Errors.NONE, pid, epoch);
    }

    interface Call<T> {
        T call() throws Exception;
    }

    private static TransactionCoordinator.InitResult retry(Call<TransactionCoordinator.InitResult> call)
            throws Exception {
        for (int i = 0; ; i++) {
            TransactionCoordinator.InitResult r = call.call();
            if (r.errorCode() != Errors.CONCURRENT_TRANSACTIONS || i > 500) {
                assertThat(r.errorCode()).isEqualTo(Errors.NONE);
                return r;
            }
            Thread.sleep(5);
        }
    }

    private static Map<TopicPartitionRef, Short> retryMap(Call<Map<TopicPartitionRef, Short>> call) throws Exception {
        for (int i = 0; ; i++) {
            Map<TopicPartitionRef, Short> r = call.call();
            if (!r.containsValue(Errors.CONCURRENT_TRANSACTIONS) || i > 500) {
                return r;
            }
            Thread.sleep(5);
        }
    }

    private static TransactionCoordinator.EndResult retryEnd(Call<TransactionCoordinator.EndResult> call)
            throws Exception {
        for (int i = 0; ; i++) {
            TransactionCoordinator.EndResult r = call.call();
            if (r.errorCode() != Errors.CONCURRENT_TRANSACTIONS || i > 500) {
                assertThat(r.errorCode()).isEqualTo(Errors.NONE);
                return r;
            }
            Thread.sleep(5);
        }
    }
}
