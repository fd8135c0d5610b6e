package io.kaas.coordinator.transaction;

import static io.kaas.coordinator.transaction.TxnHarness.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** AddOffsetsToTxn and TxnOffsetCommit: pending offsets, require_stable, commit and abort, restart, membership. */
@Timeout(60)
class TransactionOffsetsTest extends TxnTestSupport {
    static final String G = "group-1";

    private Map<TopicPartitionRef, Short> commitOffsets(String id, TransactionCoordinator.InitResult p, String group,
                                                        String member, int generation, String instance,
                                                        boolean implicit, OffsetManager.Commit... offsets)
            throws Exception {
        return get(c().commitOffsets(id, p.producerId(), p.producerEpoch(), group, member, generation, instance,
                List.of(offsets), implicit));
    }

    private static OffsetManager.Commit offset(int partition, long offset) {
        return new OffsetManager.Commit(tp(partition), offset, 3, "m" + offset);
    }

    private OffsetManager.FetchResult fetch(boolean requireStable) {
        return h.groups.offsets().fetch(G, Map.of(TxnHarness.TOPIC, List.of(0, 1)), requireStable);
    }

    private Short fetchError(int partition) {
        return fetch(true).partitions().stream().filter(f -> f.partition().equals(tp(partition))).findFirst()
                .orElseThrow().errorCode();
    }

