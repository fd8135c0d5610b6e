package io.kaas.coordinator.group;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import java.io.UncheckedIOException;
import io.kaas.coordinator.group.assignor.ConsumerAssignors;
import io.kaas.wire.protocol.Errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData.TopicPartitions;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroup;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.message.ListGroupsResponseData.ListedGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The KIP-848 consumer protocol on a {@link ManualTimer}: epochs, reconciliation, fencing, leave, timeouts. */
@Timeout(20)
class ConsumerProtocolTest {
    static final String G = "cg";
    static final int REBALANCE = 30_000;

    ManualTimer timer;
    @TempDir
    Path dir;
    InMemoryStore store;
    EngineOffsets offsetsLog;
    GroupCoordinator coordinator;
    UUID orders;

    @BeforeEach
    void setUp() {
        timer = new ManualTimer();
        store = new InMemoryStore().withTopic("orders", 6);
        orders = store.topic("orders").orElseThrow().topicId();
        start(immediate());
    }

    /**
     * Kafka's defaults but a target assignment at every change ({@code group.consumer.assignment.interval.ms=0}), so
     * that the tests of reconciliation need not move time between heartbeats.
     */
    static GroupCoordinatorConfig immediate() {
        return GroupCoordinatorConfig.defaults().withConsumerAssignmentIntervalMs(0);
    }

    void start(GroupCoordinatorConfig config) {
        if (coordinator != null) {
            coordinator.close();
        }
        try {
            if (offsetsLog == null) {
                offsetsLog = EngineOffsets.open(dir);
            }
            coordinator = new GroupCoordinator(store, config, timer, offsetsLog);
            coordinator.start();
            offsetsLog.gainAll(coordinator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        coordinator.close();
        offsetsLog.close();
    }

    // ---- helpers ----

    ConsumerGroupHeartbeatResponseData send(ConsumerGroupHeartbeatRequestData r) {
        return coordinator.consumerGroupHeartbeat(r, (short) 1, "client", "/127.0.0.1");
    }

    static ConsumerGroupHeartbeatRequestData joinRequest(String memberId, String... topics) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId(memberId).setMemberEpoch(0)
                .setRebalanceTimeoutMs(REBALANCE).setSubscribedTopicNames(List.of(topics)).setTopicPartitions(new ArrayList<>());
    }

    ConsumerGroupHeartbeatResponseData join(String memberId, String... topics) {
        return send(joinRequest(memberId, topics));
    }

    /** A plain heartbeat reporting the partitions of {@code orders} it owns (null: not reported). */
    ConsumerGroupHeartbeatResponseData beat(String memberId, int epoch, Set<Integer> owned) {
        ConsumerGroupHeartbeatRequestData r = new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId(memberId)
                .setMemberEpoch(epoch);
        if (owned != null) {
            r.setTopicPartitions(new ArrayList<>(List.of(new TopicPartitions().setTopicId(orders)
                    .setPartitions(new ArrayList<>(owned)))));
        }
        return send(r);
    }

    static Set<Integer> partitions(ConsumerGroupHeartbeatResponseData r, UUID topic) {
        Set<Integer> out = new TreeSet<>();
        r.assignment().topicPartitions().stream().filter(tp -> tp.topicId().equals(topic))
                .forEach(tp -> out.addAll(tp.partitions()));
        return out;
    }

    Set<Integer> partitions(ConsumerGroupHeartbeatResponseData r) {
        return partitions(r, orders);
    }

    ConsumerGroup group() {
        return coordinator.consumerGroup(G);
    }

    static Set<Integer> range(int from, int to) {
        Set<Integer> out = new TreeSet<>();
        for (int i = from; i < to; i++) {
            out.add(i);
        }
        return out;
    }

    // ---- joins and reconciliation ----

    @Test
    void firstMemberGetsEveryPartitionAtEpochOne() {
        ConsumerGroupHeartbeatResponseData r = join("a", "orders");
        assertThat(r.errorCode()).isZero();
        assertThat(r.memberId()).isEqualTo("a");
        assertThat(r.memberEpoch()).isEqualTo(1);
        assertThat(r.heartbeatIntervalMs()).isEqualTo(5000);
        assertThat(partitions(r)).isEqualTo(range(0, 6));
        assertThat(group().state()).isEqualTo(ConsumerGroup.State.STABLE);
        // a heartbeat with nothing new carries no assignment
        assertThat(beat("a", 1, range(0, 6)).assignment()).isNull();
    }

    @Test
    void newOwnerGetsAPartitionOnlyAfterThePreviousOwnerRevokedIt() {
        join("a", "orders");
        ConsumerGroupHeartbeatResponseData b = join("b", "orders");
        assertThat(b.memberEpoch()).isEqualTo(2);
        assertThat(partitions(b)).as("a still owns everything").isEmpty();
        assertThat(group().state()).isEqualTo(ConsumerGroup.State.RECONCILING);

        ConsumerGroupHeartbeatResponseData a = beat("a", 1, range(0, 6));
        assertThat(a.memberEpoch()).as("a keeps its epoch until it revokes").isEqualTo(1);
        Set<Integer> kept = partitions(a);
        assertThat(kept).hasSize(3);
        Set<Integer> revoked = new TreeSet<>(range(0, 6));
        revoked.removeAll(kept);

        assertThat(beat("b", 2, Set.of()).assignment()).isNull(); // b waits for the unreleased partitions
        assertThat(beat("a", 1, range(0, 6)).assignment()).as("still revoking").isNull();
        assertThat(beat("b", 2, Set.of()).assignment()).isNull();

        ConsumerGroupHeartbeatResponseData aDone = beat("a", 1, kept);
        assertThat(aDone.memberEpoch()).isEqualTo(2);
        ConsumerGroupHeartbeatResponseData bNow = beat("b", 2, Set.of());
        assertThat(partitions(bNow)).isEqualTo(revoked);
        assertThat(beat("b", 2, revoked).errorCode()).isZero();
        assertThat(group().state()).isEqualTo(ConsumerGroup.State.STABLE);
    }

    @Test
    void memberThatReportsTheRevocationInItsFirstAnswerMovesOnAtOnce() {
        join("a", "orders");
        join("b", "orders");
        ConsumerGroupHeartbeatResponseData a = beat("a", 1, range(0, 3)); // already gave up 3..5 (say)
        // a owns only part of its old assignment: revocation needs no wait for what it reports gone
        assertThat(a.errorCode()).isZero();
        assertThat(group().members.get("a").state).isIn(ConsumerMember.State.STABLE, ConsumerMember.State.UNREVOKED_PARTITIONS);
    }

    @Test
    void leaveGivesThePartitionsToTheOthers() {
        join("a", "orders");
        join("b", "orders");
        Set<Integer> kept = partitions(beat("a", 1, range(0, 6)));
        beat("a", 1, kept);
        Set<Integer> bParts = partitions(beat("b", 2, Set.of()));
        int epochBefore = group().groupEpoch;

        ConsumerGroupHeartbeatResponseData left = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G)
                .setMemberId("b").setMemberEpoch(-1));
        assertThat(left.errorCode()).isZero();
        assertThat(left.memberEpoch()).isEqualTo(-1);
        assertThat(group().groupEpoch).isEqualTo(epochBefore + 1);

