package io.kaas.broker.network;

import io.kaas.broker.config.ConnectionLimitsConfig;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.security.tls.ServerTls;
import io.kaas.wire.netty.KafkaFrameDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka protocol server: every broker listener, each with its own server channel and
 * {@link NetworkSettings}, sharing one acceptor, the event loops and the request-handler pool (sized by
 * the first listener's settings). {@link #start()} binds; {@link #close()} stops accepting, stops
 * reading, waits (up to the drain timeout) for every request already read to be answered, then closes
 * every connection and stops its threads. Handler code runs on {@code kaas-request-handler-N} threads,
 * never on an event loop. A TLS listener's connections get a {@code tls} handler (an {@link SslHandler}
 * from its {@link ServerTls}'s current context) in front of the frame decoder.
 */
public final class KafkaServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaServer.class);

    private final List<ServedListener> listeners;
    private final NetworkSettings settings;
    private final Map<String, ServerState> states = new LinkedHashMap<>();
    private final ConnectionLimits connectionLimits;
    private final RequestQueueBound requestQueue;
    private final Transport transport = Transport.best();
    private EventLoopGroup bossGroup;
    private NetworkThreads workerGroup;
    private final RequestHandlerPool requestExecutor;
    private final Map<String, Channel> serverChannels = new LinkedHashMap<>();
    private volatile String protectedListener;
    private int pendingNetworkThreads; // guarded by this: a resize before bind
    private boolean bound;
    private boolean closed;

    /** One plaintext listener without connection limits, {@code queued.max.requests} at Kafka's default. */
    public KafkaServer(NetworkSettings settings) {
        this(List.of(new ServedListener(settings, null)), ConnectionLimitsConfig.unlimited());
    }

    /** One plaintext listener with {@code limits}. */
    public KafkaServer(NetworkSettings settings, ConnectionLimitsConfig limits) {
        this(List.of(new ServedListener(settings, null)), limits);
    }

    /**
     * @param listeners every listener to bind, in {@code listeners} order (the first one's threads and drain
     *                  settings serve them all); names must differ
     * @param limits    the connection limits (broker-wide, per listener, per IP) and {@code queued.max.requests},
     *                  shared by every listener
     * @throws io.kaas.broker.config.ConfigException if a host of {@code max.connections.per.ip.overrides} does not resolve
     */
    public KafkaServer(List<ServedListener> listeners, ConnectionLimitsConfig limits) {
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("no listener");
        }
        this.listeners = List.copyOf(listeners);
        this.settings = listeners.get(0).settings();
        this.connectionLimits = new ConnectionLimits(limits);
        this.requestQueue = new RequestQueueBound(limits.queuedMaxRequests(), limits.queuedMaxRequestBytes());
        this.requestExecutor = RequestHandlerPool.of(settings.ioThreads());
        for (ServedListener l : this.listeners) {
            if (states.put(l.settings().listenerName(), new ServerState(l.settings(), connectionLimits, requestQueue)) != null) {
                throw new IllegalArgumentException("listener " + l.settings().listenerName() + " given twice");
            }
        }
    }

    /** Binds and serves at once: {@link #bind()} then {@link #serve}. */
    public InetSocketAddress start(HandlerRegistry registry) throws InterruptedException, BindException {
        InetSocketAddress address = bind();
        serve(registry);
        return address;
    }

    /**
     * Logs the requests slower than {@code log}'s threshold, on every listener ({@link SlowRequestLog#OFF} by
     * default).
     */
    public synchronized void logSlowRequests(SlowRequestLog log) {
        states.values().forEach(s -> s.logSlowRequests(log));
    }

    /**
     * Starts serving {@code registry}'s APIs on every listener: connections waiting since {@link #bind()}
     * are accepted from now on.
     */
    /** Tells {@code observer} of every request answered from now on (request metrics); call before {@link #serve}. */
    public void observe(RequestObserver observer) {
        states.values().forEach(s -> s.observe(observer));
    }

    public synchronized void serve(HandlerRegistry registry) {
        if (!bound || closed) {
            throw new IllegalStateException("not bound, or closed");
        }
        states.values().forEach(s -> s.serve(registry));
        for (Channel ch : serverChannels.values()) {
            ch.config().setAutoRead(true);
            ch.read();
        }
    }

    /** Holds new connections to {@code limit}'s creation rates (KIP-612): every listener, from now on. */
    public void limitConnectionRatesWith(ConnectionRateLimit limit) {
        connectionLimits.limitRatesWith(limit);
    }

    /**
     * New {@code max.connections*} limits (dynamic broker configs) for connections arriving from now on;
     * {@code queued.max.requests*} stay as they were (read-only, as Kafka's).
     *
     * @throws io.kaas.broker.config.ConfigException if a host of {@code max.connections.per.ip.overrides} does not
     *                                               resolve; nothing changes then
     */
    public void reconfigureConnections(ConnectionLimitsConfig limits) {
        connectionLimits.reconfigure(limits);
        closeExcessConnections(limits.maxConnections());
    }

    /**
     * The inter-broker listener ({@code inter.broker.listener.name}), whose connections a lowered
     * {@code max.connections} never closes when the broker has more than one listener, as Kafka's protected listener.
     */
    public void protectListener(String listenerName) {
        protectedListener = listenerName;
    }

    /**
     * Above a lowered {@code max.connections}, closes the least recently used connections (last read or write) until
     * the connections held fit it, as Kafka's processors do ({@code closeExcessConnections}); the inter-broker
     * listener's are kept when there is more than one listener. The clients reconnect (and wait for a slot).
     */
    private void closeExcessConnections(int maxConnections) {
        int held = connectionLimits.connections();
        if (held <= maxConnections) {
            return;
        }
        String kept = states.size() > 1 ? protectedListener : null;
        List<Channel> open = new java.util.ArrayList<>();
        states.forEach((name, state) -> {
            if (!name.equals(kept)) {
                state.connections().keySet().stream().filter(Channel::isActive).forEach(open::add);
            }
        });
        open.sort(java.util.Comparator.comparingLong(KafkaServer::lastActivity));
        List<Channel> closing = open.subList(0, Math.min(held - maxConnections, open.size()));
        if (closing.isEmpty()) {
            return;
        }
        List<String> remotes = closing.stream().map(ch -> String.valueOf(ch.remoteAddress())).toList();
        LOG.atInfo().addKeyValue("maxConnections", maxConnections).addKeyValue("connections", held)
            .addKeyValue("closing", remotes)
            .log("max.connections {} is below the {} connections held: closing the {} least recently used {}",
                maxConnections, held, closing.size(), remotes);
        closing.forEach(Channel::close);
    }

    private static long lastActivity(Channel ch) {
        RequestDispatcher d = ch.pipeline().get(RequestDispatcher.class);
        return d == null ? Long.MIN_VALUE : d.lastActivityNanos();
    }

    /**
     * Resizes the request-handler pool to {@code threads} ({@code num.io.threads}, a dynamic broker config), at once,
     * bound or not: requests already read are neither lost nor reordered.
     *
     * @throws IllegalArgumentException if {@code threads} is below 1; nothing changes then
     */
    public void resizeRequestHandlers(int threads) {
        requestExecutor.resize(threads);
    }

    /**
     * Resizes the listeners' network threads to {@code threads} ({@code num.network.threads}, a dynamic broker config):
     * new connections go to every thread from now on; on a shrink the connections of the removed threads are closed
     * (their clients reconnect), as Kafka closes a removed processor's. Before {@link #bind()}: the size it binds with.
     *
     * @throws IllegalArgumentException if {@code threads} is below 1; nothing changes then
     */
    public synchronized void resizeNetworkThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("num.network.threads must be at least 1, got " + threads);
        }
        if (workerGroup == null) {
            pendingNetworkThreads = threads;
            return;
        }
        int old = workerGroup.size();
        workerGroup.resize(threads, removed -> {
            int closing = 0;
            for (ServerState state : states.values()) {
                for (Channel ch : state.connections().keySet()) {
                    if (removed.contains(ch.eventLoop())) {
                        ch.close();
                        closing++;
                    }
                }
            }
            LOG.atInfo().addKeyValue("connections", closing)
                .log("Closing the {} connections of the {} network threads removed; their clients reconnect", closing,
                    old - threads);
        });
    }

    /** The network threads the listeners run with ({@code num.network.threads} as last applied). */
    public synchronized int networkThreads() {
        return workerGroup == null ? (pendingNetworkThreads > 0 ? pendingNetworkThreads : settings.networkThreads())
            : workerGroup.size();
    }

    /** The request-handler threads the server runs with ({@code num.io.threads} as last applied). */
    public int requestHandlerThreads() {
        return requestExecutor.size();
    }

    /** Throttles requests as {@code throttle} says (client quotas): every listener, from now on. */
    public void throttleWith(RequestThrottle throttle) {
        states.values().forEach(s -> s.throttleWith(throttle));
    }

    /**
     * Binds every listener without accepting connections yet (they wait in the backlog until
     * {@link #serve}), so the real ports are known before the handlers are built.
     *
     * @return the first listener's bound address (its port is the real one when 0 was asked)
     * @throws BindException if an address cannot be bound (in use, not local, not permitted); nothing
     *                       stays bound then
     */
    public synchronized InetSocketAddress bind() throws InterruptedException, BindException {
        if (bound || closed) {
            throw new IllegalStateException("already started or closed");
        }
        bound = true;
        requestExecutor.prestartAllCoreThreads();
        bossGroup = transport.newGroup(1, "kaas-acceptor");
        workerGroup = new NetworkThreads(transport, pendingNetworkThreads > 0 ? pendingNetworkThreads
            : settings.networkThreads());
        for (ServedListener listener : listeners) {
            serverChannels.put(listener.settings().listenerName(), bind(listener));
        }
        return address(listeners.get(0).settings().listenerName());
    }

    private Channel bind(ServedListener listener) throws InterruptedException, BindException {
        NetworkSettings ls = listener.settings();
        ServerState state = states.get(ls.listenerName());
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
                    ch.pipeline().addLast(ConnectionLimitHandler.NAME,
                        new ConnectionLimitHandler(connectionLimits, ls.listenerName()));
                    ServerTls tls = listener.tls();
                    if (tls != null) {
                        ch.pipeline().addLast(RequestDispatcher.TLS_HANDLER, tls.newHandler(ch.alloc()));
                        ch.pipeline().addLast(TlsHandshakeHandler.NAME, new TlsHandshakeHandler(ls, tls));
                    }
                    ch.pipeline().addLast("frames", new KafkaFrameDecoder(ls.maxFrameBytes()));
                    ch.pipeline().addLast("requests", new RequestDispatcher(state.registry(), requestExecutor, state));
                }
            });
        if (ls.sendBufferBytes() > 0) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, ls.sendBufferBytes());
        }
        if (ls.receiveBufferBytes() > 0) {
            bootstrap.childOption(ChannelOption.SO_RCVBUF, ls.receiveBufferBytes());
        }
        InetSocketAddress bindAddress = ls.host().isEmpty()
            ? new InetSocketAddress(ls.port())
            : new InetSocketAddress(ls.host(), ls.port());
        try {
            return bootstrap.bind(bindAddress).sync().channel();
        } catch (InterruptedException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            // Kafka's wording; Netty's native transport reports its own IOException type.
            BindException failed = new BindException("Socket server failed to bind to " + ls.host() + ":"
                + ls.port() + ": " + e.getMessage());
            failed.initCause(e);
            throw failed;
        }
    }

    /** The first listener's bound port; valid after {@link #bind()}. */
    public int port() {
        return port(listeners.get(0).settings().listenerName());
    }

    /**
     * The bound port of listener {@code listenerName}; valid after {@link #bind()}.
     *
     * @throws IllegalArgumentException if no such listener is served
     */
    public int port(String listenerName) {
        return address(listenerName).getPort();
    }

    private InetSocketAddress address(String listenerName) {
        Channel ch = serverChannels.get(listenerName);
        if (ch == null) {
            throw new IllegalArgumentException("no listener " + listenerName + " is bound");
        }
        return (InetSocketAddress) ch.localAddress();
    }

    /** The names of the listeners served, in order. */
    public List<String> listenerNames() {
        return List.copyOf(states.keySet());
    }

    /** The transport in use, {@code EPOLL} or {@code NIO}, for start-up logs. */
    public String transportName() {
        return transport.name();
    }

    /** Requests read and not yet answered (or dropped), across every connection of every listener. */
    public int inFlightRequests() {
        return states.values().stream().mapToInt(s -> s.inFlight().get()).sum();
    }

    /** Connection slots and queued requests, for tests. */
    ConnectionLimits connectionLimits() {
        return connectionLimits;
    }

    /** Requests read and not yet handed to a handler ({@code queued.max.requests}), for tests. */
    int queuedRequests() {
        return requestQueue.queued();
    }

    /** Bytes of request frames held ({@code queued.max.request.bytes}), for tests. */
    long queuedRequestBytes() {
        return requestQueue.heldBytes();
    }

    /** Bytes written and not yet sent to the socket, across every connection (file regions included), for tests. */
    long pendingWriteBytes() {
        long sum = 0;
        for (ServerState state : states.values()) {
            for (Channel ch : state.connections().keySet()) {
                io.netty.channel.ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
                sum += out == null ? 0 : out.totalPendingWriteBytes();
            }
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
        serverChannels.values().forEach(ch -> ch.close().syncUninterruptibly());
        for (ServerState state : states.values()) {
            state.connections().forEach((ch, queue) -> ch.eventLoop().execute(queue::drain));
        }
        awaitDrained(drain);
        states.values().forEach(state -> state.connections().keySet().forEach(Channel::close));
        shutdown(requestExecutor);
        shutdown(workerGroup);
        shutdown(bossGroup);
    }

    private void awaitDrained(Duration drain) {
        long deadline = System.nanoTime() + drain.toNanos();
        while (inFlightRequests() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        int left = inFlightRequests();
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
}
