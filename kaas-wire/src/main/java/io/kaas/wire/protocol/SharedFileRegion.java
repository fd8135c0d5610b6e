package io.kaas.wire.protocol;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A region of a file someone else owns — a storage engine's open segment — sent with {@code sendfile} on
 * epoll and {@code FileChannel.transferTo} on NIO. Unlike its parent it never closes the channel when
 * released: the owner keeps it open for as long as a reader may send from it. (Epoll sends a
 * {@link DefaultFileRegion} natively; any other {@code FileRegion} would be copied through a heap buffer,
 * hence the subclass rather than a fresh implementation.)
 */
public final class SharedFileRegion extends DefaultFileRegion {

    public SharedFileRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
    }

    @Override
    protected void deallocate() {
        // The owner closes the channel.
    }
}
