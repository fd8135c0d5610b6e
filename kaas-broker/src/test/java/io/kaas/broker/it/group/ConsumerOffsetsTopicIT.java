package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.broker.it.TestBroker;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed offsets live in the internal topic {@code __consumer_offsets} (created by the first FindCoordinator, with
 * {@code offsets.topic.num.partitions}), on the group's partition {@code abs(hashCode) % partitions}, not in the
 * cluster store; they survive a restart; offsets a broker before SPI 5 left in the files store are moved there once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsumerOffsetsTopicIT {
    private static final String OFFSETS = "__consumer_offsets";

    @TempDir
    Path dir;

    private static int partitionOf(String group, int partitions) {
        int h = group.hashCode();
        return (h == Integer.MIN_VALUE ? 0 : Math.abs(h)) % partitions;
    }

    /** The files store's directory of committed offsets (as it kept them before SPI 5): must hold nothing. */
    private static long storedGroupFiles(TestBroker broker) throws Exception {
        Path groups = broker.broker.config().logDir().resolve("__cluster").resolve("groups");
        if (!Files.isDirectory(groups)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(groups)) {
            return files.count();
        }
    }

    @Test
    void committedOffsetsAreWrittenToTheGroupsPartitionOfConsumerOffsetsAndSurviveARestart() throws Exception {
        String group = "placed-group";
        TopicPartition t0 = new TopicPartition("orders", 0);
        TopicPartition t1 = new TopicPartition("orders", 1);
        TestBroker.Builder builder = TestBroker.builder(dir).config("offsets.topic.num.partitions", "5")
                .config("offsets.topic.segment.bytes", "1048576");
        try (TestBroker broker = builder.start()) {
            broker.createTopic("orders", 2);
            try (Admin admin = broker.admin()) {
                admin.alterConsumerGroupOffsets(group, Map.of(t0, new OffsetAndMetadata(5, "five"),
                        t1, new OffsetAndMetadata(9))).all().get(30, TimeUnit.SECONDS);
                TopicDescription offsets = admin.describeTopics(List.of(OFFSETS)).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get(OFFSETS);
                assertThat(offsets.isInternal()).isTrue();
                assertThat(offsets.partitions()).as("offsets.topic.num.partitions").hasSize(5);
                TopicPartition home = new TopicPartition(OFFSETS, partitionOf(group, 5));
                assertThat(admin.listOffsets(Map.of(home, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS)
                        .get(home).offset()).as("one record per committed partition").isEqualTo(2);
            }
            assertThat(storedGroupFiles(broker)).isZero();
        }
        try (TestBroker broker = builder.start()) {
            try (Admin admin = broker.admin()) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
                assertThat(committed).containsOnlyKeys(t0, t1);
                assertThat(committed.get(t0).offset()).isEqualTo(5);
                assertThat(committed.get(t0).metadata()).isEqualTo("five");
                assertThat(committed.get(t1).offset()).isEqualTo(9);
                assertThat(admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS))
                        .extracting(ConsumerGroupListing::groupId).contains(group);
            }
            assertThat(storedGroupFiles(broker)).isZero();
        }
    }

    @Test
    void aGroupRequestBeforeFindCoordinatorCreatedTheTopicAnswersNotCoordinator() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("offsets.topic.num.partitions", "3").start()) {
            OffsetFetchResponseData before = send(broker.port(), ApiKeys.OFFSET_FETCH, 8, fetch("early"));
            assertThat(Errors.forCode(before.groups().get(0).errorCode())).isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(Errors.forCode(fetchV1(broker).topics().get(0).partitions().get(0).errorCode()))
                    .as("v0-1 carry the group's error on each partition").isEqualTo(Errors.NOT_COORDINATOR);
            FindCoordinatorResponseData found = send(broker.port(), ApiKeys.FIND_COORDINATOR, 4,
                    new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of("early")));
            assertThat(Errors.forCode(found.coordinators().get(0).errorCode())).isEqualTo(Errors.NONE);
            assertThat(found.coordinators().get(0).nodeId()).isEqualTo(broker.broker.config().nodeId());
            assertThat(found.coordinators().get(0).port()).isEqualTo(broker.port());
            FindCoordinatorResponseData single = send(broker.port(), ApiKeys.FIND_COORDINATOR, 0,
                    new FindCoordinatorRequestData().setKey("early"));
            assertThat(Errors.forCode(single.errorCode())).isEqualTo(Errors.NONE);
            assertThat(single.port()).isEqualTo(broker.port());
            OffsetFetchResponseData after = send(broker.port(), ApiKeys.OFFSET_FETCH, 8, fetch("early"));
            assertThat(Errors.forCode(after.groups().get(0).errorCode())).isEqualTo(Errors.NONE);
            assertThat(Errors.forCode(fetchV1(broker).topics().get(0).partitions().get(0).errorCode()))
                    .isEqualTo(Errors.NONE);
        }
    }

    private static OffsetFetchResponseData fetchV1(TestBroker broker) throws Exception {
        return send(broker.port(), ApiKeys.OFFSET_FETCH, 1, new OffsetFetchRequestData().setGroupId("early")
                .setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopic().setName("nothing")
                        .setPartitionIndexes(List.of(0)))));
    }

    private static OffsetFetchRequestData fetch(String group) {
        return new OffsetFetchRequestData().setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup()
                .setGroupId(group).setTopics(null)));
    }

    @Test
    @SuppressWarnings("deprecation")
    void offsetsABrokerBeforeSpi5KeptInTheFilesStoreAreMovedIntoConsumerOffsetsOnce() throws Exception {
        TestBroker.Builder builder = TestBroker.builder(dir);
        Path dataDir = builder.brokerConfig().logDir();
        Files.createDirectories(dataDir);
        ClusterStateStoreProvider files = ServiceLoader.load(ClusterStateStoreProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.name().equals("files")).findFirst().orElseThrow();
        // what the previous version left: a topic and a group's offsets in __cluster/groups
        try (ClusterStateStore old = files.open(new ClusterStoreContext(dataDir, PluginConfig.empty(), 1))) {
            old.createTopic(new TopicRecord("legacy", UUID.randomUUID(), 2, Map.of()));
            old.commitOffsets("old-group", Map.of(new TopicPartitionRef("legacy", 0),
                    new CommittedOffset(17, -1, "from-v4", System.currentTimeMillis(), -1),
                    new TopicPartitionRef("legacy", 1), new CommittedOffset(23, -1, "", System.currentTimeMillis(), -1)));
        }
        try (TestBroker broker = builder.start()) {
            // the coordinator loads its partitions as the broker gains them, right after start
            org.awaitility.Awaitility.await("offsets moved out of the store").atMost(java.time.Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(storedGroupFiles(broker)).isZero());
            try (Admin admin = broker.admin()) {
                assertThat(admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS))
                        .extracting(ConsumerGroupListing::groupId).contains("old-group");
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("old-group")
                        .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
                assertThat(committed.get(new TopicPartition("legacy", 0))).isEqualTo(new OffsetAndMetadata(17, "from-v4"));
                assertThat(committed.get(new TopicPartition("legacy", 1)).offset()).isEqualTo(23);
                admin.alterConsumerGroupOffsets("old-group", Map.of(new TopicPartition("legacy", 0),
                        new OffsetAndMetadata(18))).all().get(30, TimeUnit.SECONDS);
            }
        }
        try (TestBroker broker = builder.start(); Admin admin = broker.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("old-group")
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            assertThat(committed.get(new TopicPartition("legacy", 0)).offset()).as("not moved again").isEqualTo(18);
            assertThat(committed.get(new TopicPartition("legacy", 1)).offset()).isEqualTo(23);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends ApiMessage> T send(int port, ApiKeys api, int version, ApiMessage body) throws Exception {
        RequestHeader header = new RequestHeader(api, (short) version, "offsets-raw-test", 7);
        ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), body, (short) version);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(15_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            return (T) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header).data();
        }
    }
}
