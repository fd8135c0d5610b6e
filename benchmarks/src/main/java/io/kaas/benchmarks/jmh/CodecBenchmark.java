package io.kaas.benchmarks.jmh;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.protocol.Records;
import io.kaas.wire.protocol.ResponseWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The generated codec on the hot path: decoding a Produce v12 request of 3 partitions × 16 KiB
 * (records stay slices: the cost should not grow with their size), and encoding a Fetch v16
 * response of 3 partitions × 64 KiB into a pooled buffer (the copy path, as for TLS), and into parts (the
 * plaintext path: the frame around the records in one pooled buffer, the records as parts of their own).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CodecBenchmark {
    private static final short PRODUCE_VERSION = 12;
    private static final short FETCH_VERSION = 16;

    private ByteBuf produceBody;
    private FetchResponseData fetchResponse;

    @Setup(Level.Trial)
    public void build() {
        ByteBuf records = Unpooled.wrappedBuffer(Batches.batch(16, 1024));
        List<ProduceRequestData.PartitionProduceData> partitions = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            partitions.add(new ProduceRequestData.PartitionProduceData().setIndex(p).setRecords(Records.of(records)));
        }
        ProduceRequestData produce = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                .setTopicData(new ArrayList<>(List.of(new ProduceRequestData.TopicProduceData().setName("bench")
                        .setPartitionData(partitions))));
        produceBody = Unpooled.directBuffer(produce.size(PRODUCE_VERSION));
        produce.write(produceBody, PRODUCE_VERSION);

        ByteBuf fetched = Unpooled.wrappedBuffer(Batches.batch(64, 1024));
        List<FetchResponseData.PartitionData> fp = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            fp.add(new FetchResponseData.PartitionData().setPartitionIndex(p).setHighWatermark(1000)
                    .setLastStableOffset(1000).setLogStartOffset(0).setRecords(Records.of(fetched)));
        }
        fetchResponse = new FetchResponseData().setSessionId(1).setResponses(new ArrayList<>(List.of(
                new FetchResponseData.FetchableTopicResponse().setTopicId(UUID.randomUUID()).setPartitions(fp))));
    }

    @TearDown(Level.Trial)
    public void release() {
        produceBody.release();
    }

    @Benchmark
    public ProduceRequestData decodeProduceRequest() {
        ProduceRequestData d = new ProduceRequestData();
        d.read(produceBody.duplicate(), PRODUCE_VERSION);
        return d;
    }

    @Benchmark
    public int encodeFetchResponse() {
        ByteBuf frame = ResponseWriter.write(PooledByteBufAllocator.DEFAULT, 1,
                ApiMessageType.FETCH.responseHeaderVersion(FETCH_VERSION), fetchResponse, FETCH_VERSION);
        int n = frame.readableBytes();
        frame.release();
        return n;
    }

    @Benchmark
    public int encodeFetchResponseParts() {
        List<Object> parts = ResponseWriter.writeParts(PooledByteBufAllocator.DEFAULT, 1,
                ApiMessageType.FETCH.responseHeaderVersion(FETCH_VERSION), fetchResponse, FETCH_VERSION, true);
        int n = parts.size();
        parts.forEach(ReferenceCountUtil::release);
        return n;
    }
}