    @Test
    void pendingOffsetsAreUnstableUntilTheCommitThenStored() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        assertThat(get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G))).isEqualTo(Errors.NONE);
        assertThat(commitOffsets("app", p, G, "", -1, null, false, offset(0, 42)))
                .containsEntry(tp(0), Errors.NONE);
        assertThat(fetchError(0)).isEqualTo(Errors.UNSTABLE_OFFSET_COMMIT);
        assertThat(fetchError(1)).isEqualTo(Errors.NONE);
        assertThat(fetch(false).partitions()).allMatch(f -> f.offset() == null && f.errorCode() == Errors.NONE);

        end("app", p.producerId(), p.producerEpoch(), true, false);
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        assertThat(h.groups.offsets().fetch(G, null, true).partitions()).singleElement()
                .matches(f -> f.partition().equals(tp(0)) && f.errorCode() == Errors.NONE && f.offset().offset() == 42);
        CommittedOffset o = h.groups.committedOffsets(G).get(tp(0));
        assertThat(o.offset()).isEqualTo(42);
        assertThat(o.leaderEpoch()).isEqualTo(3);
        assertThat(o.metadata()).isEqualTo("m42");
        assertThat(fetchError(0)).isEqualTo(Errors.NONE);
    }

    @Test
    void fetchingAllOffsetsMarksTheCommittedOnesWithAPendingOffsetUnstable() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G));
        commitOffsets("app", p, G, "", -1, null, false, offset(0, 1), offset(1, 2));
        end("app", p.producerId(), p.producerEpoch(), true, false);
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        TransactionCoordinator.InitResult q = initOk("app");
        get(c().addOffsets("app", q.producerId(), q.producerEpoch(), G));
        commitOffsets("app", q, G, "", -1, null, false, offset(1, 20));
        List<OffsetManager.Fetched> all = h.groups.offsets().fetch(G, null, true).partitions();
        assertThat(all).extracting(OffsetManager.Fetched::partition).containsExactly(tp(0), tp(1));
        assertThat(all.get(0).errorCode()).isEqualTo(Errors.NONE);
        assertThat(all.get(0).offset().offset()).isEqualTo(1);
        assertThat(all.get(1).errorCode()).isEqualTo(Errors.UNSTABLE_OFFSET_COMMIT);
        assertThat(all.get(1).offset()).isNull();
        // without require_stable the committed offset is answered
        assertThat(h.groups.offsets().fetch(G, null, false).partitions().get(1).offset().offset()).isEqualTo(2);
    }

    @Test
    void abortDropsThePendingOffsets() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G));
        commitOffsets("app", p, G, "", -1, null, false, offset(1, 7));
        end("app", p.producerId(), p.producerEpoch(), false, false);
        awaitState("app", TransactionState.COMPLETE_ABORT);
        assertThat(h.groups.committedOffsets(G)).isEmpty();
        assertThat(fetchError(1)).isEqualTo(Errors.NONE);
    }

    @Test
    void aGroupNotAddedIsInvalidTxnStateUnlessAddedImplicitly() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        assertThat(commitOffsets("app", p, G, "", -1, null, false, offset(0, 1)))
                .containsEntry(tp(0), Errors.INVALID_TXN_STATE);
        assertThat(fetchError(0)).isEqualTo(Errors.NONE); // nothing staged
        // transactions V2 (TxnOffsetCommit v5+): the group joins the transaction
        assertThat(commitOffsets("app", p, G, "", -1, null, true, offset(0, 1))).containsEntry(tp(0), Errors.NONE);
        assertThat(state("app")).isEqualTo(TransactionState.ONGOING);
        assertThat(fetchError(0)).isEqualTo(Errors.UNSTABLE_OFFSET_COMMIT);
    }

    @Test
    void theTransactionAndThePartitionsAreChecked() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G));
        TransactionCoordinator.InitResult stale = new TransactionCoordinator.InitResult(Errors.NONE, p.producerId(),
                (short) (p.producerEpoch() + 5));
        assertThat(commitOffsets("app", stale, G, "", -1, null, false, offset(0, 1)))
                .containsEntry(tp(0), Errors.PRODUCER_FENCED);
        assertThat(commitOffsets("nope", p, G, "", -1, null, false, offset(0, 1)))
                .containsEntry(tp(0), Errors.INVALID_PRODUCER_ID_MAPPING);
        Map<TopicPartitionRef, Short> mixed = commitOffsets("app", p, G, "", -1, null, false, offset(0, 5),
                new OffsetManager.Commit(new TopicPartitionRef("missing", 0), 1, -1, ""),
                new OffsetManager.Commit(tp(1), 2, -1, "x".repeat(5000)));
        assertThat(mixed).containsEntry(tp(0), Errors.NONE)
                .containsEntry(new TopicPartitionRef("missing", 0), Errors.UNKNOWN_TOPIC_OR_PARTITION)
                .containsEntry(tp(1), Errors.OFFSET_METADATA_TOO_LARGE);
        // an unknown group with a generation (TxnOffsetCommit below v6 answers it ILLEGAL_GENERATION: its handler maps it)
        assertThat(commitOffsets("app", p, "other", "m", 5, null, true, offset(0, 1)))
                .containsEntry(tp(0), Errors.GROUP_ID_NOT_FOUND);
        assertThat(get(c().addOffsets("app", p.producerId() + 1, p.producerEpoch(), G)))
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @Test
    void theMembershipIsValidatedWithTheGroupCoordinator() throws Exception {
        JoinGroupResponseData joined = get(h.groups.joinGroup(new JoinGroupRequestData().setGroupId(G)
                .setSessionTimeoutMs(10_000).setRebalanceTimeoutMs(10_000).setMemberId("")
                .setGroupInstanceId("instance-1").setProtocolType("consumer")
                .setProtocols(List.of(new JoinGroupRequestProtocol().setName("range").setMetadata(new byte[0]))),
                (short) 5, "client", "/127.0.0.1"));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE);
        String member = joined.memberId();
        int generation = joined.generationId();
        TransactionCoordinator.InitResult p = initOk("app");
        get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G));
        assertThat(commitOffsets("app", p, G, "someone-else", generation, null, false, offset(0, 1)))
                .containsEntry(tp(0), Errors.UNKNOWN_MEMBER_ID);
        assertThat(commitOffsets("app", p, G, member, generation + 1, null, false, offset(0, 1)))
                .containsEntry(tp(0), Errors.ILLEGAL_GENERATION);
        assertThat(commitOffsets("app", p, G, "someone-else", generation, "instance-1", false, offset(0, 1)))
                .containsEntry(tp(0), Errors.FENCED_INSTANCE_ID);
        assertThat(fetchError(0)).isEqualTo(Errors.NONE);
        assertThat(commitOffsets("app", p, G, member, generation, "instance-1", false, offset(0, 1)))
                .containsEntry(tp(0), Errors.NONE);
        // older clients send no member: accepted (not checked against the group's state)
        assertThat(commitOffsets("app", p, G, "", -1, null, false, offset(1, 2))).containsEntry(tp(1), Errors.NONE);
    }

    @Test
    void pendingOffsetsSurviveARestartAndAreCommittedAfterIt() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G));
        commitOffsets("app", p, G, "", -1, null, false, offset(0, 10), offset(1, 11));
        h.restart();
        assertThat(fetchError(0)).isEqualTo(Errors.UNSTABLE_OFFSET_COMMIT);
        assertThat(fetchError(1)).isEqualTo(Errors.UNSTABLE_OFFSET_COMMIT);
        end("app", p.producerId(), p.producerEpoch(), true, false);
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        assertThat(h.groups.committedOffsets(G)).containsOnlyKeys(tp(0), tp(1));
        assertThat(h.groups.committedOffsets(G).get(tp(1)).offset()).isEqualTo(11);
    }

    @Test
    void aPrepareCommitCutByARestartCommitsItsOffsetsAtStart() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        add("app", p, tp(2));
        get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G));
        commitOffsets("app", p, G, "", -1, null, false, offset(0, 99));
        h.markers.down = true;
        end("app", p.producerId(), p.producerEpoch(), true, false);
        assertThat(h.groups.committedOffsets(G)).isEmpty(); // the offsets follow the markers
        h.restart();
        assertThat(state("app")).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(h.groups.committedOffsets(G).get(tp(0)).offset()).isEqualTo(99);
        assertThat(fetchError(0)).isEqualTo(Errors.NONE);
    }

    @Test
    void deletingTheGroupOrAnOffsetDropsItsPendingOffsetsAsKafka() throws Exception {
        TransactionCoordinator.InitResult p = initOk("app");
        get(c().addOffsets("app", p.producerId(), p.producerEpoch(), G));
        commitOffsets("app", p, G, "", -1, null, false, offset(0, 5), offset(1, 6));
        Map<TopicPartitionRef, Short> errors = new java.util.HashMap<>();
        assertThat(h.groups.offsets().delete(G, List.of(tp(1)), errors)).isEqualTo(Errors.NONE);
        assertThat(fetchError(1)).isEqualTo(Errors.NONE);
        assertThat(fetchError(0)).isEqualTo(Errors.UNSTABLE_OFFSET_COMMIT);
        end("app", p.producerId(), p.producerEpoch(), true, false);
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        assertThat(h.groups.committedOffsets(G)).containsOnlyKeys(tp(0));

        TransactionCoordinator.InitResult q = initOk("app");
        get(c().addOffsets("app", q.producerId(), q.producerEpoch(), G));
        commitOffsets("app", q, G, "", -1, null, false, offset(1, 9));
        assertThat(h.groups.admin().deleteGroup(G)).isEqualTo(Errors.NONE);
        assertThat(fetchError(1)).isEqualTo(Errors.NONE);
        end("app", q.producerId(), q.producerEpoch(), true, false);
        awaitState("app", TransactionState.COMPLETE_COMMIT);
        assertThat(h.groups.committedOffsets(G)).isEmpty();
    }
}
