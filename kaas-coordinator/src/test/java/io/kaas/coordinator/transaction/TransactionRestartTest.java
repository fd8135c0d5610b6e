package io.kaas.coordinator.transaction;

import static io.kaas.coordinator.transaction.TxnHarness.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.LogOffsets;
import io.kaas.wire.protocol.Errors;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A new coordinator over the same engine and store directories, after a change in each state. */
@Timeout(90)
class TransactionRestartTest extends TxnTestSupport {

    @Test
    void emptyAndCompleteStatesSurviveARestart() throws Exception {
        TransactionCoordinator.InitResult a = initOk("a");
        initOk("a");
        TransactionCoordinator.InitResult b = initOk("b");
        add("b", b, tp(0));
        end("b", b.producerId(), b.producerEpoch(), true, false);
        awaitState("b", TransactionState.COMPLETE_COMMIT);
        h.restart();
        TransactionCoordinator.Description da = c().describe("a").orElseThrow();
        assertThat(da.state()).isEqualTo(TransactionState.EMPTY);
        assertThat(da.producerId()).isEqualTo(a.producerId());
        assertThat(da.producerEpoch()).isEqualTo((short) 1);
        assertThat(state("b")).isEqualTo(TransactionState.COMPLETE_COMMIT);
        // the epoch goes on from where it was, and a retried end is still recognised
        assertThat(initOk("a").producerEpoch()).isEqualTo((short) 2);
        assertThat(end("b", b.producerId(), b.producerEpoch(), true, false).errorCode()).isEqualTo(Errors.NONE);
        // new producer ids never repeat one given before the restart
        assertThat(initOk("c").producerId()).isNotIn(a.producerId(), b.producerId());
    }

