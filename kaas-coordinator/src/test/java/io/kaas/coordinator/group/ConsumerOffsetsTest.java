package io.kaas.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.cluster.files.FileClusterStoreProvider;
import io.kaas.coordinator.internal.StateLogReader;
import io.kaas.coordinator.transaction.LogCapture;
import io.kaas.engine.segments.SegmentEngineProvider;
import io.kaas.records.BatchBuilder;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.message.ListGroupsResponseData.ListedGroup;
import io.kaas.wire.message.SyncGroupRequestData;
import io.kaas.wire.message.SyncGroupResponseData;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed offsets in {@code __consumer_offsets} (a real segment engine): durable across a restart in Kafka's record
 * layout, deletions as tombstones, a corrupt record skipped, groups served only while their partition is owned, the
 * engine-independent cleanup, and the one-time move of the offsets a pre-5 files store holds.
 */
@Timeout(60)
class ConsumerOffsetsTest {
    static final String G = "group-1";

    @TempDir
    Path dir;
    final ManualTimer timer = new ManualTimer();
    ClusterStateStore store;
    StorageEngine engine;
    EngineOffsets offsetsLog;
    GroupCoordinator coordinator;
    long cleanupMinRecords = OffsetStore.MIN_RECORDS;

    @BeforeEach
    void setUp() throws IOException {
        store = new InMemoryStore().withTopic("orders", 3);
        openEngine();
        coordinator = startCoordinator();
    }

    @AfterEach
    void tearDown() throws IOException {
        coordinator.close();
        engine.close();
    }

    private void openEngine() throws IOException {
        engine = new SegmentEngineProvider().open(new EngineContext(dir.resolve("data"), PluginConfig.empty(), 1,
                Clock.systemUTC()));
        offsetsLog = EngineOffsets.on(engine);
    }

    private GroupCoordinator startCoordinator() throws IOException {
        GroupCoordinator c = new GroupCoordinator(store, GroupCoordinatorConfig.defaults(), timer, offsetsLog,
                cleanupMinRecords);
        c.start();
        return offsetsLog.gainAll(c);
    }

    /** Closes the coordinator and the engine, opens the engine again over the same directory, and a new coordinator. */
    private void restart() throws IOException {
        coordinator.close();
        engine.close();
        openEngine();
        coordinator = startCoordinator();
    }

    static TopicPartitionRef tp(int partition) {
        return new TopicPartitionRef("orders", partition);
    }

    private short commit(String group, int partition, long offset) {
        return coordinator.offsets().commit(group, "", null, -1, -1,
                List.of(new OffsetManager.Commit(tp(partition), offset, 4, "m")), (short) 9).get(tp(partition));
    }

    private int partitionOf(String group) {
        return coordinator.partitionFor(group);
    }

    private record Raw(long offset, byte[] key, byte[] value) {
    }

    private List<Raw> records(int partition) throws IOException {
        List<Raw> out = new ArrayList<>();
        StateLogReader.read(offsetsLog.log(partition), "test", (o, k, v) -> out.add(new Raw(o, k, v)));
        return out;
    }

    private long appendRaw(int partition, byte[] key, byte[] value) throws IOException {
        ByteBuffer batch = BatchBuilder.create(timer.nowMs()).add(key, value).build();
        return offsetsLog.log(partition).append(ProducedBatches.validate(batch), true).join().baseOffset();
    }

    // ---- durability and layout ----

