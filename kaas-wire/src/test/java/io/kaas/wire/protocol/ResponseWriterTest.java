package io.kaas.wire.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.RequestHeaderData;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
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
}
