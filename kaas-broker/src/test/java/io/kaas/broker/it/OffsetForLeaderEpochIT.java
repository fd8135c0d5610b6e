package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.EpochEndOffset;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OffsetForLeaderEpoch (key 23) v2-4: raw requests encoded by kafka-clients for the exact answers and errors, and
 * the Java consumer validating a position that carries a leader epoch (KIP-320), which detects a truncated log
 * only from a real answer.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class OffsetForLeaderEpochIT {
    private static final int NO_EPOCH_CHECK = -1;

    @TempDir
    Path dir;

    /** One (topic, partition, current leader epoch, requested epoch) question. */
    private record Ask(String topic, int partition, int currentEpoch, int epoch) {
    }

    /** The answers, in the order asked (the questions of one topic come together). */
    private static List<EpochEndOffset> ask(int port, short version, Ask... asks) throws Exception {
        OffsetForLeaderTopicCollection topics = new OffsetForLeaderTopicCollection();
        for (Ask a : asks) {
            OffsetForLeaderTopic t = topics.find(a.topic());
            if (t == null) {
                t = new OffsetForLeaderTopic().setTopic(a.topic());
                topics.add(t);
            }
            t.partitions().add(new OffsetForLeaderPartition().setPartition(a.partition())
                    .setCurrentLeaderEpoch(a.currentEpoch()).setLeaderEpoch(a.epoch()));
        }
        OffsetForLeaderEpochRequestData data = new OffsetForLeaderEpochRequestData().setReplicaId(-1).setTopics(topics);
        RequestHeader header = new RequestHeader(ApiKeys.OFFSET_FOR_LEADER_EPOCH, version, "epoch-test", 5);
        ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), data, version);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            OffsetsForLeaderEpochResponse parsed = (OffsetsForLeaderEpochResponse) AbstractResponse.parseResponse(
                    ByteBuffer.wrap(response), header);
            List<EpochEndOffset> answers = new ArrayList<>();
            parsed.data().topics().forEach(t -> answers.addAll(t.partitions()));
            return answers;
        }
    }

    private static String show(EpochEndOffset e) {
        return Errors.forCode(e.errorCode()) + " " + e.leaderEpoch() + "/" + e.endOffset();
    }

    private static void produce(TestBroker broker, String topic, int count) throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }

    @Test
    void answersTheEndOfEachEpochAndKafkasErrors() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("auto.create.topics.enable", "false"));
             Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "epochs", 1, Map.of());
            KafkaClients.createTopic(admin, "empty", 1, Map.of());
            produce(broker, "epochs", 10);
            // The epoch the broker took the partition over at: above 0 (the controller's first assignment raises it).
            int e = KafkaClients.leaderEpoch(admin, new TopicPartition("epochs", 0));
            int empty = KafkaClients.leaderEpoch(admin, new TopicPartition("empty", 0));
            assertThat(e).isPositive();
            for (short version = 2; version <= 4; version++) {
                List<EpochEndOffset> got = ask(broker.port(), version,
                        new Ask("epochs", 0, NO_EPOCH_CHECK, e),
                        new Ask("epochs", 0, e, e),
                        new Ask("epochs", 0, NO_EPOCH_CHECK, e + 1),
                        new Ask("epochs", 0, NO_EPOCH_CHECK, -1),
                        new Ask("empty", 0, empty, empty));
                assertThat(got).extracting(OffsetForLeaderEpochIT::show).as("v%d", version).containsExactly(
                        "NONE " + e + "/10", // the current epoch ends at the log end
                        "NONE " + e + "/10",
                        "NONE -1/-1", // an epoch above the current one is unknown
                        "NONE -1/-1", // so is UNDEFINED_EPOCH
                        "NONE " + empty + "/0");
            }
            List<EpochEndOffset> errors = ask(broker.port(), (short) 4,
                    new Ask("epochs", 0, e + 1, e),
                    new Ask("epochs", 0, e - 1, e),
                    new Ask("epochs", 7, NO_EPOCH_CHECK, 0),
                    new Ask("nope", 0, NO_EPOCH_CHECK, 0));
            assertThat(errors).extracting(OffsetForLeaderEpochIT::show).containsExactly(
                    "UNKNOWN_LEADER_EPOCH -1/-1", // the client has seen a newer epoch than the broker's
                    "FENCED_LEADER_EPOCH -1/-1", // the client's epoch is older than the broker's
                    "UNKNOWN_TOPIC_OR_PARTITION -1/-1",
                    "UNKNOWN_TOPIC_OR_PARTITION -1/-1");

            // an epoch below every epoch the partition had ends where the first one starts: the log start
            admin.deleteRecords(Map.of(new TopicPartition("epochs", 0), RecordsToDelete.beforeOffset(4))).all()
                    .get(20, TimeUnit.SECONDS);
            assertThat(ask(broker.port(), (short) 4, new Ask("epochs", 0, NO_EPOCH_CHECK, -2),
                    new Ask("epochs", 0, NO_EPOCH_CHECK, e - 1), new Ask("epochs", 0, NO_EPOCH_CHECK, e)))
                    .extracting(OffsetForLeaderEpochIT::show)
                    .containsExactly("NONE -2/4", "NONE " + (e - 1) + "/4", "NONE " + e + "/10");
        }
    }

    @Test
    void theJavaConsumerValidatesAPositionWithAnEpochAndDetectsTruncation() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of()); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "validated", 1, Map.of());
            produce(broker, "validated", 10);
            TopicPartition tp = new TopicPartition("validated", 0);
            int e = KafkaClients.leaderEpoch(admin, tp);
            try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                    "none"))) {
                consumer.assign(List.of(tp));
                // a position in the current epoch inside the log: validated, then fetched from there
                consumer.seek(tp, new OffsetAndMetadata(6, Optional.of(e), ""));
                List<ConsumerRecord<String, String>> got = new ArrayList<>();
                for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); got.size() < 4 && System.nanoTime() < end; ) {
                    consumer.poll(Duration.ofMillis(200)).forEach(got::add);
                }
                assertThat(got).extracting(ConsumerRecord::offset).containsExactly(6L, 7L, 8L, 9L);

                // a position past the end of the epoch: the broker's answer (it ends at 10) is the divergence
                consumer.seek(tp, new OffsetAndMetadata(15, Optional.of(e), ""));
                assertThatThrownBy(() -> pollUntilFailure(consumer)).isInstanceOf(LogTruncationException.class)
                        .satisfies(x -> assertThat(((LogTruncationException) x).divergentOffsets())
                                .containsEntry(tp, new OffsetAndMetadata(10, Optional.of(e), null)));

                // an epoch the broker never had: UNDEFINED, truncation with no known divergence
                consumer.seek(tp, new OffsetAndMetadata(3, Optional.of(e + 5), ""));
                assertThatThrownBy(() -> pollUntilFailure(consumer)).isInstanceOf(LogTruncationException.class)
                        .satisfies(x -> assertThat(((LogTruncationException) x).divergentOffsets()).isEmpty());
            }
        }
    }

    @Test
    void needsDescribeOnTheTopicOrClusterActionOnTheCluster() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).pluginsDir(dir.resolve("no-plugins")).acl("""
                allow * CREATE cluster
                allow * DESCRIBE topic:open
                """).start(); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "open", 1, Map.of());
            KafkaClients.createTopic(admin, "closed", 1, Map.of());
            assertThat(ask(broker.port(), (short) 4, new Ask("open", 0, NO_EPOCH_CHECK, 0),
                    new Ask("closed", 0, NO_EPOCH_CHECK, 0), new Ask("closed-and-unknown", 0, NO_EPOCH_CHECK, 0)))
                    .extracting(OffsetForLeaderEpochIT::show)
                    .containsExactly("NONE 0/0", "TOPIC_AUTHORIZATION_FAILED -1/-1", "TOPIC_AUTHORIZATION_FAILED -1/-1");
        }
        try (TestBroker broker = TestBroker.builder(dir.resolve("second")).pluginsDir(dir.resolve("no-plugins")).acl("""
                allow * CREATE cluster
                allow * CLUSTER_ACTION cluster
                """).start(); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "closed", 1, Map.of());
            assertThat(ask(broker.port(), (short) 4, new Ask("closed", 0, NO_EPOCH_CHECK, 0)))
                    .extracting(OffsetForLeaderEpochIT::show).as("a follower's right covers every topic")
                    .containsExactly("NONE 0/0");
        }
    }

    /** The error of a raw full Fetch v12 of partition 0 of {@code topic} naming {@code currentEpoch}. */
    private static Errors fetchError(int port, String topic, int currentEpoch) throws Exception {
        short version = 12;
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(0)
                .setMaxBytes(1 << 20).setIsolationLevel((byte) 0).setSessionId(0).setSessionEpoch(-1)
                .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(topic).setPartitions(List.of(
                        new FetchRequestData.FetchPartition().setPartition(0).setCurrentLeaderEpoch(currentEpoch)
                                .setFetchOffset(0).setLogStartOffset(-1).setPartitionMaxBytes(1 << 16)))));
        RequestHeader header = new RequestHeader(ApiKeys.FETCH, version, "epoch-test", 9);
        ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), data, version);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            FetchResponse parsed = (FetchResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
            return Errors.forCode(parsed.data().responses().get(0).partitions().get(0).errorCode());
        }
    }

    @Test
    void aFullFetchNamingAnOlderOrNewerLeaderEpochIsFencedOrUnknown() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of()); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "fetched", 1, Map.of());
            produce(broker, "fetched", 3);
            int e = KafkaClients.leaderEpoch(admin, new TopicPartition("fetched", 0));
            assertThat(fetchError(broker.port(), "fetched", e)).isEqualTo(Errors.NONE);
            assertThat(fetchError(broker.port(), "fetched", NO_EPOCH_CHECK)).isEqualTo(Errors.NONE);
            assertThat(fetchError(broker.port(), "fetched", e - 1)).isEqualTo(Errors.FENCED_LEADER_EPOCH);
            assertThat(fetchError(broker.port(), "fetched", e + 1)).isEqualTo(Errors.UNKNOWN_LEADER_EPOCH);
        }
    }

    private static void pollUntilFailure(KafkaConsumer<String, String> consumer) {
        for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); System.nanoTime() < end; ) {
            consumer.poll(Duration.ofMillis(200));
        }
    }
}
