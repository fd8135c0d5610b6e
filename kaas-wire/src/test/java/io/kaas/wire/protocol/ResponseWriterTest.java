package io.kaas.wire.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.message.RequestHeaderData;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;

class ResponseWriterTest {

    @Test
    void apiVersionsResponseFrameIsReadableByKafka() {
        ApiVersionsResponseData body = new ApiVersionsResponseData().setApiKeys(List.of(
            new ApiVersionsResponseData.ApiVersion().setApiKey((short) 18).setMinVersion((short) 0).setMaxVersion((short) 4)));
        short headerVersion = ApiMessageType.API_VERSIONS.responseHeaderVersion((short) 4);
        ByteBuf frame = ResponseWriter.write(ByteBufAllocator.DEFAULT, 42, headerVersion, body, (short) 4);
        try {
            assertThat(frame.readInt()).isEqualTo(frame.readableBytes());
            assertThat(frame.readInt()).as("correlation id, v0 header").isEqualTo(42);
            ByteBuffer rest = ByteBuffer.wrap(ByteBufUtil.getBytes(frame));
            org.apache.kafka.common.message.ApiVersionsResponseData theirs =
                new org.apache.kafka.common.message.ApiVersionsResponseData(new ByteBufferAccessor(rest), (short) 4);
            assertThat(theirs.apiKeys()).hasSize(1);
            assertThat(theirs.apiKeys().find((short) 18).maxVersion()).isEqualTo((short) 4);
        } finally {
            frame.release();
        }
    }

    @Test
    void peeksApiKeyAndVersionAndDecodesAKafkaRequestHeader() {
        RequestHeader kafkaHeader = new RequestHeader(org.apache.kafka.common.protocol.ApiKeys.METADATA, (short) 12, "cli", 7);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer bytes = ByteBuffer.allocate(kafkaHeader.data().size(cache, kafkaHeader.headerVersion()));
        kafkaHeader.data().write(new ByteBufferAccessor(bytes), cache, kafkaHeader.headerVersion());
        ByteBuf buf = Unpooled.wrappedBuffer(bytes.array());
        assertThat(RequestHeaders.peekApiKey(buf)).isEqualTo((short) 3);
        assertThat(RequestHeaders.peekApiVersion(buf)).isEqualTo((short) 12);
        assertThat(buf.readerIndex()).isZero();
        short headerVersion = ApiMessageType.fromApiKey((short) 3).requestHeaderVersion((short) 12);
        RequestHeaderData header = new RequestHeaderData(buf, headerVersion);
        assertThat(header.clientId()).isEqualTo("cli");
        assertThat(header.correlationId()).isEqualTo(7);
        assertThat(buf.readableBytes()).isZero();
    }

    @Test
    void partsHoldTheirOwnReferencesAndTheFrameIsFreedWithThem() {
        TrackingAllocator alloc = new TrackingAllocator();
        ByteBuf records = Unpooled.buffer().writeBytes(new byte[] {1, 2, 3, 4, 5});
        List<Object> parts = ResponseWriter.writeParts(alloc, 3, (short) 1, fetch(Records.of(records)), (short) 16, true);
        assertThat(parts).hasSize(3);
        assertThat(((ByteBuf) parts.get(1)).readableBytes()).isEqualTo(5);
        assertThat(alloc.made).as("one frame buffer, sized without the records").hasSize(1);
        assertThat(alloc.made.get(0).capacity()).isEqualTo(((ByteBuf) parts.get(0)).readableBytes()
            + ((ByteBuf) parts.get(2)).readableBytes());
        assertThat(records.refCnt()).isEqualTo(2);
        parts.forEach(ReferenceCountUtil::release);
        assertThat(records.refCnt()).as("the records' owner keeps its reference").isEqualTo(1);
        assertThat(alloc.made).allMatch(b -> b.refCnt() == 0);
    }

    @Test
    void recordsThatMisstateTheirSizeFailTheEncodingAndLeakNothing() {
        TrackingAllocator alloc = new TrackingAllocator();
        ByteBuf bytes = Unpooled.buffer().writeBytes(new byte[5]);
        Records lying = new Records() {
            @Override
            public int sizeInBytes() {
                return 6;
            }

            @Override
            public void writeTo(RecordsOutput out) {
                out.write(bytes);
            }
        };
        assertThatThrownBy(() -> ResponseWriter.writeParts(alloc, 3, (short) 1, fetch(lying), (short) 16, true))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("disagrees");
        assertThat(bytes.refCnt()).isEqualTo(1);
        assertThat(alloc.made).isNotEmpty().allMatch(b -> b.refCnt() == 0);
    }

    private static FetchResponseData fetch(Records records) {
        return new FetchResponseData().setResponses(new ArrayList<>(List.of(
            new FetchResponseData.FetchableTopicResponse().setTopicId(java.util.UUID.randomUUID())
                .setPartitions(new ArrayList<>(List.of(new FetchResponseData.PartitionData().setRecords(records)))))));
    }

    /** Remembers every buffer it allocates. */
    private static final class TrackingAllocator extends AbstractByteBufAllocator {
        final List<ByteBuf> made = new ArrayList<>();

        TrackingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf b = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
            made.add(b);
            return b;
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }
}
