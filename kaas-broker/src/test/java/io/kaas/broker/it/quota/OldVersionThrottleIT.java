package io.kaas.broker.it.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throttling as Kafka does it for request versions older than KIP-219 (Produce below v6, Fetch below v8): the
 * throttled response is held for its throttle time; from Produce v6 it is sent at once and the connection waits
 * instead. Raw requests encoded by kafka-clients; producer_byte_rate and consumer_byte_rate quotas over a one-second
 * window, so the throttle times are seconds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OldVersionThrottleIT {
    private static final String TOPIC = "throttle-old";
    private static final String FETCHED = "throttle-old-fetch";
    /** Bytes per second; a request of three times this over the one-second window is throttled about 2 s. */
    private static final int RATE = 20_000;

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("data"), Map.of("quota.window.num", "2",
                "quota.window.size.seconds", "1"));
        broker.createTopic(TOPIC, 1);
        broker.createTopic(FETCHED, 1);
        try (Connection loader = new Connection("loader")) {
            ProduceResponse loaded = (ProduceResponse) loader.read(loader.send(ApiKeys.PRODUCE, (short) 9, 1,
                    bigProduce(FETCHED)));
            assertThat(loaded.throttleTimeMs()).isZero();
        }
        try (Admin admin = broker.admin()) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "old-consumer")),
                    List.of(new ClientQuotaAlteration.Op("consumer_byte_rate", (double) RATE)))))
                    .all().get(20, TimeUnit.SECONDS);
            for (String client : List.of("old-producer", "new-producer")) {
                admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                        new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, client)),
                        List.of(new ClientQuotaAlteration.Op("producer_byte_rate", (double) RATE)))))
                        .all().get(20, TimeUnit.SECONDS);
            }
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void produceV5ResponseIsHeldForItsThrottleTimeAndLaterResponsesKeepTheirOrder() throws Exception {
        try (Connection connection = new Connection("old-producer")) {
            long sent = System.nanoTime();
            RequestHeader produce = connection.send(ApiKeys.PRODUCE, (short) 5, 1, bigProduce(TOPIC));
            // Pipelined behind it: answered only after it, in order.
            RequestHeader versions = connection.send(ApiKeys.API_VERSIONS, (short) 3, 2, new ApiVersionsRequestData()
                    .setClientSoftwareName("raw").setClientSoftwareVersion("1"));
            ProduceResponse response = (ProduceResponse) connection.read(produce);
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertThat(response.data().responses().iterator().next().partitionResponses().get(0).errorCode())
                    .isEqualTo(Errors.NONE.code());
            int throttleMs = response.throttleTimeMs();
            assertThat(throttleMs).as("throttle time carried").isGreaterThan(1000);
            assertThat(elapsedMs).as("the response waited its throttle time").isGreaterThanOrEqualTo(throttleMs - 50L);
            AbstractResponse next = connection.read(versions);
            assertThat(next.apiKey()).isEqualTo(ApiKeys.API_VERSIONS);
        }
    }

    @Test
    void produceV6ResponseIsSentAtOnceAndTheNextRequestWaits() throws Exception {
        try (Connection connection = new Connection("new-producer")) {
            long sent = System.nanoTime();
            ProduceResponse response = (ProduceResponse) connection.read(
                    connection.send(ApiKeys.PRODUCE, (short) 6, 1, bigProduce(TOPIC)));
            long received = System.nanoTime();
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(received - sent);
            int throttleMs = response.throttleTimeMs();
            assertThat(throttleMs).as("throttle time carried").isGreaterThan(1000);
            assertThat(elapsedMs).as("the response came at once").isLessThan(throttleMs / 2L);
            AbstractResponse next = connection.read(connection.send(ApiKeys.API_VERSIONS, (short) 3, 2,
                    new ApiVersionsRequestData().setClientSoftwareName("raw").setClientSoftwareVersion("1")));
            assertThat(next.apiKey()).isEqualTo(ApiKeys.API_VERSIONS);
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - received);
            assertThat(waitedMs).as("the muted connection held the next request").isGreaterThan(throttleMs / 2L);
        }
    }

    @Test
    void fetchV7ResponseIsHeldForItsThrottleTime() throws Exception {
        FetchRequestData fetch = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                .setMaxBytes(1 << 20).setSessionId(0).setSessionEpoch(-1).setTopics(List.of(
                        new FetchRequestData.FetchTopic().setTopic(FETCHED).setPartitions(List.of(
                                new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0)
                                        .setLogStartOffset(-1).setPartitionMaxBytes(1 << 20)))));
        try (Connection connection = new Connection("old-consumer")) {
            long sent = System.nanoTime();
            FetchResponse response = (FetchResponse) connection.read(connection.send(ApiKeys.FETCH, (short) 7, 1, fetch));
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            var partition = response.data().responses().get(0).partitions().get(0);
            assertThat(partition.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(partition.records().sizeInBytes())
                    .isGreaterThan(2 * RATE);
            int throttleMs = response.throttleTimeMs();
            assertThat(throttleMs).as("throttle time carried").isGreaterThan(1000);
            assertThat(elapsedMs).as("the response waited its throttle time").isGreaterThanOrEqualTo(throttleMs - 50L);
        }
    }

    /** One Produce of about three times the quota's bytes per second. */
    private static ProduceRequestData bigProduce(String topic) {
        SimpleRecord[] records = new SimpleRecord[6];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), null, new byte[RATE / 2]);
        }
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                        .setRecords(MemoryRecords.withRecords(Compression.NONE, records)))));
        return new ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000).setTopicData(topics);
    }

    /** A plain socket speaking kafka-clients' serialization; every read bounded. */
    private static final class Connection implements AutoCloseable {
        private final String clientId;
        private final Socket socket;
        private final DataOutputStream out;
        private final DataInputStream in;

        Connection(String clientId) throws Exception {
            this.clientId = clientId;
            socket = new Socket("127.0.0.1", broker.port());
            socket.setSoTimeout(15_000);
            socket.setTcpNoDelay(true);
            out = new DataOutputStream(socket.getOutputStream());
            in = new DataInputStream(socket.getInputStream());
        }

        RequestHeader send(ApiKeys api, short version, int correlationId, ApiMessage body) throws Exception {
            RequestHeader header = new RequestHeader(api, version, clientId, correlationId);
            ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), body, version);
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            return header;
        }

        /** Reads the next response, which must answer {@code header} (its correlation id checked by the parser). */
        AbstractResponse read(RequestHeader header) throws Exception {
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            return AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
