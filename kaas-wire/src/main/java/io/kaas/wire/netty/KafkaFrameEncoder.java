package io.kaas.wire.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Prepends the int32 size to each outbound frame body without copying it. Buffers that already carry their
 * prefix (as built by {@link io.kaas.wire.protocol.ResponseWriter}) must bypass this handler.
 */
@Sharable
public final class KafkaFrameEncoder extends MessageToMessageEncoder<ByteBuf> {

    public KafkaFrameEncoder() {
        super(ByteBuf.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf body, List<Object> out) {
        out.add(ctx.alloc().buffer(4).writeInt(body.readableBytes()));
        out.add(body.retain());
    }
}
