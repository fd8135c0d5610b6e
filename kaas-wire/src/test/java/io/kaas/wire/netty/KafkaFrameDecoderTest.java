package io.kaas.wire.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

class KafkaFrameDecoderTest {

    @Test
    void splitFrameIsReassembled() {
        EmbeddedChannel ch = new EmbeddedChannel(new KafkaFrameDecoder(1024));
        assertThat(ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0}))).isFalse();
        assertThat(ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 3, 'a'}))).isFalse();
        assertThat(ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {'b', 'c', 0, 0, 0, 1, 'd'}))).isTrue();
        ByteBuf first = ch.readInbound();
        ByteBuf second = ch.readInbound();
        assertThat(ByteBufUtil.getBytes(first)).containsExactly('a', 'b', 'c');
        assertThat(ByteBufUtil.getBytes(second)).containsExactly('d');
        first.release();
        second.release();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void frameAboveTheCapIsRejectedBeforeItsBodyArrives() {
        EmbeddedChannel ch = new EmbeddedChannel(new KafkaFrameDecoder(100));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeInt(101)))
            .isInstanceOf(FrameTooLargeException.class)
            .isInstanceOf(DecoderException.class)
            .hasMessageContaining("101").hasMessageContaining("100");
        assertThat(ch.writeInbound(Unpooled.buffer().writeInt(1).writeByte(1))).as("input discarded after failure").isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void frameAtTheCapIsAccepted() {
        EmbeddedChannel ch = new EmbeddedChannel(new KafkaFrameDecoder(3));
        assertThat(ch.writeInbound(Unpooled.buffer().writeInt(3).writeBytes(new byte[3]))).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void negativeSizeIsCorrupt() {
        EmbeddedChannel ch = new EmbeddedChannel(new KafkaFrameDecoder(100));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeInt(-1)))
            .isInstanceOf(CorruptFrameException.class)
            .isInstanceOf(DecoderException.class);
        ch.finishAndReleaseAll();
    }

    @Test
    void encoderPrependsTheSize() {
        EmbeddedChannel ch = new EmbeddedChannel(new KafkaFrameEncoder());
        assertThat(ch.writeOutbound(Unpooled.wrappedBuffer(new byte[] {7, 8}))).isTrue();
        ByteBuf prefix = ch.readOutbound();
        ByteBuf body = ch.readOutbound();
        assertThat(ByteBufUtil.hexDump(prefix) + ByteBufUtil.hexDump(body)).isEqualTo("000000020708");
        prefix.release();
        body.release();
        ch.finishAndReleaseAll();
    }
}
