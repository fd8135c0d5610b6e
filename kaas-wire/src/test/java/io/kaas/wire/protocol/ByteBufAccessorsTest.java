package io.kaas.wire.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ByteBufAccessorsTest {

    private final ByteBuf buf = Unpooled.buffer();

    @AfterEach
    void release() {
        buf.release();
    }

    @Test
    void unsignedVarintKnownEncodings() {
        assertEncodes(0, "00");
        assertEncodes(1, "01");
        assertEncodes(127, "7f");
        assertEncodes(128, "8001");
        assertEncodes(300, "ac02");
        assertEncodes(-1, "ffffffff0f");
    }

    private void assertEncodes(int value, String hex) {
        buf.clear();
        ByteBufAccessors.writeUnsignedVarint(buf, value);
        assertThat(ByteBufUtil.hexDump(buf)).isEqualTo(hex);
        assertThat(ByteBufAccessors.sizeOfUnsignedVarint(value)).isEqualTo(hex.length() / 2);
        assertThat(ByteBufAccessors.readUnsignedVarint(buf)).isEqualTo(value);
    }

    @Test
    void varintsAgreeWithKafkasByteUtils() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            int v = i < 100 ? i - 50 : random.nextInt() >> random.nextInt(32);
            long l = i < 100 ? i - 50 : random.nextLong() >> random.nextInt(64);
            ByteBuffer kafka = ByteBuffer.allocate(32);
            ByteUtils.writeUnsignedVarint(v, kafka);
            ByteUtils.writeVarint(v, kafka);
            ByteUtils.writeVarlong(l, kafka);
            kafka.flip();
            buf.clear();
            ByteBufAccessors.writeUnsignedVarint(buf, v);
            ByteBufAccessors.writeVarint(buf, v);
            ByteBufAccessors.writeVarlong(buf, l);
            byte[] expected = new byte[kafka.remaining()];
            kafka.get(expected);
            assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(expected);
            assertThat(buf.readableBytes()).isEqualTo(ByteBufAccessors.sizeOfUnsignedVarint(v)
                + ByteBufAccessors.sizeOfVarint(v) + ByteBufAccessors.sizeOfVarlong(l));
            assertThat(ByteBufAccessors.readUnsignedVarint(buf)).isEqualTo(v);
            assertThat(ByteBufAccessors.readVarint(buf)).isEqualTo(v);
            assertThat(ByteBufAccessors.readVarlong(buf)).isEqualTo(l);
        }
    }

    @Test
    void overlongVarintIsMalformed() {
        buf.writeBytes(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01});
        assertThatThrownBy(() -> ByteBufAccessors.readUnsignedVarint(buf)).isInstanceOf(MalformedMessageException.class);
    }

    @Test
    void classicAndCompactStrings() {
        ByteBufAccessors.writeString(buf, "hé", false, false, "f");
        assertThat(ByteBufUtil.hexDump(buf)).isEqualTo("000368c3a9");
        assertThat(ByteBufAccessors.readString(buf, false, false, "f")).isEqualTo("hé");
        ByteBufAccessors.writeString(buf, "hé", true, false, "f");
        assertThat(ByteBufUtil.hexDump(buf)).isEqualTo("0468c3a9");
        assertThat(ByteBufAccessors.sizeOfString("hé", true)).isEqualTo(4);
        assertThat(ByteBufAccessors.readString(buf, true, false, "f")).isEqualTo("hé");
    }

    @Test
    void nullStringsAreMinusOneOrZero() {
        ByteBufAccessors.writeString(buf, null, false, true, "f");
        ByteBufAccessors.writeString(buf, null, true, true, "f");
        assertThat(ByteBufUtil.hexDump(buf)).isEqualTo("ffff00");
        assertThat(ByteBufAccessors.readString(buf, false, true, "f")).isNull();
        assertThat(ByteBufAccessors.readString(buf, true, true, "f")).isNull();
    }

    @Test
    void nullWhereNotNullableIsRejectedBothWays() {
        assertThatThrownBy(() -> ByteBufAccessors.writeString(buf, null, true, false, "f"))
            .isInstanceOf(NullPointerException.class);
        buf.writeShort(-1);
        assertThatThrownBy(() -> ByteBufAccessors.readString(buf, false, false, "f"))
            .isInstanceOf(MalformedMessageException.class).hasMessageContaining("f");
    }

    @Test
    void lengthBeyondTheBufferIsMalformed() {
        buf.writeInt(1000).writeBytes(new byte[10]);
        assertThatThrownBy(() -> ByteBufAccessors.readArrayLength(buf, false, false, "a"))
            .isInstanceOf(MalformedMessageException.class);
    }

    @Test
    void recordsAreZeroCopySlicesAndWritingKeepsTheReaderIndex() {
        ByteBuf records = Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4});
        records.readByte();
        ByteBufAccessors.writeRecords(buf, RecordsWriter.COPY, Records.of(records), true, true, "r");
        assertThat(records.readerIndex()).isEqualTo(1);
        assertThat(ByteBufUtil.hexDump(buf)).isEqualTo("04020304");
        ByteBuf slice = ByteBufAccessors.readRecords(buf, true, true, "r").buffer();
        assertThat(slice.readableBytes()).isEqualTo(3);
        buf.setByte(1, 9);
        assertThat(slice.getByte(0)).as("slice shares the frame's memory").isEqualTo((byte) 9);
    }
}
