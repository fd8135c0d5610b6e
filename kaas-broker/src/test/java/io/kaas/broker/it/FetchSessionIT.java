package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** KIP-227 incremental fetch sessions: epochs and errors over the raw protocol, then the real consumer. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FetchSessionIT {
    private static final String TOPIC = "sessions";
    private static final String WIDE = "wide";
    private static final int WIDE_PARTITIONS = 300;

    @TempDir
    static Path dataDir;
    static TestBroker broker;
    static Uuid topicId;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dataDir, Map.of("auto.create.topics.enable", "false"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1), new NewTopic(WIDE, WIDE_PARTITIONS, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            topicId = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(20, TimeUnit.SECONDS).get(TOPIC).topicId();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static void produce(String topic, int partition, int count) throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, "k", "v" + i));
            }
            producer.flush();
        }
    }

    private static FetchRequestData request(int sessionId, int epoch, long[] offsets, int... partitions) {
        FetchRequestData.FetchTopic t = new FetchRequestData.FetchTopic().setTopic(TOPIC).setTopicId(topicId);
        for (int p : partitions) {
            t.partitions().add(new FetchRequestData.FetchPartition().setPartition(p).setFetchOffset(offsets[p])
                    .setPartitionMaxBytes(1 << 20));
        }
        return new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1).setMaxBytes(1 << 22)
                .setSessionId(sessionId).setSessionEpoch(epoch)
                .setTopics(partitions.length == 0 ? new ArrayList<>() : new ArrayList<>(List.of(t)));
    }

    private static FetchRequestData forget(FetchRequestData r, int... partitions) {
        List<Integer> ps = new ArrayList<>();
        for (int p : partitions) {
            ps.add(p);
        }
        r.forgottenTopicsData().add(new FetchRequestData.ForgottenTopic().setTopic(TOPIC).setTopicId(topicId)
                .setPartitions(ps));
        return r;
    }

    private static FetchResponseData send(Socket socket, FetchRequestData data, short version) throws Exception {
        RequestHeader header = new RequestHeader(ApiKeys.FETCH, version, "session-test", 3);
        ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), data, version);
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(bytes.remaining());
        out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] response = new byte[in.readInt()];
        in.readFully(response);
        return ((FetchResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header)).data();
    }

    /** Partition index → record bytes returned, for the partitions present in the response. */
    private static Map<Integer, Integer> partitions(FetchResponseData r) {
        Map<Integer, Integer> out = new java.util.TreeMap<>();
        for (var t : r.responses()) {
            for (var p : t.partitions()) {
                out.put(p.partitionIndex(), p.records() == null ? 0 : p.records().sizeInBytes());
            }
        }
        return out;
    }

    @Test
    void incrementalFetchesCarryOnlyWhatChangedAndCheckTheEpoch() throws Exception {
        produce(TOPIC, 0, 5);
        short v = 12;
        long[] offsets = {0, 0, 0};
        try (Socket socket = new Socket("127.0.0.1", broker.port())) {
            socket.setSoTimeout(10_000);
            FetchResponseData full = send(socket, request(0, 0, offsets, 0, 1, 2), v);
            assertThat(Errors.forCode(full.errorCode())).isEqualTo(Errors.NONE);
            int session = full.sessionId();
            assertThat(session).isNotZero();
            assertThat(partitions(full)).containsOnlyKeys(0, 1, 2);
            assertThat(partitions(full).get(0)).isPositive();

            offsets[0] = 5;
            FetchResponseData nothing = send(socket, request(session, 1, offsets, 0), v);
            assertThat(Errors.forCode(nothing.errorCode())).isEqualTo(Errors.NONE);
            assertThat(nothing.sessionId()).isEqualTo(session);
            assertThat(partitions(nothing)).as("nothing changed since the full fetch").isEmpty();

            FetchResponseData stale = send(socket, request(session, 1, offsets), v);
            assertThat(Errors.forCode(stale.errorCode())).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);

            produce(TOPIC, 1, 3);
            FetchResponseData onlyP1 = send(socket, request(session, 2, offsets), v);
            assertThat(partitions(onlyP1)).containsOnlyKeys(1);
            assertThat(partitions(onlyP1).get(1)).isPositive();

            offsets[1] = 3;
            FetchResponseData forgot = send(socket, forget(request(session, 3, offsets, 1), 2), v);
            assertThat(partitions(forgot)).isEmpty();
            produce(TOPIC, 2, 2);
            FetchResponseData afterForget = send(socket, request(session, 4, offsets), v);
            assertThat(partitions(afterForget)).as("p2 was forgotten").isEmpty();

            FetchResponseData byIdOnNameSession = send(socket, request(session, 5, offsets), (short) 13);
            assertThat(Errors.forCode(byIdOnNameSession.errorCode())).isEqualTo(Errors.FETCH_SESSION_TOPIC_ID_ERROR);

            FetchResponseData close = send(socket, request(session, -1, offsets, 0), v);
            assertThat(close.sessionId()).isZero();
            FetchResponseData closed = send(socket, request(session, 5, offsets), v);
            assertThat(Errors.forCode(closed.errorCode())).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);

            FetchResponseData unknown = send(socket, request(123_456_789, 1, offsets), (short) 16);
            assertThat(Errors.forCode(unknown.errorCode())).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        }
    }

    @Test
    void consumerOfManyPartitionsReadsEverythingThroughItsSession() throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            for (int p = 0; p < WIDE_PARTITIONS; p++) {
                producer.send(new ProducerRecord<>(WIDE, p, "k", "first-" + p));
            }
            producer.flush();
            Set<TopicPartition> all = new HashSet<>();
            for (int p = 0; p < WIDE_PARTITIONS; p++) {
                all.add(new TopicPartition(WIDE, p));
            }
            try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of("max.poll.records", 1000))) {
                List<ConsumerRecord<String, String>> first = Consume.fromBeginning(consumer, all, WIDE_PARTITIONS,
                        Duration.ofSeconds(40));
                assertThat(first).hasSize(WIDE_PARTITIONS);
                // Incremental fetches from here on: only the partitions written to come back.
                for (int p = 0; p < WIDE_PARTITIONS; p += 7) {
                    producer.send(new ProducerRecord<>(WIDE, p, "k", "second-" + p));
                }
                producer.flush();
                int expected = (WIDE_PARTITIONS + 6) / 7;
                List<ConsumerRecord<String, String>> second = new ArrayList<>();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (second.size() < expected && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(second::add);
                }
                assertThat(second).hasSize(expected).allMatch(r -> r.value().startsWith("second-"));
            }
        }
    }
}
