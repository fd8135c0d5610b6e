package io.kaas.broker.network;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Native epoll where the platform has it, else NIO. */
enum Transport {
    EPOLL, NIO;

    static Transport best() {
        try {
            return Epoll.isAvailable() ? EPOLL : NIO;
        } catch (Throwable t) {
            return NIO;
        }
    }

    EventLoopGroup newGroup(int threads, String threadPrefix) {
        return newGroup(threads, new DefaultThreadFactory(threadPrefix, true));
    }

    EventLoopGroup newGroup(int threads, java.util.concurrent.ThreadFactory threadFactory) {
        IoHandlerFactory factory = this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, factory);
    }

    Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
