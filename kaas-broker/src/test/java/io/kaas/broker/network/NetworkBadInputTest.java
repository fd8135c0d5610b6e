package io.kaas.broker.network;

import io.kaas.broker.config.SecurityProtocol;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.ApiSpec;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.request.ServedApi;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.HeartbeatResponseData;
import io.kaas.wire.message.MetadataRequestData;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.ProduceResponseData;
import io.kaas.wire.protocol.ApiMessage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad input against a real server on 127.0.0.1: each offending connection is closed, and the server
 * keeps answering other connections.
 */
@Timeout(30)
class NetworkBadInputTest {

    private static final int MAX_FRAME = 64 * 1024;
    private static final int THROWS = -100;
    private static final int SILENT = -200;
    private static final int CLOSES = -300;

    private static KafkaServer server;
    private static int port;

    /** Heartbeat stand-in whose behaviour the generation id picks: sleep n ms, throw, or answer nothing. */
    static final class FakeHeartbeat implements ApiHandler<HeartbeatRequestData, HeartbeatResponseData> {
        static final ApiSpec<HeartbeatRequestData, HeartbeatResponseData> SPEC = ApiSpec.of(ApiMessageType.HEARTBEAT, 0, 4);

        static ServedApi<HeartbeatRequestData, HeartbeatResponseData> served() {
            return ServedApi.of(SPEC, new FakeHeartbeat());
        }
        @Override
        public CompletableFuture<HeartbeatResponseData> handle(RequestContext context, HeartbeatRequestData request) {
            int g = request.generationId();
            if (g == THROWS) {
                throw new IllegalStateException("boom (test)");
            }
            if (g == SILENT) {
                return CompletableFuture.completedFuture(null);
            }
            if (g == CLOSES) {
                return CompletableFuture.failedFuture(new io.kaas.broker.request.CloseConnection("test"));
            }
            LockSupport.parkNanos(Duration.ofMillis(Math.max(0, g)).toNanos());
            return CompletableFuture.completedFuture(new HeartbeatResponseData().setThrottleTimeMs(g));
        }
    }

    /** Metadata stand-in that always fails: Metadata has no top-level error code. */
    static final class FailingMetadata implements ApiHandler<MetadataRequestData, ApiMessage> {
        static final ApiSpec<MetadataRequestData, ApiMessage> SPEC = ApiSpec.of(ApiMessageType.METADATA, 0, 12);
        @Override
        public CompletableFuture<ApiMessage> handle(RequestContext context, MetadataRequestData request) {
            return CompletableFuture.failedFuture(new IllegalStateException("metadata boom (test)"));
        }
    }

    static final class FakeProduce implements ApiHandler<ProduceRequestData, ProduceResponseData> {
        static final ApiSpec<ProduceRequestData, ProduceResponseData> SPEC =
                ApiSpec.<ProduceRequestData, ProduceResponseData>of(ApiMessageType.PRODUCE, 3, 13).advertisedFrom(0);
        @Override
        public CompletableFuture<ProduceResponseData> handle(RequestContext context, ProduceRequestData request) {
            return CompletableFuture.completedFuture(request.acks() == 0 ? null : new ProduceResponseData());
        }
    }

