package io.kaas.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.config.ConnectionLimitsConfig;
import io.kaas.broker.config.SecurityProtocol;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.ApiSpec;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.request.ServedApi;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.ProduceResponseData;
import io.kaas.wire.protocol.Records;
import io.kaas.wire.protocol.RecordsOutput;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that pipelines many Fetch requests and does not read the responses is back-pressured: the server stops
 * handling its requests once its responses back up, so the requests handled, the requests in flight and the bytes
 * waiting to be sent stay bounded (by the in-flight bound per connection), whether responses are zero-copy file
 * regions or buffers; once the client reads, every request is answered in order.
 */
@Timeout(60)
class BackPressureTest {

    private static final int RESPONSE_BYTES = 64 * 1024;
    private static final int MAX_IN_FLIGHT = 100;
    private static final int REQUESTS = 1000;

    @TempDir
    Path dir;

    /** Fetch stand-in answering every request with RESPONSE_BYTES of records, from a file or a new buffer. */
    private static final class BigFetch implements ApiHandler<FetchRequestData, FetchResponseData> {
        static final ApiSpec<FetchRequestData, FetchResponseData> SPEC = ApiSpec.of(ApiMessageType.FETCH, 4, 17);
        final AtomicInteger handled = new AtomicInteger();
        final FileChannel file;

        BigFetch(FileChannel file) {
            this.file = file;
        }

        @Override
        public CompletableFuture<FetchResponseData> handle(RequestContext context, FetchRequestData request) {
            handled.incrementAndGet();
            Records records = file != null ? new Records() {
                @Override
                public int sizeInBytes() {
                    return RESPONSE_BYTES;
                }

                @Override
                public void writeTo(RecordsOutput out) {
                    out.write(file, 0, RESPONSE_BYTES);
                }
            } : Records.of(Unpooled.wrappedBuffer(new byte[RESPONSE_BYTES]));
            return CompletableFuture.completedFuture(new FetchResponseData().setResponses(List.of(
                new FetchResponseData.FetchableTopicResponse().setTopic("t").setPartitions(List.of(
                    new FetchResponseData.PartitionData().setPartitionIndex(0).setRecords(records))))));
        }
    }

    @Test
    void aClientNotReadingItsFileRegionResponsesIsBackPressured() throws Exception {
        Path data = Files.write(dir.resolve("records"), new byte[RESPONSE_BYTES]);
        try (FileChannel file = FileChannel.open(data, StandardOpenOption.READ)) {
            pipelineWithoutReading(new BigFetch(file));
        }
    }

    @Test
    void aClientNotReadingItsBufferResponsesIsBackPressured() throws Exception {
        pipelineWithoutReading(new BigFetch(null));
    }

    /** Produce stand-in that answers only once the test opens its gate. */
    private static final class GatedProduce implements ApiHandler<ProduceRequestData, ProduceResponseData> {
        static final ApiSpec<ProduceRequestData, ProduceResponseData> SPEC = ApiSpec.of(ApiMessageType.PRODUCE, 3, 13);
        final AtomicInteger handled = new AtomicInteger();
        final CompletableFuture<Void> gate = new CompletableFuture<>();

        @Override
        public CompletableFuture<ProduceResponseData> handle(RequestContext context, ProduceRequestData request) {
            handled.incrementAndGet();
            return gate.thenApply(v -> new ProduceResponseData());
        }
    }

