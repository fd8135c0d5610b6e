package io.kaas.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogSlice;
import io.kaas.wire.protocol.Errors;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.FetchResponseData.AbortedTransaction;
import io.kaas.wire.message.FetchResponseData.FetchableTopicResponse;
import io.kaas.wire.message.FetchResponseData.PartitionData;
import io.kaas.wire.protocol.Records;
import io.kaas.wire.protocol.ResponseWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.FileRegion;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Fetch response whose records are the engine's slices, encoded zero-copy by the codec and decoded by
 * kafka-clients' own parser, every version.
 */
class LogSliceRecordsTest {
    private static final UUID TOPIC_ID = UUID.randomUUID();

    @TempDir
    Path dir;
    FileChannel channel;
    byte[] fileBytes;
    byte[] bufferBytes;

    @BeforeEach
    void writeSegment() throws IOException {
        Random random = new Random(42);
        fileBytes = new byte[70_000];
        random.nextBytes(fileBytes);
        bufferBytes = new byte[333];
        random.nextBytes(bufferBytes);
        Path file = dir.resolve("segment.log");
        Files.write(file, fileBytes);
        channel = FileChannel.open(file, StandardOpenOption.READ);
    }

    @AfterEach
    void close() throws IOException {
        channel.close();
    }

    /** Two topics: file slices, a buffer slice, nothing, an error, and a file slice after them. */
    private io.kaas.wire.message.FetchResponseData response(short v) {
        var r = new io.kaas.wire.message.FetchResponseData();
        r.setThrottleTimeMs(0).setErrorCode(Errors.NONE).setSessionId(v >= 7 ? 77 : 0);
        List<FetchableTopicResponse> topics = new ArrayList<>();
        List<PartitionData> a = new ArrayList<>();
        a.add(partition(0, List.of(new FileSlice(channel, 100, 5000), new FileSlice(channel, 10_000, 60_000))));
        a.add(partition(1, List.of(new BufferSlice(ByteBuffer.wrap(bufferBytes)))));
        a.add(partition(2, List.of()));
        a.add(new PartitionData().setPartitionIndex(3).setErrorCode(Errors.OFFSET_OUT_OF_RANGE)
                .setHighWatermark(-1).setLastStableOffset(-1).setLogStartOffset(-1).setRecords(Records.EMPTY));
        topics.add(new FetchableTopicResponse().setTopic("alpha").setTopicId(TOPIC_ID).setPartitions(a));
        List<PartitionData> b = new ArrayList<>();
        b.add(partition(0, List.of(new FileSlice(channel, 0, 1))));
        topics.add(new FetchableTopicResponse().setTopic("beta").setTopicId(TOPIC_ID).setPartitions(b));
        r.setResponses(topics);
        return r;
    }

    private static PartitionData partition(int index, List<LogSlice> slices) {
        return new PartitionData().setPartitionIndex(index).setErrorCode(Errors.NONE)
                .setHighWatermark(1000 + index).setLastStableOffset(900 + index).setLogStartOffset(index)
                .setPreferredReadReplica(-1).setAbortedTransactions(List.of(new AbortedTransaction()
                        .setProducerId(5).setFirstOffset(6))).setRecords(new LogSliceRecords(slices));
    }

    private byte[][] expectedRecords() {
        byte[] p0 = new byte[65_000];
        System.arraycopy(fileBytes, 100, p0, 0, 5000);
        System.arraycopy(fileBytes, 10_000, p0, 5000, 60_000);
        return new byte[][] {p0, bufferBytes, new byte[0], new byte[0], Arrays.copyOfRange(fileBytes, 0, 1)};
    }

    @Test
    void splicedPartsDecodeWithKafkasParserInEveryVersion() throws IOException {
        for (short v = 4; v <= 18; v++) {
            List<Object> parts = ResponseWriter.writeParts(UnpooledByteBufAllocator.DEFAULT, 9, responseHeader(v), response(v),
                    v, true);
            assertThat(parts).anyMatch(p -> p instanceof FileRegion);
            byte[] spliced = concat(parts);
            assertDecodes(spliced, v);
            List<Object> copied = ResponseWriter.writeParts(UnpooledByteBufAllocator.DEFAULT, 9, responseHeader(v),
                    response(v), v, false);
            assertThat(copied).hasSize(1).allMatch(p -> p instanceof ByteBuf);
            assertThat(concat(copied)).as("v%d copy path is byte-identical", v).isEqualTo(spliced);
        }
    }

    @Test
    void regionsLeaveTheEnginesChannelOpen() throws IOException {
        List<Object> parts = ResponseWriter.writeParts(UnpooledByteBufAllocator.DEFAULT, 1, (short) 1, response((short) 16),
                (short) 16, true);
        concat(parts);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void responseWithoutSlicesIsOneBuffer() {
        var r = new io.kaas.wire.message.FetchResponseData();
        r.setSessionId(0).setResponses(new ArrayList<>());
        List<Object> parts = ResponseWriter.writeParts(UnpooledByteBufAllocator.DEFAULT, 1, (short) 1, r, (short) 16, true);
        assertThat(parts).hasSize(1);
        parts.forEach(ReferenceCountUtil::release);
    }

    private void assertDecodes(byte[] frame, short v) {
        ByteBuffer buf = ByteBuffer.wrap(frame);
        assertThat(buf.getInt()).as("v%d size prefix", v).isEqualTo(frame.length - 4);
        ResponseHeader header = ResponseHeader.parse(buf, responseHeader(v));
        assertThat(header.correlationId()).isEqualTo(9);
        FetchResponseData data = new FetchResponseData(new ByteBufferAccessor(buf), v);
        assertThat(buf.hasRemaining()).as("v%d trailing bytes", v).isFalse();
        List<byte[]> got = new ArrayList<>();
        List<Long> hws = new ArrayList<>();
        for (var t : data.responses()) {
            for (var p : t.partitions()) {
                got.add(bytes(p.records()));
                hws.add(p.highWatermark());
            }
        }
        byte[][] expected = expectedRecords();
        assertThat(got).as("v%d partitions", v).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(got.get(i)).as("v%d partition #%d records", v, i).isEqualTo(expected[i]);
        }
        assertThat(hws).containsExactly(1000L, 1001L, 1002L, -1L, 1000L);
        assertThat(data.sessionId()).isEqualTo(v >= 7 ? 77 : 0);
        if (v >= 13) {
            assertThat(data.responses().get(0).topicId().toString()).isNotEmpty();
        } else {
            assertThat(data.responses().get(0).topic()).isEqualTo("alpha");
        }
    }

    private static byte[] bytes(BaseRecords records) {
        if (records == null) {
            return new byte[0];
        }
        ByteBuffer b = ((MemoryRecords) records).buffer().duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static short responseHeader(short v) {
        return ApiMessageType.FETCH.responseHeaderVersion(v);
    }

    /** What a socket would receive: each buffer's bytes, each region transferred, everything released. */
    static byte[] concat(List<Object> parts) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel sink = Channels.newChannel(out);
        try {
            for (Object part : parts) {
                if (part instanceof ByteBuf b) {
                    byte[] bytes = new byte[b.readableBytes()];
                    b.getBytes(b.readerIndex(), bytes);
                    out.write(bytes);
                } else {
                    FileRegion region = (FileRegion) part;
                    while (region.transferred() < region.count()) {
                        region.transferTo(sink, region.transferred());
                    }
                }
            }
        } finally {
            parts.forEach(ReferenceCountUtil::release);
        }
        return out.toByteArray();
    }
}