    @BeforeAll
    static void startServer() throws Exception {
        NetworkSettings settings = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, MAX_FRAME, 2, 4, 100, -1, -1,
            Duration.ofSeconds(2), Duration.ofMinutes(10));
        server = new KafkaServer(settings);
        port = server.start(HandlerRegistry.of(List.of(FakeHeartbeat.served(),
            ServedApi.of(FailingMetadata.SPEC, new FailingMetadata()), ServedApi.of(FakeProduce.SPEC, new FakeProduce()))))
            .getPort();
    }

    @AfterAll
    static void stopServer() {
        server.close();
        server.close();
    }

    @AfterEach
    void anotherConnectionIsStillServed() throws IOException {
        try (RawClient other = new RawClient(port)) {
            assertThat(other.apiVersions((short) 3, 4242).errorCode()).isZero();
        }
    }

    @Test
    void apiVersionsV3RoundTrip() throws IOException {
        try (RawClient c = new RawClient(port)) {
            ApiVersionsResponseData r = c.apiVersions((short) 3, 7);
            assertThat(r.errorCode()).isZero();
            assertThat(r.apiKeys()).extracting(k -> List.of(k.apiKey(), k.minVersion(), k.maxVersion()))
                .containsExactly(List.of((short) 0, (short) 0, (short) 13), List.of((short) 3, (short) 0, (short) 12),
                    List.of((short) 12, (short) 0, (short) 4), List.of((short) 18, (short) 0, (short) 5));
            assertThat(r.finalizedFeatures()).isEmpty();
            assertThat(c.apiVersions((short) 4, 8).errorCode()).isZero();
            assertThat(c.apiVersions((short) 0, 9).apiKeys()).hasSize(4);
        }
    }

    @Test
    void apiVersionsAboveOurMaximumGetsAV0AnswerWithUnsupportedVersionAndTheTable() throws IOException {
        try (RawClient c = new RawClient(port)) {
            byte[] frame = requestBytes(ApiMessageType.API_VERSIONS.apiKey(), (short) 127, 99, true, new byte[] {0, 0, 0});
            c.sendBytes(frame);
            RawClient.Response<ApiVersionsResponseData> r = c.readApiVersions((short) 0);
            assertThat(r.correlationId()).isEqualTo(99);
            assertThat(r.body().errorCode()).isEqualTo((short) 35);
            assertThat(r.body().apiKeys()).isNotEmpty()
                .anySatisfy(k -> assertThat(k.apiKey()).isEqualTo(ApiMessageType.API_VERSIONS.apiKey()));
            assertThat(c.apiVersions((short) 3, 100).errorCode()).isZero();
        }
    }

    @Test
    void apiVersionsWithInvalidClientSoftwareGetsInvalidRequest() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.send(ApiMessageType.API_VERSIONS, (short) 3, 5,
                new ApiVersionsRequestData().setClientSoftwareName("-bad-").setClientSoftwareVersion("1"));
            assertThat(c.readApiVersions((short) 3).body().errorCode()).isEqualTo((short) 42);
        }
    }

    @Test
    void truncatedFrameThenCloseLeavesTheServerServing() throws IOException {
        try (RawClient c = new RawClient(port)) {
            byte[] frame = RawClient.frame(ApiMessageType.API_VERSIONS, (short) 3, 1, new ApiVersionsRequestData());
            c.sendBytes(Arrays.copyOf(frame, frame.length - 3));
        }
    }

    @Test
    void frameOverTheSizeCapIsClosed() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.sendBytes(ByteBuffer.allocate(8).putInt(MAX_FRAME + 1).putInt(0).array());
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void negativeFrameSizeIsClosed() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.sendBytes(ByteBuffer.allocate(8).putInt(-5).putInt(0).array());
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void frameTooShortForAHeaderIsClosed() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.sendBytes(ByteBuffer.allocate(7).putInt(3).put(new byte[] {0, 18, 0}).array());
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void unknownApiKeyIsClosed() throws IOException {
        for (short key : new short[] {999, -1, 4, 1}) {
            try (RawClient c = new RawClient(port)) {
                c.sendBytes(requestBytes(key, (short) 0, 1, false, new byte[0]));
                assertThat(c.closedByServer()).as("api key %d", key).isTrue();
            }
        }
    }

    @Test
    void unsupportedVersionOfAKnownApiIsClosed() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.sendBytes(requestBytes(ApiMessageType.HEARTBEAT.apiKey(), (short) 5, 1, true, new byte[8]));
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void produceV2IsAdvertisedButRefused() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.sendBytes(requestBytes(ApiMessageType.PRODUCE.apiKey(), (short) 2, 1, false, new byte[16]));
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void garbageIsClosed() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.sendBytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(c.closedByServer()).isTrue();
        }
        Random random = new Random(42);
        for (int i = 0; i < 20; i++) {
            byte[] body = new byte[8 + random.nextInt(64)];
            random.nextBytes(body);
            body[0] = 0;
            body[1] = 12;
            body[2] = 0;
            body[3] = (byte) random.nextInt(5);
            try (RawClient c = new RawClient(port)) {
                c.sendBytes(ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array());
                assertThat(c.closedByServer()).as("garbage frame %d", i).isTrue();
            }
        }
    }

    @Test
    void malformedBodyIsClosed() throws IOException {
        try (RawClient c = new RawClient(port)) {
            byte[] frame = RawClient.frame(ApiMessageType.HEARTBEAT, (short) 4, 1,
                new HeartbeatRequestData().setGroupId("g").setMemberId("m"));
            byte[] cut = Arrays.copyOf(frame, frame.length - 4);
            ByteBuffer.wrap(cut).putInt(cut.length - 4);
            c.sendBytes(cut);
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void pipelinedResponsesComeBackInRequestOrder() throws IOException {
        try (RawClient c = new RawClient(port)) {
            List<Integer> sent = new ArrayList<>();
            int[] delays = {300, 0, 50, SILENT, 0, 20, 0, SILENT, 0, 0, 100, 0};
            for (int i = 0; i < delays.length; i++) {
                short version = (short) (i % 5);
                c.send(ApiMessageType.HEARTBEAT, version, 1000 + i,
                    new HeartbeatRequestData().setGroupId("g").setMemberId("m").setGenerationId(delays[i]));
                if (delays[i] != SILENT) {
                    sent.add(1000 + i);
                }
            }
            List<Integer> received = new ArrayList<>();
            for (int i = 0; i < sent.size(); i++) {
                short version = (short) ((sent.get(i) - 1000) % 5);
                RawClient.Response<HeartbeatResponseData> r = c.read(ApiMessageType.HEARTBEAT, version);
                received.add(r.correlationId());
                assertThat(r.body().errorCode()).isZero();
            }
            assertThat(received).containsExactlyElementsOf(sent);
        }
    }

    @Test
    void acksZeroProduceGetsNoResponseButKeepsItsPlace() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.send(ApiMessageType.PRODUCE, (short) 9, 1, new ProduceRequestData().setAcks((short) 0).setTimeoutMs(1000));
            c.send(ApiMessageType.PRODUCE, (short) 9, 2, new ProduceRequestData().setAcks((short) 1).setTimeoutMs(1000));
            assertThat(c.read(ApiMessageType.PRODUCE, (short) 9).correlationId()).isEqualTo(2);
        }
    }

    @Test
    void handlerFailureAnswersTopLevelErrorWhereTheApiHasOne() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.send(ApiMessageType.HEARTBEAT, (short) 4, 3,
                new HeartbeatRequestData().setGroupId("g").setMemberId("m").setGenerationId(THROWS));
            RawClient.Response<HeartbeatResponseData> r = c.read(ApiMessageType.HEARTBEAT, (short) 4);
            assertThat(r.correlationId()).isEqualTo(3);
            assertThat(r.body().errorCode()).isEqualTo((short) -1);
            assertThat(c.apiVersions((short) 3, 4).errorCode()).isZero();
        }
    }

    @Test
    void aHandlerAnsweringCloseConnectionClosesItAfterTheEarlierResponsesWithoutAnError() throws IOException {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log = ConnectionLimitsTest.capture(RequestDispatcher.class);
        try (RawClient c = new RawClient(port)) {
            c.send(ApiMessageType.HEARTBEAT, (short) 4, 1,
                new HeartbeatRequestData().setGroupId("g").setMemberId("m").setGenerationId(50));
            c.send(ApiMessageType.HEARTBEAT, (short) 4, 2,
                new HeartbeatRequestData().setGroupId("g").setMemberId("m").setGenerationId(CLOSES));
            assertThat(c.read(ApiMessageType.HEARTBEAT, (short) 4).correlationId()).isEqualTo(1);
            assertThat(c.closedByServer()).isTrue();
        } finally {
            ConnectionLimitsTest.release(RequestDispatcher.class, log);
        }
        assertThat(log.list).extracting(e -> e.getLevel().toString() + " " + e.getFormattedMessage())
            .containsExactly("INFO closing connection: test");
    }

    @Test
    void handlerFailureClosesTheConnectionWhereTheApiHasNoTopLevelError() throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.send(ApiMessageType.METADATA, (short) 12, 3, new MetadataRequestData());
            assertThat(c.closedByServer()).isTrue();
        }
    }

    /** A request frame with header v1 (or v2 when flexible: empty tagged fields) and the given body bytes. */
    private static byte[] requestBytes(short apiKey, short version, int correlationId, boolean flexible, byte[] body) {
        int size = 2 + 2 + 4 + 2 + (flexible ? 1 : 0) + body.length;
        ByteBuffer b = ByteBuffer.allocate(4 + size).putInt(size).putShort(apiKey).putShort(version)
            .putInt(correlationId).putShort((short) -1);
        if (flexible) {
            b.put((byte) 0);
        }
        return b.put(body).array();
    }
}