    @Test
    void aConnectionHoldsAboutOneLargestFrameOfRequestsAtOnceHoweverManyItPipelines() throws Exception {
        int maxFrame = 1 << 20;
        NetworkSettings settings = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, maxFrame, 1,
            2, MAX_IN_FLIGHT, -1, -1, Duration.ofSeconds(2), Duration.ZERO);
        GatedProduce produce = new GatedProduce();
        try (KafkaServer server = new KafkaServer(settings);
             RawClient client = new RawClient(server.start(HandlerRegistry.of(List.of(ServedApi.of(GatedProduce.SPEC, produce))))
                 .getPort())) {
            int requests = 6;
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            for (int i = 0; i < requests; i++) {
                batch.write(RawClient.frame(ApiMessageType.PRODUCE, (short) 9, i, new ProduceRequestData().setAcks((short) 1)
                    .setTimeoutMs(1000).setTopicData(List.of(new ProduceRequestData.TopicProduceData().setName("t")
                        .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                            .setRecords(Records.of(Unpooled.wrappedBuffer(new byte[600 * 1024])))))))));
            }
            Thread writer = new Thread(() -> {
                try {
                    client.sendBytes(batch.toByteArray());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            writer.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> produce.handled.get() == 2);
            Thread.sleep(300);
            assertThat(produce.handled.get()).as("600 KiB + 600 KiB held: the third waits, however many are pipelined")
                .isEqualTo(2);

            produce.gate.complete(null);
            for (int i = 0; i < requests; i++) {
                assertThat(client.readFrame().getInt()).as("response %d in order", i).isEqualTo(i);
            }
            writer.join(10_000);
            assertThat(produce.handled.get()).isEqualTo(requests);
        }
    }

    @Test
    void queuedMaxRequestBytesBoundsTheRequestBytesHeldAcrossConnections() throws Exception {
        NetworkSettings settings = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, 4 << 20, 1,
            2, MAX_IN_FLIGHT, -1, -1, Duration.ofSeconds(2), Duration.ZERO);
        GatedProduce produce = new GatedProduce();
        try (KafkaServer server = new KafkaServer(settings, new ConnectionLimitsConfig(Integer.MAX_VALUE, Map.of(),
                Integer.MAX_VALUE, Map.of(), 500, 1 << 20))) {
            int port = server.start(HandlerRegistry.of(List.of(ServedApi.of(GatedProduce.SPEC, produce)))).getPort();
            try (RawClient a = new RawClient(port); RawClient b = new RawClient(port)) {
                a.sendBytes(produceFrame(1, 600 * 1024));
                await().atMost(Duration.ofSeconds(10)).until(() -> produce.handled.get() == 1);
                b.sendBytes(produceFrame(2, 600 * 1024));
                await().atMost(Duration.ofSeconds(10)).until(() -> produce.handled.get() == 2);
                a.sendBytes(produceFrame(3, 600 * 1024));
                Thread.sleep(300);
                assertThat(produce.handled.get()).as("1.2 MiB held, over queued.max.request.bytes: the third waits").isEqualTo(2);
                assertThat(server.queuedRequestBytes()).isGreaterThanOrEqualTo(1 << 20);

                produce.gate.complete(null);
                assertThat(a.readFrame().getInt()).isEqualTo(1);
                assertThat(b.readFrame().getInt()).isEqualTo(2);
                assertThat(a.readFrame().getInt()).isEqualTo(3);
                assertThat(produce.handled.get()).isEqualTo(3);
                await().atMost(Duration.ofSeconds(5)).until(() -> server.queuedRequestBytes() == 0);
            }
        }
    }

    private static byte[] produceFrame(int correlationId, int recordBytes) {
        return RawClient.frame(ApiMessageType.PRODUCE, (short) 9, correlationId, new ProduceRequestData().setAcks((short) 1)
            .setTimeoutMs(1000).setTopicData(List.of(new ProduceRequestData.TopicProduceData().setName("t")
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                    .setRecords(Records.of(Unpooled.wrappedBuffer(new byte[recordBytes]))))))));
    }

    private void pipelineWithoutReading(BigFetch fetch) throws Exception {
        NetworkSettings settings = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, 1 << 20, 1,
            2, MAX_IN_FLIGHT, 64 * 1024, -1, Duration.ofSeconds(2), Duration.ZERO);
        try (KafkaServer server = new KafkaServer(settings, new ConnectionLimitsConfig(Integer.MAX_VALUE, Map.of(),
                Integer.MAX_VALUE, Map.of(), 500));
             RawClient client = new RawClient(server.start(HandlerRegistry.of(List.of(ServedApi.of(BigFetch.SPEC, fetch))))
                 .getPort(), null, 64 * 1024)) {
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            for (int i = 0; i < REQUESTS; i++) {
                batch.write(RawClient.frame(ApiMessageType.FETCH, (short) 11, i, new FetchRequestData().setMaxBytes(1 << 20)
                    .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic("t").setPartitions(List.of(
                        new FetchRequestData.FetchPartition().setPartition(0).setPartitionMaxBytes(1 << 20)))))));
            }
            client.sendBytes(batch.toByteArray());

            // The server handles requests until the responses back up, then stops: the count settles.
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300))
                .until(new java.util.concurrent.Callable<Boolean>() {
                    int last = -1;

                    @Override
                    public Boolean call() {
                        int now = fetch.handled.get();
                        boolean settled = now == last && now > 0;
                        last = now;
                        return settled;
                    }
                });
            // What the kernel's socket buffers absorb (64 KiB asked at each end, the kernel may double it), plus the bound.
            int absorbedByKernel = 4 * 2 * 64 * 1024 / RESPONSE_BYTES;
            assertThat(fetch.handled.get()).as("requests handled while the client reads nothing")
                .isLessThanOrEqualTo(MAX_IN_FLIGHT + absorbedByKernel + 1);
            assertThat(server.inFlightRequests()).isLessThanOrEqualTo(MAX_IN_FLIGHT);
            assertThat(server.pendingWriteBytes()).as("bytes waiting to be sent")
                .isLessThanOrEqualTo((long) (MAX_IN_FLIGHT + 1) * (RESPONSE_BYTES + 1024));

            for (int i = 0; i < REQUESTS; i++) {
                assertThat(client.readFrame().getInt()).as("response %d in order", i).isEqualTo(i);
            }
            assertThat(fetch.handled.get()).isEqualTo(REQUESTS);
            await().atMost(Duration.ofSeconds(5)).until(() -> server.inFlightRequests() == 0);
            assertThat(server.pendingWriteBytes()).isZero();
        }
    }
}
