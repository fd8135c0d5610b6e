package io.kaas.coordinator.group;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import io.kaas.wire.protocol.Errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroup;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.message.LeaveGroupRequestData.MemberIdentity;
import io.kaas.wire.message.LeaveGroupResponseData;
import io.kaas.wire.message.ListGroupsResponseData.ListedGroup;
import io.kaas.wire.message.SyncGroupRequestData;
import io.kaas.wire.message.SyncGroupRequestData.SyncGroupRequestAssignment;
import io.kaas.wire.message.SyncGroupResponseData;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class GroupCoordinatorTest {
    static final int SESSION = 10_000;
    static final int REBALANCE = 30_000;
    static final int INITIAL_DELAY = 3_000;
    static final long RETENTION = TimeUnit.DAYS.toMillis(7);
    static final String G = "group-1";

    @TempDir
    Path dir;
    ManualTimer timer;
    InMemoryStore store;
    EngineOffsets offsetsLog;
    GroupCoordinator coordinator;

    @BeforeEach
    void setUp() throws IOException {
        timer = new ManualTimer();
        store = new InMemoryStore().withTopic("orders", 6);
        offsetsLog = EngineOffsets.open(dir);
        coordinator = new GroupCoordinator(store,
                new GroupCoordinatorConfig(6000, 1_800_000, INITIAL_DELAY, Integer.MAX_VALUE, RETENTION, 600_000, 4096),
                timer, offsetsLog);
        coordinator.start();
        offsetsLog.gainAll(coordinator);
    }

    @AfterEach
    void tearDown() throws IOException {
        coordinator.close();
        offsetsLog.close();
    }

    // ---- helpers ----

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    CompletableFuture<JoinGroupResponseData> join(String memberId, String instanceId, short version, String type,
                                                  String... protocols) {
        List<JoinGroupRequestProtocol> ps = new ArrayList<>();
        for (String p : protocols) {
            ps.add(new JoinGroupRequestProtocol().setName(p).setMetadata(bytes("meta-" + p)));
        }
        JoinGroupRequestData r = new JoinGroupRequestData().setGroupId(G).setSessionTimeoutMs(SESSION)
                .setRebalanceTimeoutMs(REBALANCE).setMemberId(memberId).setGroupInstanceId(instanceId)
                .setProtocolType(type).setProtocols(ps);
        return coordinator.joinGroup(r, version, "client", "/127.0.0.1");
    }

    CompletableFuture<JoinGroupResponseData> join(String memberId) {
        return join(memberId, null, (short) 9, "consumer", "range");
    }

    /** A dynamic v9 member through MEMBER_ID_REQUIRED: the pending second JoinGroup. */
    CompletableFuture<JoinGroupResponseData> newMember() {
        JoinGroupResponseData first = join("").join();
        assertThat(first.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED);
        assertThat(first.memberId()).startsWith("client-");
        return join(first.memberId());
    }

    CompletableFuture<SyncGroupResponseData> sync(String memberId, int generation, String instanceId,
                                                  Map<String, String> assignments) {
        List<SyncGroupRequestAssignment> as = new ArrayList<>();
        assignments.forEach((m, a) -> as.add(new SyncGroupRequestAssignment().setMemberId(m).setAssignment(bytes(a))));
        return coordinator.syncGroup(new SyncGroupRequestData().setGroupId(G).setGenerationId(generation)
                .setMemberId(memberId).setGroupInstanceId(instanceId).setAssignments(as));
    }

    short heartbeat(String memberId, int generation, String instanceId) {
        return coordinator.heartbeat(new HeartbeatRequestData().setGroupId(G).setMemberId(memberId)
                .setGenerationId(generation).setGroupInstanceId(instanceId));
    }

    String state() {
        DescribedGroup d = coordinator.admin().describe(G, (short) 5);
        return d.groupState();
    }

    /** One member, joined and synced: Stable in generation 1. */
    String stableSingleMember() {
        CompletableFuture<JoinGroupResponseData> f = newMember();
        timer.advance(INITIAL_DELAY);
        JoinGroupResponseData r = f.join();
        sync(r.memberId(), r.generationId(), null, Map.of(r.memberId(), "all")).join();
        assertThat(state()).isEqualTo("Stable");
        return r.memberId();
    }

    // ---- join / sync ----

    @Test
    void firstJoinNeedsAMemberIdAndCompletesAfterTheInitialDelay() {
        CompletableFuture<JoinGroupResponseData> f = newMember();
        assertThat(f).isNotDone();
        assertThat(state()).isEqualTo("PreparingRebalance");
        timer.advance(INITIAL_DELAY - 1);
        assertThat(f).isNotDone();
        timer.advance(1);
        JoinGroupResponseData r = f.join();
        assertThat(r.errorCode()).isEqualTo(Errors.NONE);
        assertThat(r.generationId()).isEqualTo(1);
        assertThat(r.leader()).isEqualTo(r.memberId());
        assertThat(r.protocolName()).isEqualTo("range");
        assertThat(r.protocolType()).isEqualTo("consumer");
        assertThat(r.members()).hasSize(1);
        assertThat(r.members().get(0).metadata()).isEqualTo(bytes("meta-range"));
        assertThat(state()).isEqualTo("CompletingRebalance");

        SyncGroupResponseData s = sync(r.memberId(), 1, null, Map.of(r.memberId(), "p0-5")).join();
        assertThat(s.errorCode()).isEqualTo(Errors.NONE);
        assertThat(s.assignment()).isEqualTo(bytes("p0-5"));
        assertThat(state()).isEqualTo("Stable");
    }

    @Test
    void theInitialDelayGrowsWhileMembersKeepJoining() {
        CompletableFuture<JoinGroupResponseData> a = newMember();
        timer.advance(INITIAL_DELAY - 100);
        CompletableFuture<JoinGroupResponseData> b = newMember();
        timer.advance(100);
        assertThat(a).isNotDone(); // a member joined during the delay: wait once more
        timer.advance(INITIAL_DELAY);
        assertThat(a.join().generationId()).isEqualTo(1);
        assertThat(b.join().generationId()).isEqualTo(1);
        assertThat(a.join().leader()).isEqualTo(b.join().leader());
    }

    @Test
    void versionsBeforeFourJoinWithoutMemberIdRequired() {
        CompletableFuture<JoinGroupResponseData> f = join("", null, (short) 3, "consumer", "range");
        assertThat(f).isNotDone();
        timer.advance(INITIAL_DELAY);
        assertThat(f.join().errorCode()).isEqualTo(Errors.NONE);
        assertThat(f.join().memberId()).startsWith("client-");
    }

    @Test
    void aSecondMemberTriggersARebalanceAndEveryoneGetsItsOwnAssignment() {
        String m1 = stableSingleMember();
        CompletableFuture<JoinGroupResponseData> j2 = newMember();
        assertThat(state()).isEqualTo("PreparingRebalance");
        assertThat(heartbeat(m1, 1, null)).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        // A commit during PreparingRebalance is still accepted (Kafka relies on the heartbeat to signal).
        assertThat(commit(m1, 1, 5).get(tp(0))).isEqualTo(Errors.NONE);
        CompletableFuture<JoinGroupResponseData> j1 = join(m1);
        JoinGroupResponseData r1 = j1.join();
        JoinGroupResponseData r2 = j2.join();
        assertThat(r1.generationId()).isEqualTo(2).isEqualTo(r2.generationId());
        assertThat(r1.leader()).isEqualTo(m1);
        assertThat(r1.members()).hasSize(2);
        assertThat(r2.members()).isEmpty();

        // Commit between JoinGroup and SyncGroup: REBALANCE_IN_PROGRESS, as Kafka.
        assertThat(commit(m1, 2, 6).get(tp(0))).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        // A commit from the old generation: ILLEGAL_GENERATION.
        assertThat(commit(m1, 1, 6).get(tp(0))).isEqualTo(Errors.ILLEGAL_GENERATION);

        CompletableFuture<SyncGroupResponseData> s2 = sync(r2.memberId(), 2, null, Map.of());
        assertThat(s2).isNotDone(); // followers wait for the leader
        SyncGroupResponseData s1 = sync(m1, 2, null, Map.of(m1, "p0-2", r2.memberId(), "p3-5")).join();
        assertThat(s1.assignment()).isEqualTo(bytes("p0-2"));
        assertThat(s2.join().assignment()).isEqualTo(bytes("p3-5"));
        assertThat(state()).isEqualTo("Stable");
        assertThat(commit(m1, 2, 7).get(tp(0))).isEqualTo(Errors.NONE);
        assertThat(coordinator.committedOffsets(G).get(tp(0)).offset()).isEqualTo(7);
    }

    @Test
    void aMemberThatDoesNotRejoinInTheRebalanceTimeoutIsRemoved() {
        String m1 = stableSingleMember();
        CompletableFuture<JoinGroupResponseData> j2 = newMember();
        // m1 keeps heartbeating but never rejoins.
        for (int i = 0; i < 5; i++) {
            timer.advance(REBALANCE / 6);
            heartbeat(m1, 1, null);
        }
        timer.advance(REBALANCE);
        JoinGroupResponseData r2 = j2.join();
        assertThat(r2.generationId()).isEqualTo(2);
        assertThat(r2.leader()).isEqualTo(r2.memberId());
        assertThat(r2.members()).hasSize(1);
        assertThat(heartbeat(m1, 2, null)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aSilentMemberExpiresAfterItsSessionTimeoutAndTheGroupEmpties() {
        String m1 = stableSingleMember();
        timer.advance(SESSION - 1);
        assertThat(heartbeat(m1, 1, null)).isEqualTo(Errors.NONE);
        timer.advance(SESSION - 1);
        assertThat(state()).isEqualTo("Stable");
        timer.advance(1);
        assertThat(state()).isEqualTo("Empty");
        assertThat(heartbeat(m1, 1, null)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aMemberIdHandedOutButNeverUsedOnlyHoldsTheRebalanceUntilItsSessionTimeout() {
        String m1 = stableSingleMember();
        JoinGroupResponseData first = join("").join(); // MEMBER_ID_REQUIRED, then the client vanishes
        assertThat(first.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED);
        assertThat(state()).isEqualTo("Stable"); // a pending member does not rebalance the group
        CompletableFuture<JoinGroupResponseData> rejoin = join(m1); // the leader rejoins: rebalance
        assertThat(state()).isEqualTo("PreparingRebalance");
        timer.advance(SESSION - 1);
        assertThat(rejoin).isNotDone(); // waits for the pending member...
        timer.advance(1);
        assertThat(rejoin.join().generationId()).isEqualTo(2); // ...until its id expires
        assertThat(rejoin.join().members()).hasSize(1);
    }

    @Test
    void leaveGroupRebalancesTheRest() {
        String m1 = stableSingleMember();
        CompletableFuture<JoinGroupResponseData> j2 = newMember();
        join(m1);
        JoinGroupResponseData r2 = j2.join();
        sync(m1, 2, null, Map.of()).join();
        LeaveGroupResponseData leave = coordinator.leaveGroup(G, List.of(new MemberIdentity().setMemberId(m1),
                new MemberIdentity().setMemberId("nobody")));
        assertThat(leave.errorCode()).isEqualTo(Errors.NONE);
        assertThat(leave.members()).extracting(m -> m.errorCode())
                .containsExactly(Errors.NONE, Errors.UNKNOWN_MEMBER_ID);
        assertThat(state()).isEqualTo("PreparingRebalance");
        JoinGroupResponseData again = join(r2.memberId()).join();
        assertThat(again.generationId()).isEqualTo(3);
        assertThat(again.leader()).isEqualTo(r2.memberId());
    }

    // ---- errors ----

    @Test
    void rejectsInvalidGroupIdsSessionTimeoutsAndInconsistentProtocols() {
        JoinGroupRequestData bad = new JoinGroupRequestData().setGroupId("").setSessionTimeoutMs(SESSION)
                .setProtocolType("consumer");
        assertThat(coordinator.joinGroup(bad, (short) 9, "c", "h").join().errorCode()).isEqualTo(Errors.INVALID_GROUP_ID);
        JoinGroupRequestData shortSession = new JoinGroupRequestData().setGroupId(G).setSessionTimeoutMs(5999)
                .setProtocolType("consumer");
        assertThat(coordinator.joinGroup(shortSession, (short) 9, "c", "h").join().errorCode())
                .isEqualTo(Errors.INVALID_SESSION_TIMEOUT);
        JoinGroupRequestData longSession = shortSession.setSessionTimeoutMs(1_800_001);
        assertThat(coordinator.joinGroup(longSession, (short) 9, "c", "h").join().errorCode())
                .isEqualTo(Errors.INVALID_SESSION_TIMEOUT);

        stableSingleMember();
        assertThat(join("", null, (short) 9, "connect", "range").join().errorCode())
                .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(join("", null, (short) 9, "consumer", "roundrobin").join().errorCode())
                .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(join("who-is-this").join().errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void syncAndHeartbeatAnswerKafkasErrors() {
        String m1 = stableSingleMember();
        assertThat(heartbeat(m1, 2, null)).isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(heartbeat("stranger", 1, null)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(sync(m1, 0, null, Map.of()).join().errorCode()).isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(sync("stranger", 1, null, Map.of()).join().errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(coordinator.heartbeat(new HeartbeatRequestData().setGroupId("no-such-group").setMemberId(m1)))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        // A Stable group answers SyncGroup again with the member's current assignment.
        assertThat(sync(m1, 1, null, Map.of()).join().assignment()).isEqualTo(bytes("all"));
        newMember();
        assertThat(sync(m1, 1, null, Map.of()).join().errorCode()).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
    }

    @Test
    void theGroupSizeIsCapped() throws IOException {
        coordinator.close();
        coordinator = new GroupCoordinator(store, new GroupCoordinatorConfig(6000, 1_800_000, 0, 1, RETENTION, 600_000, 4096),
                timer, offsetsLog);
        coordinator.start();
        offsetsLog.gainAll(coordinator);
        stableSingleMember();
        JoinGroupResponseData second = join("", null, (short) 3, "consumer", "range").join();
        assertThat(second.errorCode()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
    }

    // ---- static membership ----

    @Test
    void aStaticMemberRejoiningWithTheSameMetadataKeepsItsAssignmentWithoutARebalance() {
        CompletableFuture<JoinGroupResponseData> a = join("", "instance-a", (short) 9, "consumer", "range");
        CompletableFuture<JoinGroupResponseData> b = join("", "instance-b", (short) 9, "consumer", "range");
        timer.advance(2 * INITIAL_DELAY); // b joined during the initial delay, which extends it once
        JoinGroupResponseData ra = a.join();
        JoinGroupResponseData rb = b.join();
        assertThat(ra.errorCode()).isEqualTo(Errors.NONE); // static members skip MEMBER_ID_REQUIRED
        String leader = ra.leader();
        String follower = leader.equals(ra.memberId()) ? rb.memberId() : ra.memberId();
        String followerInstance = follower.equals(ra.memberId()) ? "instance-a" : "instance-b";
        CompletableFuture<SyncGroupResponseData> fs = sync(follower, 1, followerInstance, Map.of());
        sync(leader, 1, null, Map.of(leader, "L", follower, "F")).join();
        assertThat(fs.join().assignment()).isEqualTo(bytes("F"));

        // The follower restarts: same instance id, no member id.
        JoinGroupResponseData rejoin = join("", followerInstance, (short) 9, "consumer", "range").join();
        assertThat(rejoin.errorCode()).isEqualTo(Errors.NONE);
        assertThat(rejoin.generationId()).isEqualTo(1);
        assertThat(rejoin.memberId()).isNotEqualTo(follower);
        assertThat(rejoin.skipAssignment()).isFalse();
        assertThat(state()).isEqualTo("Stable");
        assertThat(sync(rejoin.memberId(), 1, followerInstance, Map.of()).join().assignment()).isEqualTo(bytes("F"));
        // The old incarnation is fenced.
        assertThat(heartbeat(follower, 1, followerInstance)).isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(commit(follower, followerInstance, 1, 3).get(tp(0))).isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(heartbeat(rejoin.memberId(), 1, followerInstance)).isEqualTo(Errors.NONE);
    }

    @Test
    void aRestartedStaticLeaderGetsTheMembersAndSkipsTheAssignment() {
        CompletableFuture<JoinGroupResponseData> a = join("", "instance-a", (short) 9, "consumer", "range");
        timer.advance(INITIAL_DELAY);
        JoinGroupResponseData ra = a.join();
        sync(ra.memberId(), 1, "instance-a", Map.of(ra.memberId(), "A")).join();
        JoinGroupResponseData again = join("", "instance-a", (short) 9, "consumer", "range").join();
        assertThat(again.leader()).isEqualTo(again.memberId());
        assertThat(again.skipAssignment()).isTrue();
        assertThat(again.members()).hasSize(1);
        assertThat(state()).isEqualTo("Stable");
    }

    @Test
    void aStaticMemberIsRemovedByInstanceIdAlone() {
        CompletableFuture<JoinGroupResponseData> a = join("", "instance-a", (short) 9, "consumer", "range");
        timer.advance(INITIAL_DELAY);
        sync(a.join().memberId(), 1, "instance-a", Map.of()).join();
        LeaveGroupResponseData leave = coordinator.leaveGroup(G,
                List.of(new MemberIdentity().setMemberId("").setGroupInstanceId("instance-a")));
        assertThat(leave.members().get(0).errorCode()).isEqualTo(Errors.NONE);
        assertThat(state()).isEqualTo("Empty");
    }

    // ---- opaque protocols ----

    @Test
    void anyProtocolTypeWorksWithOpaqueMetadata() {
        CompletableFuture<JoinGroupResponseData> a = join("", null, (short) 3, "connect", "sessioned", "compatible");
        CompletableFuture<JoinGroupResponseData> b = join("", null, (short) 3, "connect", "compatible");
        timer.advance(2 * INITIAL_DELAY);
        assertThat(a.join().protocolName()).isEqualTo("compatible");
        assertThat(b.join().protocolName()).isEqualTo("compatible");
        List<ListedGroup> listed = coordinator.admin().listGroups(List.of(), List.of());
        assertThat(listed).singleElement().satisfies(g -> {
            assertThat(g.protocolType()).isEqualTo("connect");
            assertThat(g.groupState()).isEqualTo("CompletingRebalance");
        });
    }

    // ---- offsets ----

    static TopicPartitionRef tp(int p) {
        return new TopicPartitionRef("orders", p);
    }

    Map<TopicPartitionRef, Short> commit(String memberId, int generation, long offset) {
        return commit(memberId, null, generation, offset);
    }

    Map<TopicPartitionRef, Short> commit(String memberId, String instanceId, int generation, long offset) {
        return coordinator.offsets().commit(G, memberId, instanceId, generation, -1,
                List.of(new OffsetManager.Commit(tp(0), offset, 4, "m")), (short) 9);
    }

    @Test
    void aGroupThatOnlyStoresOffsetsCommitsWithoutMembership() {
        Map<TopicPartitionRef, Short> errors = coordinator.offsets().commit(G, "", null, -1, -1,
                List.of(new OffsetManager.Commit(tp(1), 42, 3, "meta"),
                        new OffsetManager.Commit(new TopicPartitionRef("orders", 6), 1, -1, ""),
                        new OffsetManager.Commit(new TopicPartitionRef("nope", 0), 1, -1, "")), (short) 8);
        assertThat(errors).containsEntry(tp(1), Errors.NONE)
                .containsEntry(new TopicPartitionRef("orders", 6), Errors.UNKNOWN_TOPIC_OR_PARTITION)
                .containsEntry(new TopicPartitionRef("nope", 0), Errors.UNKNOWN_TOPIC_OR_PARTITION);
        OffsetManager.FetchResult fetched = coordinator.offsets().fetch(G, Map.of("orders", List.of(1, 2)));
        assertThat(fetched.partitions()).extracting(f -> f.offset() == null ? -1 : f.offset().offset())
                .containsExactly(42L, -1L);
        assertThat(fetched.partitions().get(0).offset().metadata()).isEqualTo("meta");
        assertThat(fetched.partitions().get(0).offset().leaderEpoch()).isEqualTo(3);
        assertThat(coordinator.offsets().fetch(G, null).partitions()).hasSize(1);
        assertThat(coordinator.admin().listGroups(List.of("empty"), List.of("Classic")))
                .extracting(ListedGroup::groupId).containsExactly(G);
    }

    @Test
    void commitsToAnUnknownGroupWithAGenerationAreRejectedAsKafkaDoes() {
        List<OffsetManager.Commit> c = List.of(new OffsetManager.Commit(tp(0), 1, -1, ""));
        assertThat(coordinator.offsets().commit(G, "m", null, 3, -1, c, (short) 9).get(tp(0)))
                .isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(coordinator.offsets().commit(G, "m", null, 3, -1, c, (short) 8).get(tp(0)))
                .isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(store.commitCalls).isZero();
    }

    @Test
    void onlyMembersCommitToAGroupWithMembers() {
        stableSingleMember();
        assertThat(commit("", -1, 1).get(tp(0))).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(commit("stranger", 1, 1).get(tp(0))).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void metadataOverTheLimitIsRefused() {
        Map<TopicPartitionRef, Short> errors = coordinator.offsets().commit(G, "", null, -1, -1,
                List.of(new OffsetManager.Commit(tp(0), 1, -1, "x".repeat(4097))), (short) 9);
        assertThat(errors.get(tp(0))).isEqualTo(Errors.OFFSET_METADATA_TOO_LARGE);
    }

    @Test
    void deleteGroupsRemovesOnlyEmptyGroupsWithTheirOffsets() {
        assertThat(coordinator.admin().deleteGroup(G)).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        String m1 = stableSingleMember();
        commit(m1, 1, 9);
        assertThat(coordinator.admin().deleteGroup(G)).isEqualTo(Errors.NON_EMPTY_GROUP);
        coordinator.leaveGroup(G, List.of(new MemberIdentity().setMemberId(m1)));
        assertThat(state()).isEqualTo("Empty");
        assertThat(coordinator.admin().deleteGroup(G)).isEqualTo(Errors.NONE);
        assertThat(coordinator.committedOffsets(G)).isEmpty();
        assertThat(coordinator.admin().describe(G, (short) 6).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(coordinator.admin().describe(G, (short) 5).groupState()).isEqualTo("Dead");
        assertThat(coordinator.admin().listGroups(List.of(), List.of())).isEmpty();
    }

    @Test
    void offsetDeleteRespectsTheSubscriptionOfAConsumerGroup() {
        store.withTopic("payments", 1);
        // A consumer subscription for "orders": version 0, one topic.
        byte[] subscription = {0, 0, 0, 0, 0, 1, 0, 6, 'o', 'r', 'd', 'e', 'r', 's', -1, -1, -1, -1};
        JoinGroupRequestData r = new JoinGroupRequestData().setGroupId(G).setSessionTimeoutMs(SESSION)
                .setRebalanceTimeoutMs(REBALANCE).setMemberId("").setProtocolType("consumer")
                .setProtocols(List.of(new JoinGroupRequestProtocol().setName("range").setMetadata(subscription)));
        CompletableFuture<JoinGroupResponseData> f = coordinator.joinGroup(r, (short) 3, "c", "h");
        timer.advance(INITIAL_DELAY);
        String m = f.join().memberId();
        sync(m, 1, null, Map.of()).join();
        coordinator.offsets().commit(G, m, null, 1, -1, List.of(new OffsetManager.Commit(tp(0), 1, -1, ""),
                new OffsetManager.Commit(new TopicPartitionRef("payments", 0), 1, -1, "")), (short) 9);
        Map<TopicPartitionRef, Short> errors = new java.util.HashMap<>();
        short top = coordinator.offsets().delete(G, List.of(tp(0), new TopicPartitionRef("payments", 0)), errors);
        assertThat(top).isEqualTo(Errors.NONE);
        assertThat(errors).containsEntry(tp(0), Errors.GROUP_SUBSCRIBED_TO_TOPIC)
                .containsEntry(new TopicPartitionRef("payments", 0), Errors.NONE);
        assertThat(coordinator.committedOffsets(G)).containsOnlyKeys(tp(0));
        assertThat(coordinator.offsets().delete("unknown", List.of(tp(0)), errors)).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
    }

    @Test
    void offsetsOfAnEmptyGroupExpireAfterTheRetentionAndTheGroupGoes() {
        String m1 = stableSingleMember();
        commit(m1, 1, 5);
        timer.advance(SESSION / 2);
        coordinator.leaveGroup(G, List.of(new MemberIdentity().setMemberId(m1)));
        assertThat(state()).isEqualTo("Empty");
        timer.advance(RETENTION - TimeUnit.HOURS.toMillis(1));
        assertThat(coordinator.committedOffsets(G)).isNotEmpty();
        timer.advance(TimeUnit.HOURS.toMillis(2));
        assertThat(coordinator.committedOffsets(G)).isEmpty();
        assertThat(coordinator.admin().listGroups(List.of(), List.of())).isEmpty();
    }

    @Test
    void offsetsOfAGroupWithMembersDoNotExpire() {
        String m1 = stableSingleMember();
        commit(m1, 1, 5);
        for (int i = 0; i < 8 * 24 * 720; i++) { // eight days of heartbeats, one every 5 s
            timer.advance(5_000);
            assertThat(heartbeat(m1, 1, null)).isEqualTo(Errors.NONE);
        }
        assertThat(coordinator.committedOffsets(G)).isNotEmpty();
    }

    @Test
    void anExplicitRetentionTimeExpiresTheOffsetRegardless() {
        coordinator.offsets().commit(G, "", null, -1, 60_000, List.of(new OffsetManager.Commit(tp(0), 1, -1, "")), (short) 2);
        CommittedOffset o = coordinator.committedOffsets(G).get(tp(0));
        assertThat(o.expireTimestamp()).isEqualTo(o.commitTimestamp() + 60_000);
        timer.advance(600_000);
        assertThat(coordinator.committedOffsets(G)).isEmpty();
    }

    @Test
    void groupsWithStoredOffsetsAreLoadedAtStart() throws IOException {
        coordinator.offsets().commit("other", "", null, -1, -1, List.of(new OffsetManager.Commit(tp(0), 1, -1, "")), (short) 9);
        GroupCoordinator restarted = new GroupCoordinator(store, GroupCoordinatorConfig.defaults(), timer, offsetsLog);
        restarted.start();
        offsetsLog.gainAll(restarted);
        assertThat(restarted.admin().listGroups(List.of(), List.of())).extracting(ListedGroup::groupId).containsExactly("other");
        assertThat(restarted.admin().describe("other", (short) 5).groupState()).isEqualTo("Empty");
        restarted.close();
    }

    @Test
    void closeFailsWaitingJoinsWithCoordinatorNotAvailable() {
        CompletableFuture<JoinGroupResponseData> f = newMember();
        coordinator.close();
        assertThat(f.join().errorCode()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
    }
}
