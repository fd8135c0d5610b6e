package io.kaas.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AssignmentPlanTest {
    private static final TopicRecord A = new TopicRecord("a", new UUID(0, 1), 6, Map.of());
    private static final TopicRecord B = new TopicRecord("b", new UUID(0, 2), 3, Map.of());

    private static LiveBroker broker(int id, long epoch) {
        return new LiveBroker(new BrokerRegistration(id, List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT",
            "127.0.0.1", 9000 + id)), Optional.empty(), "localhost", 1), epoch);
    }

    private static Map<Integer, LiveBroker> live(LiveBroker... brokers) {
        Map<Integer, LiveBroker> out = new HashMap<>();
        for (LiveBroker b : brokers) {
            out.put(b.nodeId(), b);
        }
        return out;
    }

    /** The plan applied to {@code stored}, as the store would hold it after the write (versions aside). */
    private static Map<UUID, TopicAssignment> apply(Map<UUID, TopicAssignment> stored, AssignmentPlan plan) {
        Map<UUID, TopicAssignment> out = new HashMap<>(stored);
        plan.changes().forEach(a -> out.put(a.topicId(), new TopicAssignment(a.topicId(), a.topic(), a.partitions(),
            a.version() + 1)));
        return out;
    }

    private static Map<Integer, Integer> counts(Map<UUID, TopicAssignment> assignments) {
        return AssignmentPlan.counts(assignments.values());
    }

    @Test
    void newTopicsAreSpreadByCountWithTheirFirstEpochAndTheWritersBrokerEpoch() {
        Map<Integer, LiveBroker> live = live(broker(1, 100), broker(2, 200), broker(3, 300));
        AssignmentPlan plan = AssignmentPlan.of(List.of(A, B), Map.of(), live, Map.of(), true);
        assertThat(plan.changes()).hasSize(2).allSatisfy(a -> assertThat(a.version()).isEqualTo(TopicAssignment.NEW));
        Map<UUID, TopicAssignment> after = apply(Map.of(), plan);
        assertThat(counts(after)).containsExactlyInAnyOrderEntriesOf(Map.of(1, 3, 2, 3, 3, 3));
        assertThat(after.get(A.topicId()).partitions()).allSatisfy(l -> {
            assertThat(l.leaderEpoch()).isEqualTo(1);
            assertThat(l.leaderBrokerEpoch()).isEqualTo(live.get(l.leader()).brokerEpoch());
        });
        assertThat(AssignmentPlan.of(List.of(A, B), after, live, Map.of(), true).isEmpty()).as("nothing left to do")
            .isTrue();
    }

    @Test
    void aLeavingBrokersPartitionsGoToTheOthersWithTheNextEpochAndNothingElseMoves() {
        Map<Integer, LiveBroker> three = live(broker(1, 100), broker(2, 200), broker(3, 300));
        Map<UUID, TopicAssignment> before = apply(Map.of(), AssignmentPlan.of(List.of(A, B), Map.of(), three, Map.of(), true));
        Map<Integer, LiveBroker> two = live(broker(1, 100), broker(3, 300));
        Map<UUID, TopicAssignment> after = apply(before, AssignmentPlan.of(List.of(A, B), before, two, Map.of(), false));
        for (TopicRecord t : List.of(A, B)) {
            for (int p = 0; p < t.partitions(); p++) {
                PartitionLeader was = before.get(t.topicId()).partition(p);
                PartitionLeader now = after.get(t.topicId()).partition(p);
                if (was.leader() == 2) {
                    assertThat(now.leader()).isIn(1, 3);
                    assertThat(now.leaderEpoch()).isEqualTo(was.leaderEpoch() + 1);
                } else {
                    assertThat(now).as("no churn: %s-%d stays", t.name(), p).isEqualTo(was);
                }
            }
        }
        assertThat(counts(after)).containsExactlyInAnyOrderEntriesOf(Map.of(1, 5, 3, 4));
    }

    @Test
    void aRestartedBrokerIsANewRegistrationItsOldPartitionsAreGivenAgainWithAHigherEpoch() {
        Map<Integer, LiveBroker> before = live(broker(1, 100));
        Map<UUID, TopicAssignment> stored = apply(Map.of(), AssignmentPlan.of(List.of(B), Map.of(), before, Map.of(), true));
        Map<UUID, TopicAssignment> after = apply(stored, AssignmentPlan.of(List.of(B), stored, live(broker(1, 101)),
            Map.of(), false));
        assertThat(after.get(B.topicId()).partitions()).allSatisfy(l -> {
            assertThat(l.leader()).isEqualTo(1);
            assertThat(l.leaderEpoch()).isEqualTo(2);
            assertThat(l.leaderBrokerEpoch()).isEqualTo(101);
        });
    }

    @Test
    void aJoiningBrokerGetsItsShareWithinOneThroughHandOvers() {
        Map<Integer, LiveBroker> one = live(broker(1, 100));
        Map<UUID, TopicAssignment> stored = apply(Map.of(), AssignmentPlan.of(List.of(A, B), Map.of(), one, Map.of(), true));
        assertThat(counts(stored)).containsExactly(Map.entry(1, 9));
        Map<Integer, LiveBroker> two = live(broker(1, 100), broker(2, 200));
        // first step: the partitions that move are released by their live writer (no leader, the next epoch)
        Map<UUID, TopicAssignment> released = apply(stored, AssignmentPlan.of(List.of(A, B), stored, two, Map.of(), true));
        assertThat(counts(released)).containsExactlyInAnyOrderEntriesOf(Map.of(1, 5, -1, 4));
        Set<TopicPartitionRef> held = releasedRefs(released);
        assertThat(held).hasSize(4);
        released.values().forEach(a -> a.partitions().stream().filter(AssignmentPlan::isReleased)
                .forEach(l -> assertThat(l.leaderEpoch()).isEqualTo(2)));
        // while the hand-over lasts they stay released; a rebalance does not take others
        assertThat(AssignmentPlan.of(List.of(A, B), released, two, Map.of(), true, held).isEmpty()).isTrue();
        // then they go to the broker that joined, at the epoch after the release
        Map<UUID, TopicAssignment> after = apply(released, AssignmentPlan.of(List.of(A, B), released, two, Map.of(), false));
        assertThat(counts(after)).containsExactlyInAnyOrderEntriesOf(Map.of(1, 5, 2, 4));
        after.values().forEach(a -> a.partitions().stream().filter(l -> l.leader() == 2)
                .forEach(l -> assertThat(l.leaderEpoch()).isEqualTo(3)));
        assertThat(AssignmentPlan.of(List.of(A, B), after, two, Map.of(), true).isEmpty()).isTrue();
    }

    @Test
    void aMoveRequestReleasesThePartitionThenHandsItToItsTargetAndIsDoneOnceThere() {
        Map<Integer, LiveBroker> live = live(broker(1, 100), broker(2, 200));
        Map<UUID, TopicAssignment> stored = apply(Map.of(), AssignmentPlan.of(List.of(B), Map.of(), live, Map.of(), true));
        PartitionLeader was = stored.get(B.topicId()).partition(0);
        int target = was.leader() == 1 ? 2 : 1;
        TopicPartitionRef ref = new TopicPartitionRef("b", 0);
        AssignmentPlan release = AssignmentPlan.of(List.of(B), stored, live, Map.of(ref, target), false);
        assertThat(release.movesDone()).as("not done while released").isEmpty();
        Map<UUID, TopicAssignment> released = apply(stored, release);
        assertThat(released.get(B.topicId()).partition(0)).isEqualTo(PartitionLeader.none(was.leaderEpoch() + 1));
        assertThat(AssignmentPlan.of(List.of(B), released, live, Map.of(ref, target), false, Set.of(ref)).isEmpty())
            .as("held during the hand-over").isTrue();
        AssignmentPlan plan = AssignmentPlan.of(List.of(B), released, live, Map.of(ref, target), false);
        assertThat(plan.movesDone()).containsExactly(ref);
        Map<UUID, TopicAssignment> after = apply(released, plan);
        assertThat(after.get(B.topicId()).partition(0)).isEqualTo(new PartitionLeader(target, was.leaderEpoch() + 2,
            live.get(target).brokerEpoch()));
        assertThat(after.get(B.topicId()).partition(1)).isEqualTo(stored.get(B.topicId()).partition(1));
        assertThat(AssignmentPlan.of(List.of(B), after, live, Map.of(), false).isEmpty())
            .as("the move stays without a rebalance").isTrue();
    }

    private static Set<TopicPartitionRef> releasedRefs(Map<UUID, TopicAssignment> assignments) {
        Set<TopicPartitionRef> out = new java.util.HashSet<>();
        assignments.values().forEach(a -> {
            for (int p = 0; p < a.partitions().size(); p++) {
                if (AssignmentPlan.isReleased(a.partition(p))) {
                    out.add(new TopicPartitionRef(a.topic(), p));
                }
            }
        });
        return out;
    }

    @Test
    void aMoveToABrokerThatIsNotLiveIsDroppedAndNoBrokerMeansNoPlan() {
        Map<Integer, LiveBroker> live = live(broker(1, 100));
        Map<UUID, TopicAssignment> stored = apply(Map.of(), AssignmentPlan.of(List.of(B), Map.of(), live, Map.of(), true));
        AssignmentPlan plan = AssignmentPlan.of(List.of(B), stored, live, Map.of(new TopicPartitionRef("b", 1), 7), false);
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.movesDone()).containsExactly(new TopicPartitionRef("b", 1));
        assertThat(AssignmentPlan.of(List.of(B), stored, Map.of(), Map.of(), true).isEmpty()).isTrue();
    }

    @Test
    void morePartitionsAreAssignedAndADeletedTopicIsLeftAlone() {
        Map<Integer, LiveBroker> live = live(broker(1, 100), broker(2, 200));
        Map<UUID, TopicAssignment> stored = apply(Map.of(), AssignmentPlan.of(List.of(A, B), Map.of(), live, Map.of(), true));
        TopicRecord bigger = B.withPartitions(5);
        AssignmentPlan plan = AssignmentPlan.of(List.of(bigger), stored, live, Map.of(), false);
        assertThat(plan.changes()).singleElement().satisfies(a -> {
            assertThat(a.topic()).isEqualTo("b");
            assertThat(a.partitions()).hasSize(5).allSatisfy(l -> assertThat(l.hasLeader()).isTrue());
            assertThat(a.partitions().subList(0, 3)).isEqualTo(stored.get(B.topicId()).partitions());
        });
    }
}