    @Test
    @SuppressWarnings("deprecation")
    void committedOffsetsSurviveARestartInKafkasRecordLayoutAndNotInTheStore() throws IOException {
        assertThat(commit(G, 0, 42)).isEqualTo(Errors.NONE);
        assertThat(commit(G, 1, 7)).isEqualTo(Errors.NONE);
        assertThat(commit(G, 0, 43)).isEqualTo(Errors.NONE);
        List<Raw> raw = records(partitionOf(G));
        assertThat(raw).hasSize(3);
        ByteBuffer key = ByteBuffer.wrap(raw.get(0).key());
        assertThat(key.getShort()).as("OffsetCommitKey version").isEqualTo((short) 1);
        assertThat(string(key)).isEqualTo(G);
        assertThat(string(key)).isEqualTo("orders");
        assertThat(key.getInt()).isEqualTo(0);
        ByteBuffer value = ByteBuffer.wrap(raw.get(0).value());
        assertThat(value.getShort()).as("OffsetCommitValue version").isEqualTo((short) 3);
        assertThat(value.getLong()).isEqualTo(42);
        assertThat(value.getInt()).as("leader epoch").isEqualTo(4);
        assertThat(string(value)).isEqualTo("m");
        assertThat(value.getLong()).as("commit timestamp").isEqualTo(timer.nowMs());
        assertThat(value.hasRemaining()).isFalse();

        restart();
        Map<TopicPartitionRef, CommittedOffset> loaded = coordinator.committedOffsets(G);
        assertThat(loaded).containsOnlyKeys(tp(0), tp(1));
        assertThat(loaded.get(tp(0))).isEqualTo(new CommittedOffset(43, 4, "m", timer.nowMs(), -1));
        assertThat(loaded.get(tp(1)).offset()).isEqualTo(7);
        assertThat(coordinator.offsets().fetch(G, Map.of("orders", List.of(0))).partitions().get(0).offset().offset())
                .isEqualTo(43);
        assertThat(coordinator.admin().listGroups(List.of(), List.of())).extracting(ListedGroup::groupId)
                .containsExactly(G);
        assertThat(store.groupsWithOffsets()).isEmpty();
    }

    @Test
    void aCommitWithAnExplicitExpiryIsWrittenAsValueVersion1AndKeepsItAcrossARestart() throws IOException {
        coordinator.offsets().commit(G, "", null, -1, 60_000, List.of(new OffsetManager.Commit(tp(2), 9, 3, "")),
                (short) 2);
        ByteBuffer value = ByteBuffer.wrap(records(partitionOf(G)).get(0).value());
        assertThat(value.getShort()).isEqualTo((short) 1);
        restart();
        CommittedOffset o = coordinator.committedOffsets(G).get(tp(2));
        assertThat(o.offset()).isEqualTo(9);
        assertThat(o.leaderEpoch()).as("version 1 carries no leader epoch").isEqualTo(-1);
        assertThat(o.expireTimestamp()).isEqualTo(o.commitTimestamp() + 60_000);
    }

    @Test
    void deletedOffsetsAndGroupsAreTombstonedAndStayDeletedAfterARestart() throws IOException {
        String other = "other-group";
        commit(G, 0, 1);
        commit(G, 1, 2);
        commit(other, 0, 3);
        Map<TopicPartitionRef, Short> errors = new HashMap<>();
        assertThat(coordinator.offsets().delete(G, List.of(tp(1)), errors)).isEqualTo(Errors.NONE);
        assertThat(errors).containsEntry(tp(1), Errors.NONE);
        assertThat(coordinator.admin().deleteGroup(other)).isEqualTo(Errors.NONE);
        List<Raw> raw = records(partitionOf(other));
        assertThat(raw.get(raw.size() - 1).value()).as("tombstone").isNull();
        restart();
        assertThat(coordinator.committedOffsets(G)).containsOnlyKeys(tp(0));
        assertThat(coordinator.committedOffsets(other)).isEmpty();
        assertThat(coordinator.admin().listGroups(List.of(), List.of())).extracting(ListedGroup::groupId)
                .containsExactly(G);
    }

    // ---- bad input ----

    @Test
    void corruptRecordsAreSkippedWithALogLineNamingPartitionAndOffsetAndTheRestLoads() throws IOException {
        int p = partitionOf(G);
        commit(G, 0, 1);
        long badKey = appendRaw(p, new byte[] {0, 1, 0, 9, 'g'}, new byte[] {0, 3});
        byte[] goodKey = OffsetRecordCodec.key(G, tp(1));
        long badValue = appendRaw(p, goodKey, new byte[] {0, 99, 1, 2});
        commit(G, 2, 5);
        try (LogCapture logs = new LogCapture(OffsetStore.class)) {
            restart();
            assertThat(logs.messages(Level.ERROR)).anySatisfy(m -> assertThat(m)
                    .contains("offset " + badKey + " of __consumer_offsets-" + p).contains("truncated"));
            assertThat(logs.messages(Level.ERROR)).anySatisfy(m -> assertThat(m)
                    .contains("offset " + badValue + " of __consumer_offsets-" + p).contains("unknown version 99"));
        }
        assertThat(coordinator.committedOffsets(G)).containsOnlyKeys(tp(0), tp(2));
        assertThat(coordinator.offsets().fetch(G, null).errorCode()).isEqualTo(Errors.NONE);
    }

