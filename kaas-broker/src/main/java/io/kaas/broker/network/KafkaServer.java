package io.kaas.broker.network;

import io.kaas.broker.config.ConnectionLimitsConfig;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.wire.netty.KafkaFrameDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka protocol server of one listener. {@link #start()} binds; {@link #close()} stops accepting,
 * stops reading, waits (up to the drain timeout) for every request already read to be answered, then
 * closes every connection and stops its threads. Handler code runs on {@code kaas-request-handler-N}
 * threads, never on an event loop.
 */
public final class KafkaServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaServer.class);

    private final NetworkSettings settings;
    private final ServerState state;
    private final Transport transport = Transport.best();
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private ExecutorService requestExecutor;
    private Channel serverChannel;
    private boolean closed;

    /** A server without connection limits, {@code queued.max.requests} at Kafka's default. */
    public KafkaServer(NetworkSettings settings) {
        this(settings, ConnectionLimitsConfig.unlimited());
    }

    /**
     * @param limits the broker-wide connection limits and {@code queued.max.requests}
     * @throws io.kaas.broker.config.ConfigException if a host of {@code max.connections.per.ip.overrides} does not resolve
     */
    public KafkaServer(NetworkSettings settings, ConnectionLimitsConfig limits) {
        this.settings = settings;
        this.state = new ServerState(settings, new ConnectionLimits(limits), new RequestQueueBound(limits.queuedMaxRequests(),
            limits.queuedMaxRequestBytes()));
    }

    /** Binds and serves at once: {@link #bind()} then {@link #serve}. */
    public InetSocketAddress start(HandlerRegistry registry) throws InterruptedException, BindException {
        InetSocketAddress address = bind();
        serve(registry);
        return address;
    }

    /**
     * Starts serving {@code registry}'s APIs: connections waiting since {@link #bind()} are accepted
     * from now on.
     */
    public synchronized void serve(HandlerRegistry registry) {
        if (serverChannel == null || closed) {
            throw new IllegalStateException("not bound, or closed");
        }
        state.serve(registry);
        serverChannel.config().setAutoRead(true);
        serverChannel.read();
    }

    /**
     * Binds the listener without accepting connections yet (they wait in the backlog until
     * {@link #serve}), so the real port is known before the handlers are built.
     *
     * @return the bound address (its port is the real one when 0 was asked)
     * @throws BindException if the address cannot be bound (in use, not local, not permitted)
     */
    public synchronized InetSocketAddress bind() throws InterruptedException, BindException {
        if (serverChannel != null || closed) {
            throw new IllegalStateException("already started or closed");
        }
        requestExecutor = newRequestExecutor(settings.ioThreads());
        bossGroup = transport.newGroup(1, "kaas-acceptor");
        workerGroup = transport.newGroup(settings.networkThreads(), "kaas-network");
        ServerBootstrap bootstrap = new ServerBootstrap()
            .group(bossGroup, workerGroup)
            .channel(transport.serverChannel())
            .option(ChannelOption.SO_REUSEADDR, true)
            .option(ChannelOption.AUTO_READ, false)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.MESSAGE_SIZE_ESTIMATOR, PendingBytesEstimator.INSTANCE)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(ConnectionLimitHandler.NAME, new ConnectionLimitHandler(state.connectionLimits(), settings.listenerName()));
                    ch.pipeline().addLast("frames", new KafkaFrameDecoder(settings.maxFrameBytes()));
                    ch.pipeline().addLast("requests", new RequestDispatcher(state.registry(), requestExecutor, state));
                }
            });
        if (settings.sendBufferBytes() > 0) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, settings.sendBufferBytes());
        }
        if (settings.receiveBufferBytes() > 0) {
            bootstrap.childOption(ChannelOption.SO_RCVBUF, settings.receiveBufferBytes());
        }
        InetSocketAddress bindAddress = settings.host().isEmpty()
            ? new InetSocketAddress(settings.port())
            : new InetSocketAddress(settings.host(), settings.port());
        try {
            serverChannel = bootstrap.bind(bindAddress).sync().channel();
        } catch (InterruptedException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            // Kafka's wording; Netty's native transport reports its own IOException type.
            BindException failed = new BindException("Socket server failed to bind to " + settings.host() + ":"
                + settings.port() + ": " + e.getMessage());
            failed.initCause(e);
            throw failed;
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The bound port; valid after {@link #start()}. */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** The transport in use, {@code EPOLL} or {@code NIO}, for start-up logs. */
    public String transportName() {
        return transport.name();
    }

    /** Requests read and not yet answered (or dropped), across every connection. */
    public int inFlightRequests() {
        return state.inFlight().get();
    }

    /** Connection slots and queued requests, for tests. */
    ConnectionLimits connectionLimits() {
        return state.connectionLimits();
    }

    /** Requests read and not yet handed to a handler ({@code queued.max.requests}), for tests. */
    int queuedRequests() {
        return state.requestQueue().queued();
    }

    /** Bytes of request frames held ({@code queued.max.request.bytes}), for tests. */
    long queuedRequestBytes() {
        return state.requestQueue().heldBytes();
    }

    /** Bytes written and not yet sent to the socket, across every connection (file regions included), for tests. */
    long pendingWriteBytes() {
        long sum = 0;
        for (Channel ch : state.connections().keySet()) {
            io.netty.channel.ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            sum += out == null ? 0 : out.totalPendingWriteBytes();
        }
        return sum;
    }

    /** Graceful close with the configured drain timeout. Idempotent. */
    @Override
    public void close() {
        close(settings.drainTimeout());
    }

    /** Stops accepting, drains in-flight requests for at most {@code drain}, then closes everything. Idempotent. */
    public synchronized void close(Duration drain) {
        if (closed) {
            return;
        }
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        state.connections().forEach((ch, queue) -> ch.eventLoop().execute(queue::drain));
        awaitDrained(drain);
        state.connections().keySet().forEach(Channel::close);
        shutdown(requestExecutor);
        shutdown(workerGroup);
        shutdown(bossGroup);
    }

    private void awaitDrained(Duration drain) {
        long deadline = System.nanoTime() + drain.toNanos();
        while (state.inFlight().get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        int left = state.inFlight().get();
        if (left > 0) {
            LOG.atWarn().addKeyValue("inFlight", left).addKeyValue("drainTimeout", drain)
                .log("closing connections with requests still in flight");
        }
    }

    private static void shutdown(ExecutorService executor) {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static void shutdown(EventLoopGroup group) {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static ExecutorService newRequestExecutor(int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "kaas-request-handler-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), factory);
    }
}
