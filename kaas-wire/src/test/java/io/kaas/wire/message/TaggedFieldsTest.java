package io.kaas.wire.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

/** Tagged fields: unknown tags are skipped, defaults are not written, known tags are read. */
class TaggedFieldsTest {

    @Test
    void unknownTagsAreSkipped() {
        org.apache.kafka.common.message.ApiVersionsRequestData theirs = new org.apache.kafka.common.message.ApiVersionsRequestData()
            .setClientSoftwareName("kcat").setClientSoftwareVersion("1.7");
        theirs.unknownTaggedFields().add(new RawTaggedField(7, new byte[] {1, 2, 3}));
        theirs.unknownTaggedFields().add(new RawTaggedField(300, new byte[200]));
        ByteBuf buf = Unpooled.wrappedBuffer(kafkaBytes(theirs, (short) 3));

        ApiVersionsRequestData ours = new ApiVersionsRequestData(buf, (short) 3);

        assertThat(buf.readableBytes()).isZero();
        assertThat(ours.clientSoftwareName()).isEqualTo("kcat");
        assertThat(ours.clientSoftwareVersion()).isEqualTo("1.7");
    }

    @Test
    void defaultTaggedFieldsAreNotWrittenAndSetOnesAre() {
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(5);
        assertThat(header.size((short) 1)).isEqualTo(5);
        FetchResponseData.PartitionData partition = new FetchResponseData.PartitionData();
        int withoutTags = partition.size((short) 12);
        partition.setDivergingEpoch(new FetchResponseData.EpochEndOffset().setEpoch(3).setEndOffset(10));
        assertThat(partition.size((short) 12)).isGreaterThan(withoutTags);
        ByteBuf buf = Unpooled.buffer();
        partition.write(buf, (short) 12);
        assertThat(new FetchResponseData.PartitionData(buf, (short) 12)).isEqualTo(partition);
        buf.release();
    }

    private static byte[] kafkaBytes(org.apache.kafka.common.protocol.Message m, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer out = ByteBuffer.allocate(m.size(cache, version));
        m.write(new ByteBufferAccessor(out), cache, version);
        return out.array();
    }
}
