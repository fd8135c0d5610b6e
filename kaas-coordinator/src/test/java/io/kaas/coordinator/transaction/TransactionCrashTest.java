package io.kaas.coordinator.transaction;

import static io.kaas.coordinator.transaction.TxnHarness.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Consume-transform-produce rounds (data on three partitions and the group's offset in one transaction) with
 * restarts of the coordinator and its backends at random points, markers failing at random: each round's result
 * is all or nothing. A round whose EndTxn(COMMIT) was answered NONE is committed everywhere (markers and offset);
 * any other is aborted everywhere; no partition is left with an open transaction.
 */
@Timeout(180)
class TransactionCrashTest extends TxnTestSupport {
    static final String G = "ctp";
    static final int ROUNDS = 25;

    private final List<EngineMarkerWriter.Marker> markers = new ArrayList<>();

    private void restart() throws Exception {
        markers.addAll(h.markers.written);
        h.restart();
    }

    @Test
    void everyRoundIsAllOrNothingAcrossRestarts() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long committedOffset = -1;
        TransactionCoordinator.InitResult p = null;
        for (int round = 0; round < ROUNDS; round++) {
            if (p == null) {
                p = initRetrying("ctp-app");
            }
            h.markers.down = random.nextInt(4) == 0;
            boolean added = add("ctp-app", p, tp(0), tp(1), tp(2)).values().stream().allMatch(e -> e == Errors.NONE);
            assertThat(added).as("seed %d round %d", seed, round).isTrue();
            for (int i = 0; i < 3; i++) {
                h.produceTransactional(i, p.producerId(), p.producerEpoch(), 0);
            }
            if (random.nextInt(5) == 0) { // crash in the middle of the transaction
                restart();
                p = null;
                continue;
            }
            get(c().addOffsets("ctp-app", p.producerId(), p.producerEpoch(), G));
            assertThat(get(c().commitOffsets("ctp-app", p.producerId(), p.producerEpoch(), G, "", -1, null,
                    List.of(new OffsetManager.Commit(tp(0), round, -1, "")), false))).containsValue(Errors.NONE);
            if (random.nextInt(5) == 0) { // crash before EndTxn
                restart();
                p = null;
                continue;
            }
            TransactionCoordinator.EndResult end = end("ctp-app", p.producerId(), p.producerEpoch(), true, false);
            assertThat(end.errorCode()).isEqualTo(Errors.NONE);
            committedOffset = round;
            if (random.nextInt(3) == 0) { // crash between PrepareCommit and (some of) the markers
                restart();
                p = null;
                continue;
            }
            h.markers.down = false;
            await(() -> state("ctp-app") == TransactionState.COMPLETE_COMMIT, TransactionCompleter.MAX_BACKOFF_MS);
            p = new TransactionCoordinator.InitResult(Errors.NONE, p.producerId(), p.producerEpoch());
        }
        h.markers.down = false;
        restart();
        awaitOpenTransactionsGone();
        markers.addAll(h.markers.written);

        CommittedOffset offset = h.groups.committedOffsets(G).get(tp(0));
        assertThat(offset == null ? -1 : offset.offset()).as("seed %d", seed).isEqualTo(committedOffset);
        Map<String, Boolean> outcome = new HashMap<>();
        for (EngineMarkerWriter.Marker m : markers) {
            String txn = m.producerId() + "/" + m.producerEpoch();
            Boolean before = outcome.putIfAbsent(txn, m.commit());
            assertThat(before == null || before == m.commit()).as("seed %d: %s has COMMIT and ABORT markers", seed, txn)
                    .isTrue();
        }
        for (int i = 0; i < 3; i++) {
            assertThat(h.offsets(i).lastStableOffset()).as("seed %d partition %d", seed, i)
                    .isEqualTo(h.offsets(i).highWatermark());
        }
    }

    private TransactionCoordinator.InitResult initRetrying(String id) throws Exception {
        for (int i = 0; i < 1000; i++) {
            TransactionCoordinator.InitResult r = init(id);
            if (r.errorCode() == Errors.NONE) {
                return r;
            }
            assertThat(r.errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
            h.timer.advance(TransactionCompleter.MAX_BACKOFF_MS);
            Thread.sleep(5);
        }
        throw new AssertionError("InitProducerId kept answering CONCURRENT_TRANSACTIONS");
    }

    /** The last round's fate: a fresh InitProducerId fences and aborts an open transaction, if any. */
    private void awaitOpenTransactionsGone() throws Exception {
        initRetrying("ctp-app");
        for (TopicPartitionRef tp : List.of(tp(0), tp(1), tp(2))) {
            await(() -> {
                try {
                    return h.offsets(tp.partition()).lastStableOffset() == h.offsets(tp.partition()).highWatermark();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }, TransactionCompleter.MAX_BACKOFF_MS);
        }
    }
}