    @Test
    void anOngoingTransactionSurvivesARestartWithItsPartitions() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0), tp(2));
        h.produceTransactional(0, p.producerId(), p.producerEpoch(), 0);
        h.restart();
        TransactionCoordinator.Description d = c().describe("app").orElseThrow();
        assertThat(d.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(d.partitions()).containsExactlyInAnyOrder(tp(0), tp(2));
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode()).isEqualTo(Errors.NONE);
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        LogOffsets o = h.offsets(0);
        assertThat(o.lastStableOffset()).isEqualTo(o.highWatermark());
    }

    @Test
    void aPrepareCommitWhoseMarkersWereNotWrittenIsFinishedAtStart() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0), tp(1));
        h.produceTransactional(0, p.producerId(), p.producerEpoch(), 0);
        h.produceTransactional(1, p.producerId(), p.producerEpoch(), 0);
        h.markers.down = true; // the broker dies between PrepareCommit and the markers
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode()).isEqualTo(Errors.NONE);
        assertThat(state("app")).isEqualTo(TransactionState.PREPARE_COMMIT);
        h.restart(); // a new marker writer, working
        // start() returned only once the transaction was complete
        assertThat(state("app")).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(h.markers.written).extracting(EngineMarkerWriter.Marker::partition)
                .containsExactlyInAnyOrder(tp(0), tp(1));
        assertThat(h.markers.written).allMatch(EngineMarkerWriter.Marker::commit);
        for (int i = 0; i < 2; i++) {
            LogOffsets o = h.offsets(i);
            assertThat(o.lastStableOffset()).isEqualTo(o.highWatermark());
            assertThat(h.data(i).abortedTransactions(0, Long.MAX_VALUE)).isEmpty();
        }
        // and survives another restart as complete
        h.restart();
        assertThat(state("app")).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aPrepareThatCannotFinishAtStartGoesOnInTheBackground() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0));
        h.markers.down = true;
        end("app", p.producerId(), p.producerEpoch(), false, false);
        h.reopenBackends();
        h.markers.down = true; // the partition is still unavailable after the restart
        h.startWaitMs = 300;
        h.start();
        assertThat(state("app")).isEqualTo(TransactionState.PREPARE_ABORT);
        assertThat(init("app").errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        h.markers.down = false;
        await(() -> state("app") == TransactionState.COMPLETE_ABORT, TransactionCompleter.MAX_BACKOFF_MS);
        assertThat(h.markers.written).singleElement().matches(m -> !m.commit() && m.partition().equals(tp(0)));
        assertThat(initOk("app").producerEpoch()).isEqualTo((short) (p.producerEpoch() + 1));
    }

    @Test
    void aFencedTransactionInterruptedByARestartIsAborted() throws Exception {
        TransactionCoordinator.InitResult old = initOk("app");
        add("app", old, tp(0));
        h.markers.down = true;
        assertThat(init("app").errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        h.restart();
        assertThat(state("app")).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(h.markers.written).singleElement()
                .matches(m -> !m.commit() && m.producerEpoch() == old.producerEpoch() + 1);
        assertThat(add("app", old, tp(1))).containsEntry(tp(1), Errors.PRODUCER_FENCED);
    }

    @Test
    void anExhaustedEpochGivesANewProducerId() throws Exception {
        h.reopenBackends();
        String id = "old-producer";
        long pid = 4242;
        TransactionImage exhausted = new TransactionImage(pid, -1, -1, (short) (Short.MAX_VALUE - 1), (short) -1,
                TIMEOUT, TransactionState.EMPTY, Set.of(), Map.of(), -1, h.timer.nowMs(), false);
        writeDirectly(id, exhausted);
        h.start();
        // KIP-360: the producer re-initialises with its id and exhausted epoch
        TransactionCoordinator.InitResult r = get(c().initProducerId(id, TIMEOUT, pid,
                (short) (Short.MAX_VALUE - 1), false, false));
        assertThat(r.errorCode()).isEqualTo(Errors.NONE);
        assertThat(r.producerId()).isNotEqualTo(pid);
        assertThat(r.producerEpoch()).isZero();
        // the producer that missed that answer retries with its exhausted epoch and gets the same new id
        TransactionCoordinator.InitResult retry = get(c().initProducerId(id, TIMEOUT, pid,
                (short) (Short.MAX_VALUE - 1), false, false));
        assertThat(retry.errorCode()).isEqualTo(Errors.NONE);
        assertThat(retry.producerId()).isEqualTo(r.producerId());
        assertThat(retry.producerEpoch()).isZero();
        // a new instance (no id) bumps the new id's epoch
        assertThat(initOk(id)).isEqualTo(new TransactionCoordinator.InitResult(Errors.NONE, r.producerId(), (short) 1));
    }

    @Test
    void aNewInstanceOfAnExhaustedProducerGetsANewProducerId() throws Exception {
        h.reopenBackends();
        String id = "worn";
        writeDirectly(id, new TransactionImage(77, -1, -1, (short) (Short.MAX_VALUE - 1), (short) 3, TIMEOUT,
                TransactionState.COMPLETE_COMMIT, Set.of(), Map.of(), -1, h.timer.nowMs(), false));
        h.start();
        TransactionCoordinator.InitResult r = initOk(id);
        assertThat(r.producerId()).isNotEqualTo(77);
        assertThat(r.producerEpoch()).isZero();
        assertThat(add(id, new TransactionCoordinator.InitResult(Errors.NONE, 77, (short) (Short.MAX_VALUE - 1)), tp(0)))
                .containsEntry(tp(0), Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @Test
    void transactionsV2EndWithAnExhaustedEpochContinuesWithANewProducerId() throws Exception {
        h.reopenBackends();
        String id = "v2";
        long pid = 5151;
        short epoch = (short) (Short.MAX_VALUE - 1);
        TransactionImage ongoing = new TransactionImage(pid, -1, -1, epoch, (short) -1, TIMEOUT,
                TransactionState.ONGOING, Set.of(tp(0)), Map.of(), h.timer.nowMs(), h.timer.nowMs(), true);
        writeDirectly(id, ongoing);
        h.start();
        TransactionCoordinator.EndResult r = end(id, pid, epoch, true, true);
        assertThat(r.errorCode()).isEqualTo(Errors.NONE);
        assertThat(r.producerId()).isNotEqualTo(pid);
        assertThat(r.producerEpoch()).isZero();
        awaitState(id, TransactionState.COMPLETE_COMMIT);
        assertThat(h.markers.written).singleElement()
                .matches(m -> m.producerId() == pid && m.producerEpoch() == Short.MAX_VALUE);
        TransactionCoordinator.Description d = c().describe(id).orElseThrow();
        assertThat(d.producerId()).isEqualTo(r.producerId());
        assertThat(d.producerEpoch()).isZero();
        // the retry with the old id and epoch is recognised (retry on overflow)
        assertThat(end(id, pid, epoch, true, true))
                .isEqualTo(new TransactionCoordinator.EndResult(Errors.NONE, r.producerId(), (short) 0));
        h.restart();
        assertThat(c().describe(id).orElseThrow().producerId()).isEqualTo(r.producerId());
    }

    @Test
    void anIdleIdExpiresWithATombstone() throws Exception {
        initOk("idle");
        TransactionCoordinator.InitResult busy = initOk("busy");
        add("busy", busy, tp(0));
        h.timer.advance(604_800_000L);
        h.timer.advance(3_600_000L);
        await(() -> c().describe("idle").isEmpty(), 0);
        awaitState("busy", TransactionState.COMPLETE_ABORT); // its transaction timed out: not idle, not removed
        h.restart();
        assertThat(c().describe("idle")).isEmpty();
        assertThat(c().describe("busy")).isPresent();
        TransactionCoordinator.InitResult again = initOk("idle");
        assertThat(again.producerEpoch()).isZero();
    }

    @Test
    void aStatePartitionThatCannotBeReadIsLeftOutAndTheOthersServed() throws Exception {
        String lost = "in-bad-partition";
        String other = java.util.stream.IntStream.range(0, 100).mapToObj(i -> "other-" + i)
                .filter(id -> c().partitionFor(id) != c().partitionFor(lost)).findFirst().orElseThrow();
        TransactionCoordinator.InitResult p = initOk(lost);
        initOk(other);
        int bad = c().partitionFor(lost);
        h.reopenBackends();
        h.stateLog.unreadable.add(bad);
        try (LogCapture logs = new LogCapture(TransactionCoordinator.class)) {
            h.start();
            assertThat(logs.messages(ch.qos.logback.classic.Level.ERROR)).anySatisfy(m -> assertThat(m)
                    .contains("Could not load __transaction_state-" + bad));
        }
        assertThat(init(lost).errorCode()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(add(lost, p, tp(0))).containsEntry(tp(0), Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(initOk(other).producerEpoch()).isEqualTo((short) 1);
        // readable again: nothing was lost
        h.stateLog.unreadable.clear();
        h.restart();
        assertThat(initOk(lost)).isEqualTo(new TransactionCoordinator.InitResult(Errors.NONE, p.producerId(), (short) 1));
    }

    private void writeDirectly(String id, TransactionImage image) throws Exception {
        int partition = (id.hashCode() == Integer.MIN_VALUE ? 0 : Math.abs(id.hashCode())) % TxnHarness.STATE_PARTITIONS;
        h.directState().write(partition, id, image).join();
    }
}