    @Test
    void recordsOfOtherTypesAndOfAGroupOfAnotherPartitionAreSkipped() throws IOException {
        int p = partitionOf(G);
        String elsewhere = IntStream.range(0, 100).mapToObj(i -> "g" + i).filter(g -> partitionOf(g) != p)
                .findFirst().orElseThrow();
        appendRaw(p, OffsetRecordCodec.key(elsewhere, tp(0)), OffsetRecordCodec.value(new CommittedOffset(5, -1, "",
                1, -1)));
        byte[] groupMetadataKey = ByteBuffer.allocate(2 + 2 + G.length()).putShort((short) 2)
                .putShort((short) G.length()).put(G.getBytes(StandardCharsets.UTF_8)).array();
        appendRaw(p, groupMetadataKey, new byte[] {0, 3, 1});
        commit(G, 0, 8);
        try (LogCapture logs = new LogCapture(OffsetStore.class)) {
            restart();
            assertThat(logs.messages(Level.ERROR)).anySatisfy(m -> assertThat(m).contains(elsewhere)
                    .contains("belongs to partition " + partitionOf(elsewhere)));
        }
        assertThat(coordinator.committedOffsets(elsewhere)).isEmpty();
        assertThat(coordinator.committedOffsets(G).get(tp(0)).offset()).isEqualTo(8);
    }

    // ---- ownership ----

