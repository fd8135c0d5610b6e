package io.kaas.coordinator.transaction;

import static io.kaas.coordinator.transaction.TxnHarness.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.LogOffsets;
import io.kaas.wire.protocol.Errors;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The state machine: InitProducerId, AddPartitions, EndTxn (V1 and V2), Describe, List, with Kafka's errors. */
@Timeout(60)
class TransactionCoordinatorTest extends TxnTestSupport {

    @Test
    void initGivesANewProducerIdAtEpochZeroThenBumpsTheEpoch() throws Exception {
        TransactionCoordinator.InitResult first = initOk("app-1");
        assertThat(first.producerEpoch()).isZero();
        assertThat(first.producerId()).isNotNegative();
        TransactionCoordinator.InitResult second = initOk("app-1");
        assertThat(second.producerId()).isEqualTo(first.producerId());
        assertThat(second.producerEpoch()).isEqualTo((short) 1);
        assertThat(initOk("app-2").producerId()).isNotEqualTo(first.producerId());
        assertThat(state("app-1")).isEqualTo(TransactionState.EMPTY);
    }

    @Test
    void initRefusesBadRequestsAsKafka() throws Exception {
        assertThat(get(c().initProducerId("a", 0, -1, (short) -1, false, false)).errorCode())
                .isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT);
        assertThat(get(c().initProducerId("a", 900_001, -1, (short) -1, false, false)).errorCode())
                .isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT);
        assertThat(get(c().initProducerId("", TIMEOUT, -1, (short) -1, false, false)).errorCode())
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(get(c().initProducerId("a", TIMEOUT, -1, (short) -1, true, false)).errorCode())
                .isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(get(c().initProducerId("a", TIMEOUT, -1, (short) -1, false, true)).errorCode())
                .isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(get(c().initProducerId("a", TIMEOUT, 5, (short) -1, false, false)).errorCode())
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(c().describe("a")).isEmpty(); // nothing stored
    }

    @Test
    void kip360ReinitWithTheCurrentIdAndEpochBumpsAndAStaleOneIsFenced() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        TransactionCoordinator.InitResult again = get(c().initProducerId("app", TIMEOUT, p.producerId(),
                p.producerEpoch(), false, false));
        assertThat(again.errorCode()).isEqualTo(Errors.NONE);
        assertThat(again.producerEpoch()).isEqualTo((short) 1);
        // a retry of that bump (the producer did not see the answer) returns the same epoch
        TransactionCoordinator.InitResult retry = get(c().initProducerId("app", TIMEOUT, p.producerId(),
                p.producerEpoch(), false, false));
        assertThat(retry.errorCode()).isEqualTo(Errors.NONE);
        assertThat(retry.producerEpoch()).isEqualTo((short) 1);
        // another producer id, or an epoch older than the last one
        assertThat(get(c().initProducerId("app", TIMEOUT, p.producerId() + 999, (short) 0, false, false)).errorCode())
                .isEqualTo(Errors.PRODUCER_FENCED);
        initOk("app"); // epoch 2, last 1
        assertThat(get(c().initProducerId("app", TIMEOUT, p.producerId(), (short) 0, false, false)).errorCode())
                .isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void commitWritesMarkersToEveryPartitionThenCompletes() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        assertThat(add("app", p, tp(0), tp(1))).containsValues(Errors.NONE);
        assertThat(state("app")).isEqualTo(TransactionState.ONGOING);
        h.produceTransactional(0, p.producerId(), p.producerEpoch(), 0);
        h.produceTransactional(1, p.producerId(), p.producerEpoch(), 0);
        LogOffsets open = h.offsets(0);
        assertThat(open.lastStableOffset()).isLessThan(open.highWatermark());

        TransactionCoordinator.EndResult r = end("app", p.producerId(), p.producerEpoch(), true, false);
        assertThat(r.errorCode()).isEqualTo(Errors.NONE);
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        assertThat(h.markers.written).extracting(EngineMarkerWriter.Marker::partition)
                .containsExactlyInAnyOrder(tp(0), tp(1));
        assertThat(h.markers.written).allMatch(m -> m.commit() && m.producerEpoch() == p.producerEpoch());
        for (int i = 0; i < 2; i++) {
            LogOffsets o = h.offsets(i);
            assertThat(o.lastStableOffset()).isEqualTo(o.highWatermark());
        }
        assertThat(c().describe("app").orElseThrow().partitions()).isEmpty();
        // a retry of the same end is answered NONE; the other end is INVALID_TXN_STATE
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode()).isEqualTo(Errors.NONE);
        assertThat(end("app", p.producerId(), p.producerEpoch(), false, false).errorCode())
                .isEqualTo(Errors.INVALID_TXN_STATE);
    }

    @Test
    void abortWritesAbortMarkers() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(2));
        h.produceTransactional(2, p.producerId(), p.producerEpoch(), 0);
        assertThat(end("app", p.producerId(), p.producerEpoch(), false, false).errorCode()).isEqualTo(Errors.NONE);
        awaitState("app", TransactionState.COMPLETE_ABORT);
        assertThat(h.markers.written).singleElement().matches(m -> !m.commit());
        assertThat(h.data(2).abortedTransactions(0, Long.MAX_VALUE)).hasSize(1);
    }

    @Test
    void addPartitionsAndEndCheckTheProducerAsKafka() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        assertThat(get(c().addPartitions("nope", p.producerId(), p.producerEpoch(), List.of(tp(0)), false)))
                .containsEntry(tp(0), Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(get(c().addPartitions("app", p.producerId() + 1, p.producerEpoch(), List.of(tp(0)), false)))
                .containsEntry(tp(0), Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(get(c().addPartitions("app", p.producerId(), (short) 7, List.of(tp(0)), false)))
                .containsEntry(tp(0), Errors.PRODUCER_FENCED);
        assertThat(get(c().addPartitions("", p.producerId(), p.producerEpoch(), List.of(tp(0)), false)))
                .containsEntry(tp(0), Errors.INVALID_REQUEST);
        // no transaction open: EndTxn V1 is INVALID_TXN_STATE
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode())
                .isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(end("nope", p.producerId(), p.producerEpoch(), true, false).errorCode())
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        add("app", p, tp(0));
        assertThat(end("app", p.producerId(), (short) (p.producerEpoch() + 3), true, false).errorCode())
                .isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(end("app", p.producerId() + 1, p.producerEpoch(), true, false).errorCode())
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(state("app")).isEqualTo(TransactionState.ONGOING);
    }

    @Test
    void verifyOnlyAnswersPerPartitionAndStoresNothing() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        assertThat(get(c().addPartitions("app", p.producerId(), p.producerEpoch(), List.of(tp(0)), true)))
                .containsEntry(tp(0), Errors.INVALID_TXN_STATE);
        assertThat(state("app")).isEqualTo(TransactionState.EMPTY);
        add("app", p, tp(0));
        assertThat(get(c().addPartitions("app", p.producerId(), p.producerEpoch(), List.of(tp(0), tp(1)), true)))
                .containsEntry(tp(0), Errors.NONE).containsEntry(tp(1), Errors.INVALID_TXN_STATE);
        assertThat(c().describe("app").orElseThrow().partitions()).containsExactly(tp(0));
        assertThat(get(c().addPartitions("app", p.producerId(), (short) 9, List.of(tp(0)), true)))
                .containsEntry(tp(0), Errors.PRODUCER_FENCED);
        assertThat(get(c().addPartitions("other", p.producerId(), p.producerEpoch(), List.of(tp(0)), true)))
                .containsEntry(tp(0), Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @Test
    void whileMarkersAreWrittenANewTransactionGetsConcurrentTransactions() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0));
        h.markers.down = true;
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode()).isEqualTo(Errors.NONE);
        assertThat(state("app")).isEqualTo(TransactionState.PREPARE_COMMIT);
        assertThat(add("app", p, tp(1))).containsEntry(tp(1), Errors.CONCURRENT_TRANSACTIONS);
        assertThat(init("app").errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode())
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(end("app", p.producerId(), p.producerEpoch(), false, false).errorCode())
                .isEqualTo(Errors.INVALID_TXN_STATE);
        // retried until the partition takes the marker
        int before = h.markers.calls.get();
        await(() -> h.markers.calls.get() >= before + 3, TransactionCompleter.MAX_BACKOFF_MS);
        assertThat(state("app")).isEqualTo(TransactionState.PREPARE_COMMIT);
        h.markers.down = false;
        await(() -> state("app") == TransactionState.COMPLETE_COMMIT, TransactionCompleter.MAX_BACKOFF_MS);
        assertThat(add("app", p, tp(1))).containsEntry(tp(1), Errors.NONE);
    }

    @Test
    void theCompletionOfAnEndedTransactionCompletesOnceItIsComplete() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        assertThat(c().completion("app")).as("nothing ended yet").isDone();
        assertThat(c().completion("unknown")).isDone();
        add("app", p, tp(0));
        h.markers.down = true;
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode()).isEqualTo(Errors.NONE);
        var completion = c().completion("app");
        assertThat(completion).as("markers not written").isNotDone();
        h.markers.down = false;
        await(completion::isDone, TransactionCompleter.MAX_BACKOFF_MS); // the timer runs the marker's retry
        assertThat(state("app")).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aFailedMarkerIsRetriedUntilItIsWritten() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0), tp(1));
        h.markers.failTimes(tp(1), 3);
        try (LogCapture logs = new LogCapture(TransactionCompleter.class)) {
            end("app", p.producerId(), p.producerEpoch(), true, false);
            await(() -> state("app") == TransactionState.COMPLETE_COMMIT, 200);
            assertThat(logs.messages(ch.qos.logback.classic.Level.WARN)).hasSize(3).allSatisfy(m -> assertThat(m)
                    .contains("COMMIT marker of transactional id app").contains("orders-1")
                    .contains("producer id " + p.producerId()));
        }
        assertThat(h.markers.written).extracting(EngineMarkerWriter.Marker::partition)
                .containsExactlyInAnyOrder(tp(0), tp(1));
        assertThat(h.markers.calls.get()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void aPartitionWhoseTopicIsGoneIsGivenUp() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0), new io.kaas.api.cluster.TopicPartitionRef("gone", 0));
        try (LogCapture logs = new LogCapture(TransactionCompleter.class)) {
            end("app", p.producerId(), p.producerEpoch(), false, false);
            await(() -> state("app") == TransactionState.COMPLETE_ABORT, 200);
            assertThat(logs.messages(ch.qos.logback.classic.Level.WARN)).singleElement().satisfies(m -> assertThat(m)
                    .contains("Gave up the ABORT marker").contains("gone-0").contains("no longer exists"));
        }
        assertThat(h.markers.written).extracting(EngineMarkerWriter.Marker::partition).containsExactly(tp(0));
    }

    @Test
    void aPartitionThatKnowsANewerEpochIsDroppedAsKafka() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0), tp(1));
        h.markers.refusing.add(tp(1));
        try (LogCapture logs = new LogCapture(TransactionCompleter.class)) {
            end("app", p.producerId(), p.producerEpoch(), true, false);
            await(() -> state("app") == TransactionState.COMPLETE_COMMIT, 200);
            assertThat(logs.messages(ch.qos.logback.classic.Level.ERROR)).singleElement()
                    .satisfies(m -> assertThat(m).contains("orders-1").contains("knows a newer epoch"));
        }
        assertThat(h.markers.written).extracting(EngineMarkerWriter.Marker::partition).containsExactly(tp(0));
    }

    @Test
    void aNewInstanceFencesTheOpenTransactionOfTheOldOne() throws Exception {
        TransactionCoordinator.InitResult old = initOk("app");
        add("app", old, tp(0));
        h.produceTransactional(0, old.producerId(), old.producerEpoch(), 0);
        // the new instance is told to retry while the old transaction is aborted at a bumped epoch
        assertThat(init("app").errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        awaitState("app", TransactionState.COMPLETE_ABORT);
        assertThat(h.markers.written).singleElement()
                .matches(m -> !m.commit() && m.producerEpoch() == old.producerEpoch() + 1);
        TransactionCoordinator.InitResult fresh = initOk("app");
        assertThat(fresh.producerEpoch()).isEqualTo((short) (old.producerEpoch() + 2));
        // the zombie is fenced everywhere
        assertThat(add("app", old, tp(1))).containsEntry(tp(1), Errors.PRODUCER_FENCED);
        assertThat(end("app", old.producerId(), old.producerEpoch(), true, false).errorCode())
                .isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(h.offsets(0).lastStableOffset()).isEqualTo(h.offsets(0).highWatermark());
    }

    @Test
    void transactionsV2BumpTheEpochOnEveryEndAndDetectRetries() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(0));
        TransactionCoordinator.EndResult r = end("app", p.producerId(), p.producerEpoch(), true, true);
        assertThat(r.errorCode()).isEqualTo(Errors.NONE);
        assertThat(r.producerId()).isEqualTo(p.producerId());
        assertThat(r.producerEpoch()).isEqualTo((short) (p.producerEpoch() + 1));
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        assertThat(h.markers.written).singleElement().matches(m -> m.producerEpoch() == p.producerEpoch() + 1);
        // the retry of that end (old epoch) is recognised
        TransactionCoordinator.EndResult retry = end("app", p.producerId(), p.producerEpoch(), true, true);
        assertThat(retry).isEqualTo(new TransactionCoordinator.EndResult(Errors.NONE, p.producerId(),
                (short) (p.producerEpoch() + 1)));
        assertThat(end("app", p.producerId(), p.producerEpoch(), false, true).errorCode())
                .isEqualTo(Errors.INVALID_TXN_STATE);
        // a re-initialisation with the epoch from before the end is a stale producer (Kafka: last epoch = marker epoch)
        assertThat(get(c().initProducerId("app", TIMEOUT, p.producerId(), p.producerEpoch(), false, false))
                .errorCode()).isEqualTo(Errors.PRODUCER_FENCED);
        // the next transaction with the new epoch (Produce v12 adds partitions implicitly)
        assertThat(get(c().addPartitions("app", r.producerId(), r.producerEpoch(), List.of(tp(1)), false)))
                .containsEntry(tp(1), Errors.NONE);
        TransactionCoordinator.EndResult r2 = end("app", r.producerId(), r.producerEpoch(), false, true);
        assertThat(r2.producerEpoch()).isEqualTo((short) (p.producerEpoch() + 2));
        // the old epoch is now fenced
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, true).errorCode())
                .isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void transactionsV2AbortWithNoTransactionBumpsTheEpoch() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        TransactionCoordinator.EndResult r = end("app", p.producerId(), p.producerEpoch(), false, true);
        assertThat(r.errorCode()).isEqualTo(Errors.NONE);
        assertThat(r.producerEpoch()).isEqualTo((short) (p.producerEpoch() + 1));
        awaitState("app", TransactionState.COMPLETE_ABORT);
        assertThat(h.markers.written).isEmpty();
        assertThat(end("app", r.producerId(), r.producerEpoch(), true, true).errorCode())
                .isEqualTo(Errors.INVALID_TXN_STATE);
    }

    @Test
    void describeAndListWithFilters() throws Exception {
        TransactionCoordinator.InitResult a = initOk("a");
        initOk("b");
        add("a", a, tp(0));
        TransactionCoordinator.Description d = c().describe("a").orElseThrow();
        assertThat(d.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(d.producerId()).isEqualTo(a.producerId());
        assertThat(d.timeoutMs()).isEqualTo(TIMEOUT);
        assertThat(d.startTimeMs()).isEqualTo(h.timer.nowMs());
        assertThat(d.partitions()).containsExactly(tp(0));
        assertThat(c().describe("unknown")).isEmpty();
        assertThat(c().list(Set.of(), Set.of(), -1)).extracting(TransactionCoordinator.Listing::transactionalId)
                .containsExactlyInAnyOrder("a", "b");
        assertThat(c().list(Set.of(TransactionState.ONGOING), Set.of(), -1))
                .extracting(TransactionCoordinator.Listing::transactionalId).containsExactly("a");
        assertThat(c().list(Set.of(), Set.of(a.producerId()), -1))
                .extracting(TransactionCoordinator.Listing::transactionalId).containsExactly("a");
        assertThat(c().list(Set.of(TransactionState.ONGOING), Set.of(), 5_000)).isEmpty();
        h.timer.advance(5_001);
        assertThat(c().list(Set.of(TransactionState.ONGOING), Set.of(), 5_000))
                .extracting(TransactionCoordinator.Listing::transactionalId).containsExactly("a");
    }

    @Test
    void aTransactionOpenBeyondItsTimeoutIsAbortedAndTheProducerFenced() throws Exception {
        TransactionCoordinator.InitResult p = get(c().initProducerId("slow", 1_000, -1, (short) -1, false, false));
        add("slow", p, tp(0));
        h.timer.advance(5_000);
        h.timer.drain();
        assertThat(state("slow")).isEqualTo(TransactionState.ONGOING); // the pass runs every 10 s
        h.timer.advance(5_000);
        awaitState("slow", TransactionState.COMPLETE_ABORT);
        assertThat(h.markers.written).singleElement()
                .matches(m -> !m.commit() && m.producerEpoch() == p.producerEpoch() + 1);
        assertThat(end("slow", p.producerId(), p.producerEpoch(), true, false).errorCode())
                .isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void aRequestWhileAChangeOfTheIdIsBeingWrittenGetsConcurrentTransactions() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        java.util.concurrent.CompletableFuture<Void> gate = new java.util.concurrent.CompletableFuture<>();
        h.stateLog.gate = gate;
        var adding = c().addPartitions("app", p.producerId(), p.producerEpoch(), List.of(tp(0)), false);
        assertThat(adding).isNotDone(); // not acknowledged before it is durable
        assertThat(add("app", p, tp(1))).containsEntry(tp(1), Errors.CONCURRENT_TRANSACTIONS);
        assertThat(init("app").errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(end("app", p.producerId(), p.producerEpoch(), true, false).errorCode())
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(get(c().addOffsets("app", p.producerId(), p.producerEpoch(), "g")))
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        gate.complete(null);
        assertThat(get(adding)).containsEntry(tp(0), Errors.NONE);
        assertThat(add("app", p, tp(1))).containsEntry(tp(1), Errors.NONE);
    }

    @Test
    void aChangeThatCouldNotBeWrittenIsAnErrorAndChangesNothing() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        h.stateLog.failAppends = true;
        assertThat(add("app", p, tp(0))).containsEntry(tp(0), Errors.NOT_COORDINATOR);
        assertThat(init("app").errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(init("fresh").errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
        TransactionCoordinator.Description d = c().describe("app").orElseThrow();
        assertThat(d.state()).isEqualTo(TransactionState.EMPTY);
        assertThat(d.producerEpoch()).isEqualTo(p.producerEpoch());
        assertThat(c().describe("fresh")).isEmpty();
        h.stateLog.failAppends = false;
        assertThat(initOk("app").producerEpoch()).isEqualTo((short) (p.producerEpoch() + 1));
    }

    @Test
    void aFenceThatCouldNotBeWrittenStillBumpsTheEpochOnceWhenRetried() throws Exception {
        TransactionCoordinator.InitResult old = initOk("app");
        add("app", old, tp(0));
        h.stateLog.failAppends = true;
        assertThat(init("app").errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(state("app")).isEqualTo(TransactionState.ONGOING);
        h.stateLog.failAppends = false;
        assertThat(init("app").errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        awaitState("app", TransactionState.COMPLETE_ABORT);
        assertThat(h.markers.written).singleElement().matches(m -> m.producerEpoch() == old.producerEpoch() + 1);
        assertThat(add("app", old, tp(1))).containsEntry(tp(1), Errors.PRODUCER_FENCED);
    }
}
