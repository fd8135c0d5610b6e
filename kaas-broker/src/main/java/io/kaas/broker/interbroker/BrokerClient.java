package io.kaas.broker.interbroker;

import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.interbroker.InterBrokerException.Reason;
import io.kaas.wire.protocol.ApiMessage;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * This broker's client of the other brokers: Kafka requests built from kaas-wire's generated messages, sent to a
 * broker by node id over the inter-broker listener ({@code inter.broker.listener.name}, its endpoint read from the
 * {@link ClusterView} at each request), with that listener's security ({@link InterBrokerSecurity}). One connection
 * per target broker ({@link BrokerConnection}), replaced when the broker's endpoint changes; every request bounded by
 * {@code request.timeout.ms}, every connection set-up by {@code socket.connection.setup.timeout.ms}. Its own small
 * event loop group (one thread: inter-broker traffic is markers and verifications, a few requests per transaction,
 * and the web console's reads of other brokers), so the client's lifecycle does not depend on the listeners'. Thread-safe.
 */
public final class BrokerClient implements AutoCloseable {
    private final ClusterView view;
    private final InterBrokerSecurity security;
    private final RuntimeException unusable;
    private final String clientId;
    private final int requestTimeoutMs;
    private final long setupTimeoutMs;
    private final EventLoopGroup group;
    private final Map<Integer, BrokerConnection> connections = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * @param security the inter-broker listener's settings, or null when they cannot be used: then every request
     *                 fails with {@code unusable}'s message (what the broker logged at start)
     */
    BrokerClient(ClusterView view, InterBrokerSecurity security, RuntimeException unusable, String clientId,
                 int requestTimeoutMs, long setupTimeoutMs) {
        this.view = view;
        this.security = security;
        this.unusable = unusable;
        this.clientId = clientId;
        this.requestTimeoutMs = requestTimeoutMs;
        this.setupTimeoutMs = setupTimeoutMs;
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("kaas-interbroker", true),
            NioIoHandler.newFactory());
    }

    /** A client over {@code security}'s listener, with explicit timeouts. */
    public static BrokerClient create(ClusterView view, InterBrokerSecurity security, int requestTimeoutMs,
                                      long setupTimeoutMs) {
        return new BrokerClient(view, security, null, "kaas-broker-" + view.localNodeId(), requestTimeoutMs,
            setupTimeoutMs);
    }

    /**
     * The client of {@code config}'s broker: its inter-broker listener and timeouts. Settings that cannot be used do
     * not stop the broker (a single broker never sends an inter-broker request): {@code unusable} is told why, once,
     * and every request fails with it.
     */
    public static BrokerClient of(BrokerConfig config, ClusterView view, java.util.function.Consumer<RuntimeException> unusable) {
        InterBrokerSecurity security = null;
        RuntimeException problem = null;
        try {
            security = InterBrokerSecurity.of(config);
        } catch (RuntimeException e) {
            problem = e;
            unusable.accept(e);
        }
        return new BrokerClient(view, security, problem, "kaas-broker-" + config.nodeId(), config.requestTimeoutMs(),
            config.connectionSetupTimeoutMs());
    }

    /** The inter-broker listener's name. */
    public String listener() {
        return security != null ? security.listener() : "(unusable)";
    }

    /** {@code request.timeout.ms}. */
    public int requestTimeoutMs() {
        return requestTimeoutMs;
    }

    /**
     * Sends {@code request} to broker {@code nodeId} at the highest version both sides support, at least
     * {@code minVersion}.
     *
     * @return the answer's body (the response class of the request's API); exceptionally with an
     *         {@link InterBrokerException} when no answer came (never hangs past {@code request.timeout.ms})
     */
    public CompletableFuture<ApiMessage> send(int nodeId, ApiMessage request, short minVersion) {
        return send(nodeId, request, minVersion, request.highestSupportedVersion());
    }

    /**
     * Sends {@code request} to broker {@code nodeId} at the highest version both sides support in
     * [{@code minVersion}, {@code maxVersion}] (the console forwards a request at the version it ran it locally).
     */
    public CompletableFuture<ApiMessage> send(int nodeId, ApiMessage request, short minVersion, short maxVersion) {
        if (closed) {
            return failed(Reason.CLOSED, "the inter-broker client is closed");
        }
        if (security == null) {
            return failed(Reason.CONFIG, "inter-broker requests are disabled: " + unusable.getMessage());
        }
        RegisteredEndpoint endpoint = view.endpoint(nodeId, security.listener()).orElse(null);
        if (endpoint == null) {
            return failed(Reason.NO_ENDPOINT, "broker " + nodeId + " is not live or has no endpoint on listener "
                + security.listener());
        }
        BrokerConnection c = connections.compute(nodeId, (id, old) -> {
            if (old != null && old.host().equals(endpoint.host()) && old.port() == endpoint.port()) {
                return old;
            }
            if (old != null) {
                old.close();
            }
            return new BrokerConnection(id, endpoint.host(), endpoint.port(), security, clientId, requestTimeoutMs,
                setupTimeoutMs, group.next());
        });
        return c.send(request, minVersion, maxVersion);
    }

    private static CompletableFuture<ApiMessage> failed(Reason reason, String message) {
        return CompletableFuture.failedFuture(new InterBrokerException(reason, message));
    }

    /** Closes every connection (their requests fail with CLOSED) and the event loop. Idempotent. */
    @Override
    public void close() {
        closed = true;
        connections.values().forEach(BrokerConnection::close);
        connections.clear();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
