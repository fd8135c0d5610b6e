package io.kaas.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.FileRegion;
import io.netty.channel.MessageSizeEstimator;

/**
 * Sizes outbound messages for the channel's write-buffer water marks, counting a {@link FileRegion} by the bytes it
 * still has to send. Netty's default estimator counts file regions as 0 bytes, so a client that stops reading its
 * Fetch responses (zero-copy regions) would never make its channel unwritable, and the broker would keep reading
 * its requests and queueing responses without bound.
 */
final class PendingBytesEstimator implements MessageSizeEstimator {

    static final PendingBytesEstimator INSTANCE = new PendingBytesEstimator();

    private static final Handle HANDLE = msg -> {
        if (msg instanceof ByteBuf buf) {
            return buf.readableBytes();
        }
        if (msg instanceof ByteBufHolder holder) {
            return holder.content().readableBytes();
        }
        if (msg instanceof FileRegion region) {
            return (int) Math.min(Integer.MAX_VALUE, region.count() - region.transferred());
        }
        return 8;
    };

    private PendingBytesEstimator() {
    }

    @Override
    public Handle newHandle() {
        return HANDLE;
    }
}
