package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData.ReassignablePartition;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData.ReassignableTopic;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterPartitionReassignments, ListPartitionReassignments and ElectLeaders on one broker, through the Java Admin
 * client: Kafka's answers to bad input (a replica list that does not name exactly one live broker, a cancel with
 * nothing pending, unknown partitions), no-ops where nothing needs doing, and ALTER/DESCRIBE on the cluster required.
 * The moves themselves, between brokers, are in {@code cluster.ReassignPartitionsIT}.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PartitionMovesIT {
    @TempDir
    Path dir;

    private static Throwable cause(org.apache.kafka.common.KafkaFuture<?> f) {
        try {
            f.get(20, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** One partition's answer to a raw AlterPartitionReassignments v0 naming {@code replicas}. */
    private static ReassignablePartitionResponse rawAlter(int port, String topic, int partition, List<Integer> replicas)
            throws Exception {
        AlterPartitionReassignmentsRequestData data = new AlterPartitionReassignmentsRequestData().setTopics(List.of(
            new ReassignableTopic().setName(topic).setPartitions(List.of(new ReassignablePartition()
                .setPartitionIndex(partition).setReplicas(replicas)))));
        RequestHeader header = new RequestHeader(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, (short) 0, "moves-test", 7);
        ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), data, (short) 0);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            AlterPartitionReassignmentsResponse parsed = (AlterPartitionReassignmentsResponse)
                AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
            return parsed.data().responses().get(0).partitions().get(0);
        }
    }

    @Test
    void refusesReplicaListsThatDoNotNameOneLiveBrokerAndCancelsOnlyWhatIsPending() throws Exception {
        try (TestBroker broker = TestBroker.start(dir); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "t", 2, Map.of());
            TopicPartition p0 = new TopicPartition("t", 0);
            TopicPartition p1 = new TopicPartition("t", 1);
            TopicPartition p2 = new TopicPartition("t", 2);
            TopicPartition missing = new TopicPartition("missing", 0);
            var result = admin.alterPartitionReassignments(Map.of(
                p0, Optional.of(new NewPartitionReassignment(List.of(1, 1))),
                p1, Optional.of(new NewPartitionReassignment(List.of(7))),
                p2, Optional.of(new NewPartitionReassignment(List.of(1))),
                missing, Optional.of(new NewPartitionReassignment(List.of(1))))).values();
            assertThat(cause(result.get(p0))).isInstanceOf(InvalidReplicaAssignmentException.class)
                .hasMessage("The manual partition assignment includes the broker 1 more than once.");
            assertThat(cause(result.get(p1))).isInstanceOf(InvalidReplicaAssignmentException.class)
                .hasMessage("The manual partition assignment includes broker 7, but no such broker is registered.");
            assertThat(cause(result.get(p2))).isInstanceOf(UnknownTopicOrPartitionException.class)
                .hasMessage("Unable to find partition t:2.");
            assertThat(cause(result.get(missing))).isInstanceOf(UnknownTopicOrPartitionException.class)
                .hasMessage("Unable to find a topic named missing.");

            assertThat(cause(admin.alterPartitionReassignments(Map.of(p1, Optional.empty())).values().get(p1)))
                .isInstanceOf(NoReassignmentInProgressException.class)
                .hasMessage("No partition reassignment is in progress.");
            // The Java client refuses an empty list itself: a raw request, as another client may send it.
            var empty = rawAlter(broker.port(), "t", 0, List.of());
            assertThat(Errors.forCode(empty.errorCode())).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT);
            assertThat(empty.errorMessage()).isEqualTo("The manual partition assignment includes an empty replica list.");

            // To the broker that writes it already: nothing to do, and nothing is listed as moving.
            int epoch = KafkaClients.leaderEpoch(admin, p0);
            admin.alterPartitionReassignments(Map.of(p0, Optional.of(new NewPartitionReassignment(List.of(1)))))
                .all().get(20, TimeUnit.SECONDS);
            assertThat(admin.listPartitionReassignments().reassignments().get(20, TimeUnit.SECONDS)).isEmpty();
            assertThat(admin.listPartitionReassignments(Set.of(p0, missing)).reassignments().get(20, TimeUnit.SECONDS))
                .isEmpty();
            assertThat(KafkaClients.leaderEpoch(admin, p0)).as("not moved").isEqualTo(epoch);
        }
    }

    @Test
    void electLeadersIsNotNeededForALedPartitionAndUnknownForAMissingOne() throws Exception {
        try (TestBroker broker = TestBroker.start(dir); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "t", 1, Map.of());
            TopicPartition p0 = new TopicPartition("t", 0);
            TopicPartition p5 = new TopicPartition("t", 5);
            for (ElectionType type : ElectionType.values()) {
                var results = admin.electLeaders(type, Set.of(p0, p5)).partitions().get(20, TimeUnit.SECONDS);
                assertThat(results.get(p0)).as(type.name()).get().isInstanceOf(ElectionNotNeededException.class);
                assertThat(results.get(p5)).as(type.name()).get().isInstanceOf(UnknownTopicOrPartitionException.class)
                    .extracting(Throwable::getMessage).isEqualTo("No such partition as t-5");
            }
            assertThat(admin.electLeaders(ElectionType.PREFERRED, null).partitions().get(20, TimeUnit.SECONDS))
                .as("every partition is led: nothing to report").isEmpty();
        }
    }

    @Test
    void movesAndElectionsNeedAlterOnTheClusterAndTheListingDescribe() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).pluginsDir(dir.resolve("no-plugins")).acl("""
                allow * CREATE cluster
                allow * DESCRIBE topic:*
                """).start(); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "t", 1, Map.of());
            TopicPartition p0 = new TopicPartition("t", 0);
            assertThat(cause(admin.alterPartitionReassignments(Map.of(p0,
                Optional.of(new NewPartitionReassignment(List.of(1))))).all()))
                .isInstanceOf(ClusterAuthorizationException.class);
            assertThat(cause(admin.listPartitionReassignments().reassignments()))
                .isInstanceOf(ClusterAuthorizationException.class);
            assertThat(cause(admin.electLeaders(ElectionType.PREFERRED, Set.of(p0)).partitions()))
                .isInstanceOf(ClusterAuthorizationException.class);
        }
    }
}