    @Test
    void aGroupOfAPartitionNotHandedOverAnswersNotCoordinatorEverywhere() {
        GroupCoordinator alone = new GroupCoordinator(store, GroupCoordinatorConfig.defaults(), timer, offsetsLog);
        alone.start();
        try {
            assertThat(alone.offsets().commit(G, "", null, -1, -1, List.of(new OffsetManager.Commit(tp(0), 1, -1, "")),
                    (short) 9)).containsEntry(tp(0), Errors.NOT_COORDINATOR);
            assertThat(alone.offsets().fetch(G, null).errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.joinGroup(joinRequest(), (short) 3, "c", "/127.0.0.1").join().errorCode())
                    .isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.heartbeat(new HeartbeatRequestData().setGroupId(G).setMemberId("m")))
                    .isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData().setGroupId(G)
                    .setMemberId(UUID.randomUUID().toString()).setMemberEpoch(0).setRebalanceTimeoutMs(30_000)
                    .setSubscribedTopicNames(List.of("orders")).setTopicPartitions(List.of()), (short) 0, "c", "/127.0.0.1").errorCode())
                    .isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.admin().describe(G, (short) 5).errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.admin().describeConsumerGroup(G, (short) 0).errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.admin().deleteGroup(G)).isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.offsets().delete(G, List.of(tp(0)), new HashMap<>())).isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(alone.offsets().validateTransactionalCommit(G, "", null, -1)).isEqualTo(Errors.NOT_COORDINATOR);
        } finally {
            alone.close();
        }
    }

    private static JoinGroupRequestData joinRequest() {
        return new JoinGroupRequestData().setGroupId(G).setSessionTimeoutMs(10_000).setRebalanceTimeoutMs(30_000)
                .setMemberId("").setProtocolType("consumer")
                .setProtocols(List.of(new JoinGroupRequestProtocol().setName("range").setMetadata(new byte[0])));
    }

    @Test
    void losingAPartitionDropsItsGroupsTellsWaitingMembersNotCoordinatorAndGainingItAgainLoadsThem()
            throws IOException {
        int p = partitionOf(G);
        String elsewhere = IntStream.range(0, 100).mapToObj(i -> "g" + i).filter(g -> partitionOf(g) != p)
                .findFirst().orElseThrow();
        commit(G, 0, 11);
        commit(elsewhere, 0, 12);
        CompletableFuture<JoinGroupResponseData> waiting = coordinator.joinGroup(joinRequest(), (short) 3, "c",
                "/127.0.0.1"); // waits for the initial rebalance delay
        assertThat(waiting).isNotDone();
        try (LogCapture logs = new LogCapture(GroupCoordinator.class)) {
            coordinator.onPartitionLost(p);
            assertThat(logs.messages(Level.INFO)).anySatisfy(m -> assertThat(m)
                    .contains("Gave up __consumer_offsets-" + p).contains("1 groups dropped"));
        }
        assertThat(waiting.join().errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(commit(G, 0, 13)).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(coordinator.committedOffsets(G)).isEmpty();
        assertThat(coordinator.admin().listGroups(List.of(), List.of())).extracting(ListedGroup::groupId)
                .containsExactly(elsewhere);
        assertThat(commit(elsewhere, 0, 14)).isEqualTo(Errors.NONE);

        coordinator.onPartitionGained(p, offsetsLog.log(p), 1);
        assertThat(coordinator.committedOffsets(G).get(tp(0)).offset()).isEqualTo(11);
        assertThat(commit(G, 0, 15)).isEqualTo(Errors.NONE);
    }

    // ---- classic membership (GroupMetadata records) ----

    /** A member joined and synced with {@code assignment}: Stable. */
    private JoinGroupResponseData stableMember(String assignment) {
        CompletableFuture<JoinGroupResponseData> f = coordinator.joinGroup(joinRequest(), (short) 3, "c", "/127.0.0.1");
        timer.advance(GroupCoordinatorConfig.defaults().initialRebalanceDelayMs());
        JoinGroupResponseData joined = f.join();
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE);
        SyncGroupResponseData synced = coordinator.syncGroup(new SyncGroupRequestData().setGroupId(G)
                .setGenerationId(joined.generationId()).setMemberId(joined.memberId())
                .setAssignments(List.of(new SyncGroupRequestData.SyncGroupRequestAssignment()
                        .setMemberId(joined.memberId()).setAssignment(assignment.getBytes(StandardCharsets.UTF_8)))))
                .join();
        assertThat(synced.errorCode()).isEqualTo(Errors.NONE);
        return joined;
    }

    @Test
    void aClassicGroupsMembershipSurvivesARestartAndAMemberThatStopsHeartbeatingIsRemoved() throws IOException {
        JoinGroupResponseData member = stableMember("all-of-it");
        ByteBuffer key = ByteBuffer.wrap(records(partitionOf(G)).get(0).key());
        assertThat(key.getShort()).as("GroupMetadataKey version").isEqualTo((short) 2);
        restart();
        var described = coordinator.admin().describe(G, (short) 5);
        assertThat(described.groupState()).isEqualTo("Stable");
        assertThat(described.protocolData()).isEqualTo("range");
        assertThat(described.members()).singleElement().satisfies(m -> {
            assertThat(m.memberId()).isEqualTo(member.memberId());
            assertThat(new String(m.memberAssignment(), StandardCharsets.UTF_8)).isEqualTo("all-of-it");
        });
        // the member goes on in its generation: it can heartbeat, sync again and commit
        assertThat(coordinator.heartbeat(new HeartbeatRequestData().setGroupId(G).setMemberId(member.memberId())
                .setGenerationId(member.generationId()))).isEqualTo(Errors.NONE);
        assertThat(coordinator.offsets().commit(G, member.memberId(), null, member.generationId(), -1,
                List.of(new OffsetManager.Commit(tp(0), 3, -1, "")), (short) 9)).containsEntry(tp(0), Errors.NONE);
        // and is removed once it stops heartbeating for its session timeout
        timer.advance(10_001);
        assertThat(coordinator.admin().describe(G, (short) 5).members()).isEmpty();
        restart();
        assertThat(coordinator.admin().describe(G, (short) 5).groupState()).as("the empty generation is stored")
                .isEqualTo("Empty");
        assertThat(coordinator.committedOffsets(G).get(tp(0)).offset()).isEqualTo(3);
    }

    @Test
    void aDeletedClassicGroupStaysDeletedAfterARestartAndACorruptMembershipRecordIsSkipped() throws IOException {
        JoinGroupResponseData member = stableMember("x");
        coordinator.leaveGroup(G, List.of(new io.kaas.wire.message.LeaveGroupRequestData.MemberIdentity()
                .setMemberId(member.memberId())));
        timer.advance(1);
        assertThat(coordinator.admin().deleteGroup(G)).isEqualTo(Errors.NONE);
        restart();
        assertThat(coordinator.admin().listGroups(List.of(), List.of())).isEmpty();

        int p = partitionOf(G);
        long bad = appendRaw(p, GroupMetadataCodec.key(G), new byte[] {0, 3, 0, 8, 'c'});
        try (LogCapture logs = new LogCapture(OffsetStore.class)) {
            restart();
            assertThat(logs.messages(Level.ERROR)).anySatisfy(m -> assertThat(m)
                    .contains("group metadata of group " + G + " at offset " + bad + " of __consumer_offsets-" + p));
        }
        assertThat(coordinator.admin().listGroups(List.of(), List.of())).isEmpty();
    }

    // ---- cleanup ----

    @Test
    void aPartitionWithManyMoreRecordsThanOffsetsIsRewrittenAndStillLoads() throws Exception {
        coordinator.close();
        cleanupMinRecords = 10;
        coordinator = startCoordinator();
        int p = partitionOf(G);
        for (int i = 0; i <= 40; i++) {
            assertThat(commit(G, i % 2, i)).isEqualTo(Errors.NONE);
            timer.advance(1); // runs a scheduled rewrite
        }
        long deadline = System.currentTimeMillis() + 20_000;
        while (offsetsLog.log(p).offsets().logStartOffset() == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(offsetsLog.log(p).offsets().logStartOffset()).isPositive();
        assertThat(records(p).size()).isLessThan(41);
        restart();
        assertThat(coordinator.committedOffsets(G).get(tp(0)).offset()).isEqualTo(40);
        assertThat(coordinator.committedOffsets(G).get(tp(1)).offset()).isEqualTo(39);
    }

    // ---- migration from a store before SPI 5 ----

    @Test
    @SuppressWarnings("deprecation")
    void offsetsAPreviousFilesStoreHoldsAreMovedIntoTheirPartitionsOnce() throws IOException {
        coordinator.close();
        store = new FileClusterStoreProvider().open(new ClusterStoreContext(dir.resolve("meta"), PluginConfig.empty(), 1));
        try {
            store.createTopic(new TopicRecord("orders", UUID.randomUUID(), 3, Map.of()));
            // what a broker before SPI 5 left in its data directory
            store.commitOffsets(G, Map.of(tp(0), new CommittedOffset(100, 2, "old", 5, -1),
                    tp(1), new CommittedOffset(200, -1, "", 6, -1)));
            store.commitOffsets("legacy-2", Map.of(tp(2), new CommittedOffset(300, -1, "", 7, -1)));
            try (LogCapture logs = new LogCapture(LegacyOffsets.class)) {
                coordinator = startCoordinator();
                assertThat(logs.messages(Level.INFO)).anySatisfy(m -> assertThat(m)
                        .contains("Moved 2 committed offsets of group " + G + " from the cluster store to "
                                + "__consumer_offsets-" + partitionOf(G)));
            }
            assertThat(coordinator.committedOffsets(G)).containsEntry(tp(0), new CommittedOffset(100, 2, "old", 5, -1))
                    .containsKey(tp(1));
            assertThat(coordinator.committedOffsets("legacy-2").get(tp(2)).offset()).isEqualTo(300);
            assertThat(store.groupsWithOffsets()).isEmpty();
            assertThat(coordinator.admin().listGroups(List.of(), List.of())).extracting(ListedGroup::groupId)
                    .containsExactlyInAnyOrder(G, "legacy-2");
            commit(G, 0, 101);

            // the next start reads them from __consumer_offsets only: nothing is moved again
            coordinator.close();
            store.close();
            store = new FileClusterStoreProvider().open(new ClusterStoreContext(dir.resolve("meta"),
                    PluginConfig.empty(), 1));
            try (LogCapture logs = new LogCapture(LegacyOffsets.class)) {
                restart();
                assertThat(logs.messages(Level.INFO)).isEmpty();
            }
            assertThat(coordinator.committedOffsets(G).get(tp(0)).offset()).isEqualTo(101);
            assertThat(coordinator.committedOffsets("legacy-2").get(tp(2)).offset()).isEqualTo(300);
        } finally {
            store.close();
        }
    }

    private static String string(ByteBuffer b) {
        byte[] bytes = new byte[b.getShort()];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
