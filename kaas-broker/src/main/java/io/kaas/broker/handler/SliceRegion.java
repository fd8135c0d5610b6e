package io.kaas.broker.handler;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A region of an engine's open segment file, sent with {@code sendfile} on epoll and
 * {@code FileChannel.transferTo} on NIO. Unlike its parent it never closes the channel when released:
 * the channel belongs to the engine, which keeps it open for as long as a reader may send from it.
 * (Epoll sends a {@link DefaultFileRegion} natively; any other {@code FileRegion} would be copied
 * through a heap buffer, hence the subclass rather than a fresh implementation.)
 */
final class SliceRegion extends DefaultFileRegion {

    SliceRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
    }

    @Override
    protected void deallocate() {
        // The engine owns the channel.
    }
}