        ConsumerGroupHeartbeatResponseData a = beat("a", 2, kept);
        assertThat(a.memberEpoch()).isEqualTo(epochBefore + 1);
        assertThat(partitions(a)).isEqualTo(range(0, 6));
        assertThat(bParts).hasSize(3);
    }

    @Test
    void sessionTimeoutRemovesTheSilentMember() {
        join("a", "orders");
        join("b", "orders");
        Set<Integer> kept = partitions(beat("a", 1, range(0, 6)));
        beat("a", 1, kept);
        beat("b", 2, Set.of());
        Set<Integer> latest = kept;
        int epoch = 2;
        for (int i = 0; i < 10; i++) {
            timer.advance(5_000);
            ConsumerGroupHeartbeatResponseData r = beat("a", epoch, latest);
            epoch = r.memberEpoch();
            if (r.assignment() != null) {
                latest = partitions(r);
            }
        }
        assertThat(group().members).containsOnlyKeys("a");
        assertThat(latest).isEqualTo(range(0, 6));
        assertThat(epoch).isEqualTo(3);
    }

    @Test
    void rebalanceTimeoutFencesAMemberThatDoesNotRevoke() {
        ConsumerGroupHeartbeatRequestData first = joinRequest("a", "orders").setRebalanceTimeoutMs(10_000);
        send(first);
        join("b", "orders");
        beat("a", 1, range(0, 6)); // a is asked to revoke, never does
        timer.advance(4_000);
        beat("a", 1, range(0, 6));
        beat("b", 2, Set.of());
        timer.advance(7_000);
        assertThat(group().members).containsOnlyKeys("b");
        assertThat(beat("a", 1, range(0, 6)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(partitions(beat("b", 2, Set.of()))).isEqualTo(range(0, 6));
    }

    // ---- fencing and errors ----

    @Test
    void epochsOtherThanTheCurrentOrTheLostPreviousAreFenced() {
        join("a", "orders");
        join("b", "orders");
        Set<Integer> kept = partitions(beat("a", 1, range(0, 6)));
        beat("a", 1, kept); // a at epoch 2 now, previous 1
        assertThat(beat("a", 3, kept).errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH);
        assertThat(beat("a", 3, kept).errorMessage()).contains("greater member epoch (3)");
        // the answer with epoch 2 was lost: epoch 1 with a subset of the assignment is accepted
        ConsumerGroupHeartbeatResponseData lost = beat("a", 1, kept);
        assertThat(lost.errorCode()).isZero();
        assertThat(lost.memberEpoch()).isEqualTo(2);
        // epoch 1 claiming partitions it no longer has is fenced
        assertThat(beat("a", 1, range(0, 6)).errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH);
        assertThat(beat("a", 1, null).errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH);
    }

    @Test
    void fencedMemberRejoinsWithEpochZeroAndGetsPartitionsBack() {
        join("a", "orders");
        assertThat(beat("a", 7, range(0, 6)).errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH);
        ConsumerGroupHeartbeatResponseData again = join("a", "orders");
        assertThat(again.errorCode()).isZero();
        assertThat(again.memberEpoch()).isEqualTo(1);
        assertThat(partitions(again)).isEqualTo(range(0, 6));
    }

    @Test
    void unknownMembersAndGroupsAnswerUnknownMemberId() {
        assertThat(beat("x", 1, Set.of()).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(beat("x", 1, Set.of()).errorMessage()).isEqualTo("Consumer group cg not found.");
        join("a", "orders");
        ConsumerGroupHeartbeatResponseData r = beat("x", 1, Set.of());
        assertThat(r.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(r.errorMessage()).isEqualTo("Member x is not a member of group cg.");
    }

    @Test
    void aMemberJoinsWithAnEmptySubscriptionAndLaterSubscribes() {
        ConsumerGroupHeartbeatResponseData empty = join("a");
        assertThat(empty.errorCode()).as(empty.errorMessage()).isEqualTo(Errors.NONE);
        assertThat(empty.memberEpoch()).isPositive();
        assertThat(partitions(empty)).isEmpty();
        ConsumerGroupHeartbeatResponseData subscribed = send(joinRequest("a", "orders").setMemberEpoch(empty.memberEpoch()));
        assertThat(subscribed.errorCode()).as(subscribed.errorMessage()).isEqualTo(Errors.NONE);
        assertThat(partitions(subscribed)).isEqualTo(range(0, 6));
    }

    @Test
    void invalidRequestsAreRefusedWithKafkasMessages() {
        assertThat(send(joinRequest("a", "orders").setGroupId("")).errorMessage()).isEqualTo("GroupId can't be empty.");
        assertThat(send(joinRequest("", "orders")).errorMessage()).isEqualTo("MemberId can't be empty.");
        assertThat(send(joinRequest("a", "orders").setRebalanceTimeoutMs(-1)).errorMessage())
                .isEqualTo("RebalanceTimeoutMs must be provided in first request.");
        assertThat(send(joinRequest("a", "orders").setTopicPartitions(new ArrayList<>(List.of(new TopicPartitions()
                .setTopicId(orders).setPartitions(new ArrayList<>(List.of(0))))))).errorMessage())
                .isEqualTo("TopicPartitions must be empty when (re-)joining.");
        assertThat(send(joinRequest("a").setSubscribedTopicNames(null)).errorMessage())
                .isEqualTo("Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.");
        assertThat(send(joinRequest("a", "orders").setInstanceId("")).errorMessage()).isEqualTo("InstanceId can't be empty.");
        assertThat(send(joinRequest("a", "orders").setMemberEpoch(-3)).errorMessage()).isEqualTo("MemberEpoch is invalid.");
        assertThat(send(joinRequest("a", "orders").setMemberEpoch(-2)).errorMessage()).isEqualTo("InstanceId can't be null.");
        assertThat(send(joinRequest("a", "orders").setMemberEpoch(-3)).errorCode()).isEqualTo(Errors.INVALID_REQUEST);

        ConsumerGroupHeartbeatResponseData assignor = send(joinRequest("a", "orders").setServerAssignor("sticky"));
        assertThat(assignor.errorCode()).isEqualTo(Errors.UNSUPPORTED_ASSIGNOR);
        assertThat(assignor.errorMessage()).isEqualTo("ServerAssignor sticky is not supported. Supported assignors: uniform, range.");

        ConsumerGroupHeartbeatResponseData regex = send(joinRequest("a").setSubscribedTopicRegex("ord[ers"));
        assertThat(regex.errorCode()).isEqualTo(Errors.INVALID_REGULAR_EXPRESSION);
        assertThat(coordinator.consumerGroup(G)).as("no group is created by a refused request").isNull();
    }

    @Test
    void aJoinWithoutTopicPartitionsIsAcceptedAsKafka44AcceptsIt() {
        ConsumerGroupHeartbeatResponseData r = send(joinRequest("a", "orders").setTopicPartitions(null));
        assertThat(r.errorCode()).isZero();
        assertThat(partitions(r)).isEqualTo(range(0, 6));
    }

    @Test
    void version0LetsTheCoordinatorGenerateTheMemberId() {
        ConsumerGroupHeartbeatResponseData r = coordinator.consumerGroupHeartbeat(joinRequest("", "orders"), (short) 0,
                "client", "/127.0.0.1");
        assertThat(r.errorCode()).isZero();
        assertThat(r.memberId()).isNotEmpty();
        assertThat(group().members).containsOnlyKeys(r.memberId());
    }

    @Test
    void groupMaxSizeIsEnforced() {
        start(immediate().withConsumerMaxSize(1));
        join("a", "orders");
        ConsumerGroupHeartbeatResponseData b = join("b", "orders");
        assertThat(b.errorCode()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(b.errorMessage()).isEqualTo("The consumer group has reached its maximum capacity of 1 members.");
    }

    // ---- static members ----

    @Test
    void staticMemberLeavesWithMinusTwoAndItsNextIncarnationTakesOverWithoutRebalance() {
        send(joinRequest("a1", "orders").setInstanceId("i-a"));
        send(joinRequest("b", "orders"));
        Set<Integer> kept = partitions(beat("a1", 1, range(0, 6)));
        beat("a1", 1, kept);
        beat("b", 2, Set.of());
        int groupEpoch = group().groupEpoch;

        ConsumerGroupHeartbeatResponseData left = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G)
                .setMemberId("a1").setInstanceId("i-a").setMemberEpoch(-2));
        assertThat(left.errorCode()).isZero();
        assertThat(left.memberEpoch()).isEqualTo(-2);

        ConsumerGroupHeartbeatResponseData a2 = send(joinRequest("a2", "orders").setInstanceId("i-a"));
        assertThat(a2.errorCode()).isZero();
        assertThat(a2.memberEpoch()).isEqualTo(2);
        assertThat(partitions(a2)).isEqualTo(kept);
        assertThat(group().groupEpoch).as("no rebalance").isEqualTo(groupEpoch);
        assertThat(group().members).containsOnlyKeys("b", "a2");

        ConsumerGroupHeartbeatResponseData a3 = send(joinRequest("a3", "orders").setInstanceId("i-a"));
        assertThat(a3.errorCode()).isEqualTo(Errors.UNRELEASED_INSTANCE_ID);
    }

    @Test
    void staticMemberThatDoesNotComeBackIsRemovedAfterTheSessionTimeout() {
        send(joinRequest("a1", "orders").setInstanceId("i-a"));
        send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a1").setInstanceId("i-a").setMemberEpoch(-2));
        timer.advance(44_000);
        assertThat(group().members).containsOnlyKeys("a1");
        timer.advance(2_000);
        assertThat(group().members).isEmpty();
        assertThat(group().state()).isEqualTo(ConsumerGroup.State.EMPTY);
    }

    // ---- subscriptions ----

    ConsumerGroupHeartbeatRequestData regexJoin(String memberId, String regex, String... topics) {
        return joinRequest(memberId, topics).setSubscribedTopicRegex(regex);
    }

    /** A heartbeat that reports owning {@code owned} (topic id → partitions) and changes nothing else. */
    ConsumerGroupHeartbeatResponseData beatOwning(String memberId, int epoch, Map<UUID, Set<Integer>> owned) {
        List<TopicPartitions> tps = new ArrayList<>();
        owned.forEach((t, ps) -> tps.add(new TopicPartitions().setTopicId(t).setPartitions(new ArrayList<>(ps))));
        return send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId(memberId).setMemberEpoch(epoch)
                .setTopicPartitions(tps));
    }

    static Map<UUID, Set<Integer>> all(ConsumerGroupHeartbeatResponseData r) {
        Map<UUID, Set<Integer>> out = new HashMap<>();
        r.assignment().topicPartitions().forEach(tp -> out.put(tp.topicId(), new TreeSet<>(tp.partitions())));
        return out;
    }

    @Test
    void aNewRegexIsResolvedAfterTheHeartbeatSoTheLiteralTopicsComeFirst() {
        store.withTopic("payments", 2);
        UUID payments = store.topic("payments").orElseThrow().topicId();
        store.createTopic(new TopicRecord("orders-eu", UUID.randomUUID(), 2, Map.of()));
        UUID eu = store.topic("orders-eu").orElseThrow().topicId();

        ConsumerGroupHeartbeatResponseData first = send(regexJoin("a", "ord.*", "payments"));
        assertThat(first.errorCode()).isZero();
        assertThat(all(first)).as("the literal topic only").isEqualTo(Map.of(payments, Set.of(0, 1)));
        int epoch = first.memberEpoch();

        timer.advance(0); // the resolution runs off the heartbeat
        assertThat(group().resolvedRegexes).isEqualTo(Map.of("ord.*", Set.of("orders", "orders-eu")));
        assertThat(group().groupEpoch).as("the resolution bumps the group epoch").isEqualTo(epoch + 1);

        ConsumerGroupHeartbeatResponseData next = beatOwning("a", epoch, Map.of(payments, Set.of(0, 1)));
        assertThat(next.memberEpoch()).isEqualTo(epoch + 1);
        assertThat(all(next)).isEqualTo(Map.of(payments, Set.of(0, 1), orders, range(0, 6), eu, Set.of(0, 1)));
    }

    @Test
    void aRegexAlreadyResolvedInTheGroupIsAssignedAtOnce() {
        send(regexJoin("a", "ord.*"));
        timer.advance(0);
        ConsumerGroupHeartbeatResponseData a = beatOwning("a", 1, Map.of());
        assertThat(partitions(a)).isEqualTo(range(0, 6));

        ConsumerGroupHeartbeatResponseData b = send(regexJoin("b", "ord.*"));
        assertThat(b.memberEpoch()).isEqualTo(group().groupEpoch);
        assertThat(group().targetAssignment.get("b").get(orders)).hasSize(3);
    }

    @Test
    void aTopicCreatedLaterIsMatchedAtTheFirstHeartbeatAfterTheMinimumInterval() {
        send(regexJoin("a", "ord.*"));
        timer.advance(0);
        Set<Integer> own = partitions(beatOwning("a", 1, Map.of()));
        assertThat(own).isEqualTo(range(0, 6));
        store.createTopic(new TopicRecord("orders-eu", UUID.randomUUID(), 2, Map.of()));
        UUID eu = store.topic("orders-eu").orElseThrow().topicId();

        timer.advance(RegexResolution.MIN_REFRESH_INTERVAL_MS - 1_000);
        ConsumerGroupHeartbeatResponseData early = beatOwning("a", 2, Map.of(orders, own));
        timer.advance(0);
        assertThat(early.memberEpoch()).isEqualTo(2);
        assertThat(group().resolvedRegexes.get("ord.*")).as("not within 10 s of the last resolution")
                .containsExactly("orders");

        timer.advance(1_001);
        ConsumerGroupHeartbeatResponseData due = beatOwning("a", 2, Map.of(orders, own));
        assertThat(due.memberEpoch()).as("this heartbeat only starts the resolution").isEqualTo(2);
        timer.advance(0);
        ConsumerGroupHeartbeatResponseData next = beatOwning("a", 2, Map.of(orders, own));
        assertThat(next.memberEpoch()).isEqualTo(3);
        assertThat(partitions(next, eu)).containsExactly(0, 1);
    }

    @Test
    void theRegexesAreResolvedAgainAfterTheRefreshInterval() {
        start(immediate().withConsumerRegexRefreshIntervalMs(60_000));
        send(regexJoin("a", "ord.*"));
        timer.advance(0);
        beatOwning("a", 1, Map.of());
        long resolvedAt = group().regexesResolvedAtMs;
        timer.advance(30_000);
        beatOwning("a", 2, Map.of(orders, range(0, 6)));
        timer.advance(0);
        assertThat(group().regexesResolvedAtMs).as("no new topic, interval not over").isEqualTo(resolvedAt);
        timer.advance(30_001);
        beatOwning("a", 2, Map.of(orders, range(0, 6)));
        timer.advance(0);
        assertThat(group().regexesResolvedAtMs).isGreaterThan(resolvedAt);
        assertThat(group().groupEpoch).as("same topics: no rebalance").isEqualTo(2);
    }

    @Test
    void aRegexResolvesOnlyToTopicsTheTriggeringHeartbeatsFilterAdmits() {
        store.createTopic(new TopicRecord("orders-secret", UUID.randomUUID(), 2, Map.of()));
        ConsumerGroupHeartbeatResponseData r = coordinator.consumerGroupHeartbeat(regexJoin("a", "ord.*"), (short) 1,
                "client", "/127.0.0.1", name -> !name.equals("orders-secret"));
        assertThat(r.errorCode()).isZero();
        timer.advance(0);
        assertThat(group().resolvedRegexes.get("ord.*")).containsExactly("orders");
        ConsumerGroupHeartbeatResponseData next = beatOwning("a", r.memberEpoch(), Map.of());
        assertThat(all(next)).isEqualTo(Map.of(orders, range(0, 6)));
        assertThat(group().subscriptionMetadata).containsOnlyKeys("orders");
    }

    @Test
    void anInvalidRegexIsRefusedAndChangesNothing() {
        join("a", "orders");
        int epoch = group().groupEpoch;
        ConsumerGroupHeartbeatResponseData r = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a")
                .setMemberEpoch(1).setSubscribedTopicRegex("(ord"));
        assertThat(r.errorCode()).isEqualTo(Errors.INVALID_REGULAR_EXPRESSION);
        assertThat(r.errorMessage()).startsWith("SubscribedTopicRegex `(ord` is not a valid regular expression: ");
        timer.advance(0);
        assertThat(group().members.get("a").subscribedTopicRegex).isNull();
        assertThat(group().groupEpoch).isEqualTo(epoch);
        assertThat(group().resolvedRegexes).isEmpty();
    }

    @Test
    void leavingTheRegexForTopicNamesRevokesItsTopicsAndForgetsIt() {
        store.withTopic("payments", 2);
        UUID payments = store.topic("payments").orElseThrow().topicId();
        send(regexJoin("a", "ord.*"));
        timer.advance(0);
        beatOwning("a", 1, Map.of());
        ConsumerGroupHeartbeatResponseData r = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a")
                .setMemberEpoch(2).setSubscribedTopicRegex("").setSubscribedTopicNames(List.of("payments"))
                .setTopicPartitions(new ArrayList<>(List.of(new TopicPartitions().setTopicId(orders)
                        .setPartitions(new ArrayList<>(range(0, 6)))))));
        assertThat(r.memberEpoch()).as("orders must be revoked first").isEqualTo(2);
        assertThat(r.assignment().topicPartitions()).isEmpty();
        assertThat(group().resolvedRegexes).isEmpty();
        ConsumerGroupHeartbeatResponseData done = beatOwning("a", 2, Map.of());
        assertThat(all(done)).isEqualTo(Map.of(payments, Set.of(0, 1)));
    }

    @Test
    void aTargetIsComputedAtMostOncePerAssignmentInterval() {
        start(GroupCoordinatorConfig.defaults());
        store.withTopic("payments", 2);
        UUID payments = store.topic("payments").orElseThrow().topicId();
        ConsumerGroupHeartbeatResponseData a = join("a", "orders");
        assertThat(partitions(a)).as("a group's first target at once").isEqualTo(range(0, 6));

        timer.advance(200);
        ConsumerGroupHeartbeatResponseData changed = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G)
                .setMemberId("a").setMemberEpoch(1).setSubscribedTopicNames(List.of("orders", "payments")));
        assertThat(group().groupEpoch).isEqualTo(2);
        assertThat(changed.memberEpoch()).as("no new target within the interval").isEqualTo(1);
        assertThat(group().state()).isEqualTo(ConsumerGroup.State.ASSIGNING);

        timer.advance(800);
        ConsumerGroupHeartbeatResponseData later = beat("a", 1, range(0, 6));
        assertThat(later.memberEpoch()).isEqualTo(2);
        assertThat(partitions(later, payments)).containsExactly(0, 1);
    }

    @Test
    void theNextMemberOfAGroupLeftEmptyIsAssignedAtOnce() {
        start(GroupCoordinatorConfig.defaults());
        store.withTopic("payments", 2);
        UUID payments = store.topic("payments").orElseThrow().topicId();
        join("a", "orders");
        timer.advance(10);
        send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a").setMemberEpoch(-1));
        assertThat(group().state()).isEqualTo(ConsumerGroup.State.EMPTY);
        timer.advance(10);
        ConsumerGroupHeartbeatResponseData again = join("a", "payments");
        assertThat(again.memberEpoch()).isEqualTo(group().groupEpoch);
        assertThat(all(again)).isEqualTo(Map.of(payments, Set.of(0, 1)));
    }

    @Test
    void aTopicLeftWithinTheAssignmentIntervalIsRevokedAtOnce() {
        start(GroupCoordinatorConfig.defaults());
        store.withTopic("payments", 2);
        UUID payments = store.topic("payments").orElseThrow().topicId();
        ConsumerGroupHeartbeatResponseData a = join("a", "orders", "payments");
        assertThat(all(a)).isEqualTo(Map.of(orders, range(0, 6), payments, Set.of(0, 1)));

        ConsumerGroupHeartbeatResponseData r = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G)
                .setMemberId("a").setMemberEpoch(1).setSubscribedTopicNames(List.of("orders")));
        assertThat(r.memberEpoch()).isEqualTo(1);
        assertThat(all(r)).as("payments revoked before any new target").isEqualTo(Map.of(orders, range(0, 6)));
        assertThat(group().members.get("a").state).isEqualTo(ConsumerMember.State.UNREVOKED_PARTITIONS);
    }

    @Test
    void rapidSubscribeUnsubscribeAndResubscribeEndOnTheLastSubscription() {
        start(GroupCoordinatorConfig.defaults());
        for (int i = 0; i < 5; i++) {
            store.withTopic("t" + i, 2);
        }
        UUID t4 = store.topic("t4").orElseThrow().topicId();
        ConsumerGroupHeartbeatResponseData r = join("a", "t0");
        int epoch = r.memberEpoch();
        for (int i = 1; i < 4; i++) {
            r = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a").setMemberEpoch(epoch)
                    .setSubscribedTopicNames(List.of("t" + i)));
            assertThat(r.errorCode()).isZero();
            timer.advance(10);
        }
        assertThat(send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a").setMemberEpoch(-1))
                .memberEpoch()).isEqualTo(-1);
        r = send(regexJoin("a", "t[4]"));
        assertThat(r.errorCode()).isZero();
        for (int i = 0; i < 10 && (r.assignment() == null || !all(r).equals(Map.of(t4, Set.of(0, 1)))); i++) {
            timer.advance(1_000);
            Map<UUID, Set<Integer>> have = r.assignment() == null ? Map.of() : all(r);
            r = beatOwning("a", r.memberEpoch(), have);
        }
        assertThat(all(r)).isEqualTo(Map.of(t4, Set.of(0, 1)));
    }

    @Test
    void subscriptionChangeBumpsTheGroupEpoch() {
        store.withTopic("payments", 3);
        UUID payments = store.topic("payments").orElseThrow().topicId();
        join("a", "orders");
        ConsumerGroupHeartbeatResponseData r = send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a")
                .setMemberEpoch(1).setSubscribedTopicNames(List.of("payments")));
        assertThat(r.memberEpoch()).as("must revoke orders first").isEqualTo(1);
        assertThat(r.assignment().topicPartitions()).isEmpty();
        ConsumerGroupHeartbeatResponseData done = beat("a", 1, Set.of());
        assertThat(done.memberEpoch()).isEqualTo(2);
        assertThat(partitions(done, payments)).containsExactly(0, 1, 2);
    }

    // ---- assignors ----

    static ConsumerAssignors.Member member(String id, Set<UUID> topics) {
        return new ConsumerAssignors.Member(id, topics, Map.of());
    }

    @Test
    void uniformAssignorBalancesAndIsSticky() {
        UUID t = UUID.randomUUID();
        Map<UUID, ConsumerAssignors.Topic> topics = Map.of(t, new ConsumerAssignors.Topic(t, "t", 7));
        var first = ConsumerAssignors.assign("uniform", List.of(member("a", Set.of(t)), member("b", Set.of(t))), topics);
        assertThat(first.get("a").get(t).size() + first.get("b").get(t).size()).isEqualTo(7);
        assertThat(Math.abs(first.get("a").get(t).size() - first.get("b").get(t).size())).isLessThanOrEqualTo(1);

        var second = ConsumerAssignors.assign("uniform", List.of(
                new ConsumerAssignors.Member("a", Set.of(t), first.get("a")),
                new ConsumerAssignors.Member("b", Set.of(t), first.get("b")),
                member("c", Set.of(t))), topics);
        Set<Integer> all = new HashSet<>();
        for (String m : List.of("a", "b", "c")) {
            Set<Integer> ps = second.get(m).getOrDefault(t, Set.of());
            assertThat(ps.size()).isBetween(2, 3);
            ps.forEach(p -> assertThat(all.add(p)).as("partition %s assigned once", p).isTrue());
        }
        assertThat(all).isEqualTo(range(0, 7));
        assertThat(first.get("a").get(t)).containsAll(second.get("a").get(t)); // a only lost partitions
        assertThat(first.get("b").get(t)).containsAll(second.get("b").get(t));
    }

    @Test
    void uniformAssignorHonoursDifferentSubscriptions() {
        UUID t1 = UUID.randomUUID();
        UUID t2 = UUID.randomUUID();
        Map<UUID, ConsumerAssignors.Topic> topics = Map.of(t1, new ConsumerAssignors.Topic(t1, "t1", 4),
                t2, new ConsumerAssignors.Topic(t2, "t2", 2));
        var out = ConsumerAssignors.assign("uniform", List.of(member("a", Set.of(t1)), member("b", Set.of(t1, t2))), topics);
        assertThat(out.get("a")).containsOnlyKeys(t1);
        assertThat(out.get("b").get(t2)).containsExactly(0, 1);
        assertThat(out.get("a").get(t1).size() + out.get("b").getOrDefault(t1, Set.of()).size()).isEqualTo(4);
        assertThat(out.get("a").get(t1).size()).isEqualTo(3); // 3 + (1 + 2): as even as the subscriptions allow
    }

    @Test
    void rangeAssignorGivesContiguousRangesThatLineUpAcrossTopics() {
        UUID t1 = UUID.randomUUID();
        UUID t2 = UUID.randomUUID();
        Map<UUID, ConsumerAssignors.Topic> topics = Map.of(t1, new ConsumerAssignors.Topic(t1, "a-topic", 5),
                t2, new ConsumerAssignors.Topic(t2, "b-topic", 5));
        var out = ConsumerAssignors.assign("range", List.of(member("m2", Set.of(t1, t2)), member("m1", Set.of(t1, t2))), topics);
        assertThat(out.get("m1").get(t1)).containsExactly(0, 1, 2);
        assertThat(out.get("m1").get(t2)).containsExactly(0, 1, 2);
        assertThat(out.get("m2").get(t1)).containsExactly(3, 4);
        assertThat(out.get("m2").get(t2)).containsExactly(3, 4);
    }

    @Test
    void clientChoosesTheRangeAssignor() {
        ConsumerGroupHeartbeatResponseData a = send(joinRequest("a", "orders").setServerAssignor("range"));
        assertThat(a.errorCode()).isZero();
        Set<Integer> all = partitions(a);
        send(joinRequest("b", "orders").setServerAssignor("range"));
        Set<Integer> kept = partitions(beat("a", 1, all));
        assertThat(kept).containsExactly(0, 1, 2);
        assertThat(coordinator.admin().describeConsumerGroup(G, (short) 1).assignorName()).isEqualTo("range");
    }

    // ---- classic and consumer groups with one id ----

    JoinGroupResponseData classicJoin(String memberId) {
        JoinGroupRequestData r = new JoinGroupRequestData().setGroupId(G).setSessionTimeoutMs(10_000)
                .setRebalanceTimeoutMs(10_000).setMemberId(memberId).setProtocolType("consumer")
                .setProtocols(new ArrayList<>(List.of(new JoinGroupRequestProtocol().setName("range").setMetadata(new byte[0]))));
        CompletableFuture<JoinGroupResponseData> f = coordinator.joinGroup(r, (short) 3, "client", "/127.0.0.1");
        timer.advance(3_100); // the initial rebalance delay
        assertThat(f).isDone();
        return f.getNow(null);
    }

    @Test
    void classicGroupWithMembersRefusesConsumerProtocolMembers() {
        classicJoin(""); // v3: joins at once (no MEMBER_ID_REQUIRED)
        ConsumerGroupHeartbeatResponseData r = join("a", "orders");
        assertThat(r.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        ConsumerGroupHeartbeatResponseData hb = beat("a", 1, Set.of());
        assertThat(hb.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(hb.errorMessage()).isEqualTo("Group cg is not a consumer group.");
    }

    @Test
    void consumerGroupWithMembersRefusesClassicMembersAndAnEmptyOneIsConverted() {
        join("a", "orders");
        assertThat(classicJoin("").errorCode()).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
        send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a").setMemberEpoch(-1));
        assertThat(classicJoin("").errorCode()).isZero();
        assertThat(coordinator.consumerGroup(G)).isNull();
    }

    @Test
    void emptyClassicGroupHoldingOffsetsIsConvertedAndKeepsTheOffsets() {
        coordinator.offsets().commit(G, "", null, -1, -1,
                List.of(new OffsetManager.Commit(new TopicPartitionRef("orders", 0), 42, -1, "")), (short) 9);
        assertThat(join("a", "orders").errorCode()).isZero();
        assertThat(coordinator.offsets().fetch(G, null).partitions()).singleElement()
                .satisfies(f -> assertThat(f.offset().offset()).isEqualTo(42));
    }

    @Test
    void afterACoordinatorRestartAMemberIsToldToRejoin() {
        coordinator.offsets().commit(G, "", null, -1, -1,
                List.of(new OffsetManager.Commit(new TopicPartitionRef("orders", 0), 42, -1, "")), (short) 9);
        join("a", "orders");
        start(immediate()); // membership is not persisted; offsets are
        assertThat(beat("a", 1, range(0, 6)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(join("a", "orders").memberEpoch()).isEqualTo(1);
    }

    // ---- offsets ----

    @Test
    void commitsNeedTheCurrentMemberEpoch() {
        join("a", "orders");
        List<OffsetManager.Commit> c = List.of(new OffsetManager.Commit(new TopicPartitionRef("orders", 0), 10, -1, ""));
        TopicPartitionRef tp = new TopicPartitionRef("orders", 0);
        assertThat(coordinator.offsets().commit(G, "a", null, 1, -1, c, (short) 9).get(tp)).isEqualTo(Errors.NONE);
        assertThat(coordinator.offsets().commit(G, "a", null, 2, -1, c, (short) 9).get(tp)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(coordinator.offsets().commit(G, "zz", null, 1, -1, c, (short) 9).get(tp)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(coordinator.offsets().commit(G, "a", null, 1, -1, c, (short) 8).get(tp)).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(coordinator.offsets().commit(G, "", null, -1, -1, c, (short) 9).get(tp)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(coordinator.offsets().validateFetch(G, "a", 1)).isEqualTo(Errors.NONE);
        assertThat(coordinator.offsets().validateFetch(G, "a", 0)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(coordinator.offsets().validateFetch(G, "q", 1)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(coordinator.offsets().validateFetch(G, null, -1)).isEqualTo(Errors.NONE);

        send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a").setMemberEpoch(-1));
        assertThat(coordinator.offsets().commit(G, "", null, -1, -1, c, (short) 9).get(tp))
                .as("an empty group takes admin commits").isEqualTo(Errors.NONE);
    }

    @Test
    void emptyConsumerGroupOffsetsExpireAndTheGroupGoes() {
        join("a", "orders");
        coordinator.offsets().commit(G, "a", null, 1, -1,
                List.of(new OffsetManager.Commit(new TopicPartitionRef("orders", 0), 10, -1, "")), (short) 9);
        send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a").setMemberEpoch(-1));
        timer.advance(TimeUnit.DAYS.toMillis(7) + 600_000);
        assertThat(coordinator.committedOffsets(G)).isEmpty();
        assertThat(coordinator.consumerGroup(G)).isNull();
    }

    // ---- admin views ----

    @Test
    void adminApisShowConsumerGroups() {
        join("a", "orders");
        List<ListedGroup> listed = coordinator.admin().listGroups(List.of(), List.of("consumer"));
        assertThat(listed).singleElement().satisfies(g -> {
            assertThat(g.groupId()).isEqualTo(G);
            assertThat(g.groupType()).isEqualTo("consumer");
            assertThat(g.protocolType()).isEqualTo("consumer");
            assertThat(g.groupState()).isEqualTo("Stable");
        });
        assertThat(coordinator.admin().listGroups(List.of(), List.of("classic"))).isEmpty();
        assertThat(coordinator.admin().listGroups(List.of("Empty"), List.of())).isEmpty();

        DescribedGroup classicView = coordinator.admin().describe(G, (short) 6);
        assertThat(classicView.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(classicView.errorMessage()).isEqualTo("Group cg is not a classic group.");
        assertThat(classicView.groupState()).isEqualTo("Dead");
        assertThat(coordinator.admin().describe(G, (short) 5).errorCode()).isZero();

        ConsumerGroupDescribeResponseData.DescribedGroup d = coordinator.admin().describeConsumerGroup(G, (short) 1);
        assertThat(d.errorCode()).isZero();
        assertThat(d.groupState()).isEqualTo("Stable");
        assertThat(d.groupEpoch()).isEqualTo(1);
        assertThat(d.assignmentEpoch()).isEqualTo(1);
        assertThat(d.assignorName()).isEqualTo("uniform");
        assertThat(d.members()).singleElement().satisfies(m -> {
            assertThat(m.memberId()).isEqualTo("a");
            assertThat(m.memberEpoch()).isEqualTo(1);
            assertThat(m.clientId()).isEqualTo("client");
            assertThat(m.subscribedTopicNames()).containsExactly("orders");
            assertThat(m.memberType()).isEqualTo((byte) 1);
            assertThat(m.assignment().topicPartitions()).singleElement().satisfies(tp -> {
                assertThat(tp.topicName()).isEqualTo("orders");
                assertThat(tp.partitions()).containsExactly(0, 1, 2, 3, 4, 5);
            });
        });
        assertThat(coordinator.admin().describeConsumerGroup("nope", (short) 1).errorMessage())
                .isEqualTo("Group nope not found.");
        assertThat(coordinator.admin().deleteGroup(G)).isEqualTo(Errors.NON_EMPTY_GROUP);
        send(new ConsumerGroupHeartbeatRequestData().setGroupId(G).setMemberId("a").setMemberEpoch(-1));
        assertThat(coordinator.admin().deleteGroup(G)).isEqualTo(Errors.NONE);
        assertThat(coordinator.consumerGroup(G)).isNull();
    }

    @Test
    void offsetDeleteRefusesSubscribedTopics() {
        store.withTopic("payments", 1);
        join("a", "orders");
        Map<TopicPartitionRef, Short> errors = new HashMap<>();
        short e = coordinator.offsets().delete(G, List.of(new TopicPartitionRef("orders", 0),
                new TopicPartitionRef("payments", 0)), errors);
        assertThat(e).isZero();
        assertThat(errors.get(new TopicPartitionRef("orders", 0))).isEqualTo(Errors.GROUP_SUBSCRIBED_TO_TOPIC);
        assertThat(errors.get(new TopicPartitionRef("payments", 0))).isEqualTo(Errors.NONE);
    }
}
