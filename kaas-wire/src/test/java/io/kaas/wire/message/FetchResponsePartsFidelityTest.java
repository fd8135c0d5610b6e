package io.kaas.wire.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.wire.message.FetchResponseData.AbortedTransaction;
import io.kaas.wire.message.FetchResponseData.FetchableTopicResponse;
import io.kaas.wire.message.FetchResponseData.LeaderIdAndEpoch;
import io.kaas.wire.message.FetchResponseData.PartitionData;
import io.kaas.wire.protocol.Records;
import io.kaas.wire.protocol.RecordsOutput;
import io.kaas.wire.protocol.ResponseWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
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
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.protocol.SendBuilder;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Fetch response whose records are file regions, buffers, empty and null, encoded in parts
 * ({@link ResponseWriter#writeParts}), as one copied frame for a channel without file regions, and by
 * {@link ResponseWriter#write}: each must be exactly the bytes kafka-clients puts
 * on the wire for the same content — its {@code SendBuilder} over {@code FileRecords} — in every Fetch version.
 */
class FetchResponsePartsFidelityTest {
    private static final int CORRELATION_ID = 0x5eed;
    private static final java.util.UUID TOPIC_ID = java.util.UUID.fromString("6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b");

    @TempDir
    Path dir;
    private Path file;
    private FileChannel channel;
    private FileRecords kafkaFile;
    private byte[] memoryBatches;
    /** Batch boundaries in the file: [0, b1), [b1, b2), [b2, end). */
    private int b1;
    private int b2;
    private int end;

    @BeforeEach
    void writeSegment() throws IOException {
        byte[] first = batches(0, 40, 300);
        byte[] second = batches(40, 3, 20_000);
        byte[] third = batches(43, 1, 7);
        b1 = first.length;
        b2 = b1 + second.length;
        end = b2 + third.length;
        file = dir.resolve("00000000000000000000.log");
        Files.write(file, concat(first, second, third));
        channel = FileChannel.open(file, StandardOpenOption.READ);
        kafkaFile = FileRecords.open(file.toFile(), false);
        memoryBatches = batches(100, 5, 50);
    }

    @AfterEach
    void close() throws IOException {
        kafkaFile.close();
        channel.close();
    }

    @Test
    void partsAreKafkasBytesInEveryVersion() throws IOException {
        for (short v = FetchResponseData.LOWEST_SUPPORTED_VERSION; v <= FetchResponseData.HIGHEST_SUPPORTED_VERSION; v++) {
            String expected = hex(kafkaBytes(v));
            List<Object> parts = ResponseWriter.writeParts(PooledByteBufAllocator.DEFAULT, CORRELATION_ID,
                ApiMessageType.FETCH.responseHeaderVersion(v), ours(v), v, true);
            assertThat(parts).as("v%d sends the file's records as regions", v)
                .filteredOn(p -> p instanceof FileRegion).hasSize(3);
            assertThat(hex(drain(parts))).as("v%d parts", v).isEqualTo(expected);

            List<Object> copiedParts = ResponseWriter.writeParts(PooledByteBufAllocator.DEFAULT, CORRELATION_ID,
                ApiMessageType.FETCH.responseHeaderVersion(v), ours(v), v, false);
            assertThat(copiedParts).as("v%d without file regions: one copied frame", v).hasSize(1)
                .allMatch(p -> p instanceof ByteBuf);
            assertThat(hex(drain(copiedParts))).as("v%d parts without file regions", v).isEqualTo(expected);

            ByteBuf frame = ResponseWriter.write(PooledByteBufAllocator.DEFAULT, CORRELATION_ID,
                ApiMessageType.FETCH.responseHeaderVersion(v), ours(v), v);
            assertThat(hex(drain(List.of(frame)))).as("v%d one copied frame", v).isEqualTo(expected);
        }
        assertThat(channel.isOpen()).as("regions leave the owner's channel open").isTrue();
    }

    @Test
    void sizeCountsTheRecordParts() {
        short v = 16;
        FetchResponseData r = ours(v);
        int records = (b2 - 0) + memoryBatches.length + memoryBatches.length + (end - b2);
        assertThat(r.recordsSize(v)).isEqualTo(records);
        ByteBuf copied = Unpooled.buffer();
        r.write(copied, v);
        assertThat(copied.readableBytes()).isEqualTo(r.size(v));
        copied.release();
    }

    @Test
    void responseWithoutRecordBytesIsOneBuffer() {
        FetchResponseData r = new FetchResponseData().setResponses(new ArrayList<>(List.of(
            new FetchableTopicResponse().setTopicId(TOPIC_ID).setPartitions(new ArrayList<>(List.of(
                new PartitionData().setRecords(Records.EMPTY)))))));
        List<Object> parts = ResponseWriter.writeParts(PooledByteBufAllocator.DEFAULT, 1, (short) 1, r, (short) 16, true);
        assertThat(parts).hasSize(1).allMatch(p -> p instanceof ByteBuf);
        parts.forEach(ReferenceCountUtil::release);
    }

    // ---------------------------------------------------------------- the same response, ours and Kafka's

    /**
     * alpha: p0 the file's first two batches as two regions, p1 a buffer, p2 an engine's ByteBuffer,
     * p3 empty, p4 an error with null records; beta: p0 the file's last batch.
     */
    private FetchResponseData ours(short v) {
        List<PartitionData> alpha = new ArrayList<>();
        alpha.add(partition(v, 0, new Chunks(out -> {
            out.write(channel, 0, b1);
            out.write(channel, b1, b2 - b1);
        }, b2)));
        alpha.add(partition(v, 1, Records.of(Unpooled.wrappedBuffer(memoryBatches))));
        alpha.add(partition(v, 2, new Chunks(out -> out.write(ByteBuffer.wrap(memoryBatches).asReadOnlyBuffer()),
            memoryBatches.length)));
        alpha.add(partition(v, 3, Records.EMPTY));
        alpha.add(partition(v, 4, null).setErrorCode((short) 1).setHighWatermark(-1).setLastStableOffset(-1)
            .setLogStartOffset(-1).setAbortedTransactions(null));
        List<PartitionData> beta = new ArrayList<>();
        beta.add(partition(v, 0, new Chunks(out -> out.write(channel, b2, end - b2), end - b2)));
        FetchResponseData r = new FetchResponseData().setThrottleTimeMs(v >= 1 ? 12 : 0)
            .setResponses(new ArrayList<>(List.of(topic(v, "alpha", alpha), topic(v, "beta", beta))));
        if (v >= 7) {
            r.setErrorCode((short) 0).setSessionId(77);
        }
        return r;
    }

    private static FetchableTopicResponse topic(short v, String name, List<PartitionData> partitions) {
        FetchableTopicResponse t = new FetchableTopicResponse().setPartitions(partitions);
        return v >= 13 ? t.setTopicId(TOPIC_ID) : t.setTopic(name);
    }

    private static PartitionData partition(short v, int index, Records records) {
        PartitionData p = new PartitionData().setPartitionIndex(index).setHighWatermark(1000 + index)
            .setLastStableOffset(900 + index).setRecords(records)
            .setAbortedTransactions(new ArrayList<>(List.of(new AbortedTransaction().setProducerId(5).setFirstOffset(6))));
        if (v >= 5) {
            p.setLogStartOffset(index);
        }
        if (v >= 11) {
            p.setPreferredReadReplica(index == 1 ? 3 : -1);
        }
        if (v >= 12) {
            p.setCurrentLeader(new LeaderIdAndEpoch().setLeaderId(2).setLeaderEpoch(9));
        }
        return p;
    }

    private org.apache.kafka.common.message.FetchResponseData kafka(short v) throws IOException {
        var alpha = new ArrayList<org.apache.kafka.common.message.FetchResponseData.PartitionData>();
        alpha.add(kafkaPartition(v, 0, kafkaFile.slice(0, b2)));
        alpha.add(kafkaPartition(v, 1, MemoryRecords.readableRecords(ByteBuffer.wrap(memoryBatches))));
        alpha.add(kafkaPartition(v, 2, MemoryRecords.readableRecords(ByteBuffer.wrap(memoryBatches))));
        alpha.add(kafkaPartition(v, 3, MemoryRecords.EMPTY));
        alpha.add(kafkaPartition(v, 4, null).setErrorCode((short) 1).setHighWatermark(-1).setLastStableOffset(-1)
            .setLogStartOffset(-1).setAbortedTransactions(null));
        var beta = new ArrayList<org.apache.kafka.common.message.FetchResponseData.PartitionData>();
        beta.add(kafkaPartition(v, 0, kafkaFile.slice(b2, end - b2)));
        var r = new org.apache.kafka.common.message.FetchResponseData().setThrottleTimeMs(v >= 1 ? 12 : 0)
            .setResponses(new ArrayList<>(List.of(kafkaTopic(v, "alpha", alpha), kafkaTopic(v, "beta", beta))));
        if (v >= 7) {
            r.setErrorCode((short) 0).setSessionId(77);
        }
        return r;
    }

    private static org.apache.kafka.common.message.FetchResponseData.FetchableTopicResponse kafkaTopic(
            short v, String name, List<org.apache.kafka.common.message.FetchResponseData.PartitionData> partitions) {
        var t = new org.apache.kafka.common.message.FetchResponseData.FetchableTopicResponse().setPartitions(partitions);
        return v >= 13 ? t.setTopicId(new Uuid(TOPIC_ID.getMostSignificantBits(), TOPIC_ID.getLeastSignificantBits()))
            : t.setTopic(name);
    }

    private static org.apache.kafka.common.message.FetchResponseData.PartitionData kafkaPartition(
            short v, int index, org.apache.kafka.common.record.internal.BaseRecords records) {
        var p = new org.apache.kafka.common.message.FetchResponseData.PartitionData().setPartitionIndex(index)
            .setHighWatermark(1000 + index).setLastStableOffset(900 + index).setRecords(records)
            .setAbortedTransactions(new ArrayList<>(List.of(
                new org.apache.kafka.common.message.FetchResponseData.AbortedTransaction().setProducerId(5)
                    .setFirstOffset(6))));
        if (v >= 5) {
            p.setLogStartOffset(index);
        }
        if (v >= 11) {
            p.setPreferredReadReplica(index == 1 ? 3 : -1);
        }
        if (v >= 12) {
            p.setCurrentLeader(new org.apache.kafka.common.message.FetchResponseData.LeaderIdAndEpoch()
                .setLeaderId(2).setLeaderEpoch(9));
        }
        return p;
    }

    /** What kafka-clients sends: its SendBuilder's zero-copy send, written to a socket-like channel. */
    private byte[] kafkaBytes(short v) throws IOException {
        ResponseHeader header = new ResponseHeader(CORRELATION_ID, ApiMessageType.FETCH.responseHeaderVersion(v));
        Send send = SendBuilder.buildResponseSend(header, kafka(v), v);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CapturingChannel sink = new CapturingChannel(out);
        while (!send.completed()) {
            send.writeTo(sink);
        }
        assertThat((long) out.size()).isEqualTo(send.size());
        return out.toByteArray();
    }

    // ---------------------------------------------------------------- helpers

    /** Records handed over as the given chunks (as a broker's log slices are). */
    private record Chunks(java.util.function.Consumer<RecordsOutput> chunks, int sizeInBytes) implements Records {
        @Override
        public void writeTo(RecordsOutput out) {
            chunks.accept(out);
        }
    }

    private static byte[] batches(long baseOffset, int count, int valueSize) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[valueSize];
            java.util.Arrays.fill(value, (byte) (baseOffset + i));
            records[i] = new SimpleRecord(1_700_000_000_000L + i, ("k" + i).getBytes(), value);
        }
        ByteBuffer b = MemoryRecords.withRecords(baseOffset, Compression.NONE, records).buffer();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static byte[] concat(byte[]... arrays) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] a : arrays) {
            out.writeBytes(a);
        }
        return out.toByteArray();
    }

    /** What a socket would receive: each buffer's bytes, each region transferred; everything released. */
    static byte[] drain(List<Object> parts) throws IOException {
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

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** A Kafka transferable channel that captures what is written, regions included. */
    private static final class CapturingChannel implements TransferableChannel {
        private final ByteArrayOutputStream out;
        private final WritableByteChannel channel;

        CapturingChannel(ByteArrayOutputStream out) {
            this.out = out;
            this.channel = Channels.newChannel(out);
        }

        @Override
        public boolean hasPendingWrites() {
            return false;
        }

        @Override
        public long transferFrom(FileChannel fileChannel, long position, long count) throws IOException {
            return fileChannel.transferTo(position, count, channel);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                n += channel.write(srcs[i]);
            }
            return n;
        }

        @Override
        public long write(ByteBuffer[] srcs) throws IOException {
            return write(srcs, 0, srcs.length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return channel.write(src);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
