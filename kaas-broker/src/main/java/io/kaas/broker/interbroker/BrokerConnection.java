package io.kaas.broker.interbroker;

import io.kaas.broker.interbroker.InterBrokerException.Reason;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.RequestHeaderData;
import io.kaas.wire.message.ResponseHeaderData;
import io.kaas.wire.message.SaslAuthenticateRequestData;
import io.kaas.wire.message.SaslAuthenticateResponseData;
import io.kaas.wire.message.SaslHandshakeRequestData;
import io.kaas.wire.message.SaslHandshakeResponseData;
import io.kaas.wire.netty.KafkaFrameDecoder;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.Errors;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to one broker's endpoint: set up on first use (TCP, TLS, ApiVersions, then SaslHandshake and
 * SaslAuthenticate for a SASL listener), requests queued until it is ready, each sent at the highest version both
 * sides support and matched to its answer by correlation id. A request not answered within the request timeout fails
 * and closes the connection (as Kafka's network client does); a connection that fails fails every request it holds,
 * and the next request reconnects after a backoff (50 ms, doubling to 1 s while connections keep failing). An answer
 * that is not a Kafka frame, or names no request in flight, closes the connection with a log line. A SASL session
 * with a lifetime (the listener's {@code connections.max.reauth.ms}) is not re-authenticated: at 90 % of it the
 * connection is closed once its requests are answered, and the next request opens a new one. Everything runs on the
 * connection's event loop.
 */
final class BrokerConnection {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerConnection.class);
    static final long MIN_BACKOFF_MS = 50;
    static final long MAX_BACKOFF_MS = 1_000;
    /** The largest answer accepted: Kafka's socket.request.max.bytes default, far above any inter-broker answer. */
    private static final int MAX_FRAME = KafkaFrameDecoder.DEFAULT_MAX_FRAME_SIZE;
    private static final short API_VERSIONS_VERSION = 3;
    private static final short SASL_HANDSHAKE_VERSION = 1;
    private static final short SASL_AUTHENTICATE_VERSION = 2;

    private enum State { IDLE, CONNECTING, READY, CLOSED }

    /** A request of a caller, from its send to its answer. */
    private static final class Pending {
        final ApiMessage request;
        final short minVersion;
        final short maxVersion;
        final CompletableFuture<ApiMessage> result = new CompletableFuture<>();
        ScheduledFuture<?> timeout;
        short version;

        Pending(ApiMessage request, short minVersion, short maxVersion) {
            this.request = request;
            this.minVersion = minVersion;
            this.maxVersion = maxVersion;
        }
    }

    /** A request on the wire: a caller's, or one of the set-up exchanges. */
    private record InFlight(short apiKey, short version, CompletableFuture<ApiMessage> answer, Pending pending) {
    }

    private final int nodeId;
    private final String host;
    private final int port;
    private final InterBrokerSecurity security;
    private final String clientId;
    private final int requestTimeoutMs;
    private final long setupTimeoutMs;
    private final EventLoop loop;

    private State state = State.IDLE;
    private Channel channel;
    private ScheduledFuture<?> setupTimeout;
    private Map<Short, ApiVersionsResponseData.ApiVersion> versions = Map.of();
    private final ArrayDeque<Pending> queued = new ArrayDeque<>();
    private final Map<Integer, InFlight> inFlight = new LinkedHashMap<>();
    private int nextCorrelationId;
    private int failures;
    private long connectNotBeforeNanos;
    private boolean connectScheduled;
    /** The SASL session's lifetime the broker answered (0: none), and whether it is ending. */
    private long sessionLifetimeMs;
    private boolean retiring;

    BrokerConnection(int nodeId, String host, int port, InterBrokerSecurity security, String clientId,
                     int requestTimeoutMs, long setupTimeoutMs, EventLoop loop) {
        this.nodeId = nodeId;
        this.host = host;
        this.port = port;
        this.security = security;
        this.clientId = clientId;
        this.requestTimeoutMs = requestTimeoutMs;
        this.setupTimeoutMs = setupTimeoutMs;
        this.loop = loop;
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    /**
     * Sends {@code request} at the highest version both sides support in [{@code minVersion}, {@code maxVersion}];
     * completes with the answer's body.
     */
    CompletableFuture<ApiMessage> send(ApiMessage request, short minVersion, short maxVersion) {
        Pending p = new Pending(request, minVersion, maxVersion);
        loop.execute(() -> enqueue(p));
        return p.result;
    }

    /** Closes the connection; requests it holds fail with CLOSED. */
    void close() {
        loop.execute(() -> {
            failAll(Reason.CLOSED, "the inter-broker client is closed");
            state = State.CLOSED;
            if (channel != null) {
                channel.close();
            }
        });
    }

    private String target() {
        return "broker " + nodeId + " at " + host + ":" + port + " (listener " + security + ")";
    }

    private void enqueue(Pending p) {
        if (state == State.CLOSED) {
            p.result.completeExceptionally(new InterBrokerException(Reason.CLOSED, "the inter-broker client is closed"));
            return;
        }
        p.timeout = loop.schedule(() -> timedOut(p), requestTimeoutMs, TimeUnit.MILLISECONDS);
        p.result.whenComplete((r, e) -> p.timeout.cancel(false));
        if (state == State.READY && !retiring) {
            write(p);
            return;
        }
        queued.add(p);
        if (state == State.IDLE) {
            connectAfterBackoff();
        }
    }

    private void connectAfterBackoff() {
        long waitNanos = connectNotBeforeNanos - System.nanoTime();
        if (waitNanos <= 0) {
            connect();
        } else if (!connectScheduled) {
            connectScheduled = true;
            loop.schedule(() -> {
                connectScheduled = false;
                if (state == State.IDLE && !queued.isEmpty()) {
                    connect();
                }
            }, waitNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void connect() {
        state = State.CONNECTING;
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, setupTimeoutMs))
            .handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (security.tls() != null) {
                        ch.pipeline().addLast("tls", security.tls().newHandler(ch.alloc(), host, port));
                    }
                    ch.pipeline().addLast("frames", new KafkaFrameDecoder(MAX_FRAME));
                    ch.pipeline().addLast("answers", new Answers());
                }
            });
        setupTimeout = loop.schedule(() -> {
            if (state == State.CONNECTING) {
                failed(Reason.DISCONNECTED, "the connection was not set up within " + setupTimeoutMs
                    + " ms (socket.connection.setup.timeout.ms)");
            }
        }, setupTimeoutMs, TimeUnit.MILLISECONDS);
        ChannelFuture connecting = bootstrap.connect(host, port);
        Channel ch = connecting.channel();
        channel = ch;
        connecting.addListener(f -> {
            if (ch != channel) {
                return;
            }
            if (!f.isSuccess()) {
                failed(Reason.DISCONNECTED, "cannot connect: " + message(f.cause()));
                return;
            }
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            if (tls == null) {
                negotiate();
            } else {
                tls.handshakeFuture().addListener(h -> {
                    if (ch != channel) {
                        return;
                    }
                    if (h.isSuccess()) {
                        negotiate();
                    } else {
                        failed(Reason.AUTHENTICATION_FAILED, "TLS handshake failed: " + message(h.cause()));
                    }
                });
            }
        });
    }

    /** ApiVersions, then SASL if the listener uses it, then ready. */
    private void negotiate() {
        exchange(new ApiVersionsRequestData().setClientSoftwareName("kaas").setClientSoftwareVersion("interbroker"),
            API_VERSIONS_VERSION).thenAccept(body -> {
                ApiVersionsResponseData r = (ApiVersionsResponseData) body;
                if (r.errorCode() != Errors.NONE) {
                    failed(Reason.UNSUPPORTED_VERSION, "ApiVersions v" + API_VERSIONS_VERSION + " refused with error "
                        + r.errorCode());
                    return;
                }
                Map<Short, ApiVersionsResponseData.ApiVersion> byKey = new HashMap<>();
                r.apiKeys().forEach(v -> byKey.put(v.apiKey(), v));
                versions = byKey;
                if (security.mechanism() == null) {
                    ready();
                } else {
                    handshake();
                }
            });
    }

    private void handshake() {
        exchange(new SaslHandshakeRequestData().setMechanism(security.mechanism()), SASL_HANDSHAKE_VERSION)
            .thenAccept(body -> {
                SaslHandshakeResponseData r = (SaslHandshakeResponseData) body;
                if (r.errorCode() != Errors.NONE) {
                    failed(Reason.AUTHENTICATION_FAILED, "SASL mechanism " + security.mechanism() + " refused (error "
                        + r.errorCode() + "); the broker offers " + r.mechanisms());
                    return;
                }
                SaslClient sasl;
                byte[] first;
                try {
                    sasl = security.newSaslClient(host);
                    first = sasl.hasInitialResponse() ? sasl.evaluateChallenge(new byte[0]) : new byte[0];
                } catch (SaslException e) {
                    failed(Reason.AUTHENTICATION_FAILED, "SASL " + security.mechanism() + ": " + e.getMessage());
                    return;
                }
                authenticate(sasl, first);
            });
    }

    private void authenticate(SaslClient sasl, byte[] token) {
        exchange(new SaslAuthenticateRequestData().setAuthBytes(token), SASL_AUTHENTICATE_VERSION).thenAccept(body -> {
            SaslAuthenticateResponseData r = (SaslAuthenticateResponseData) body;
            if (r.errorCode() != Errors.NONE) {
                failed(Reason.AUTHENTICATION_FAILED, "SASL " + security.mechanism() + " authentication failed (error "
                    + r.errorCode() + "): " + r.errorMessage());
                return;
            }
            try {
                byte[] next = sasl.isComplete() ? null : sasl.evaluateChallenge(r.authBytes());
                if (sasl.isComplete() && next == null) {
                    sasl.dispose();
                    sessionLifetimeMs = r.sessionLifetimeMs();
                    ready();
                } else {
                    authenticate(sasl, next == null ? new byte[0] : next);
                }
            } catch (SaslException e) {
                failed(Reason.AUTHENTICATION_FAILED, "SASL " + security.mechanism() + ": " + e.getMessage());
            }
        });
    }

    private void ready() {
        if (state != State.CONNECTING) {
            return;
        }
        setupTimeout.cancel(false);
        state = State.READY;
        failures = 0;
        LOG.atInfo().addKeyValue("nodeId", nodeId).addKeyValue("listener", security.listener())
            .log("Connected to {}", target());
        if (sessionLifetimeMs > 0) {
            // The broker closes a connection whose SASL session ended (connections.max.reauth.ms): this client opens a
            // new one before, instead of re-authenticating on it.
            Channel ch = channel;
            loop.schedule(() -> retire(ch), Math.max(1, sessionLifetimeMs * 9 / 10), TimeUnit.MILLISECONDS);
        }
        while (!queued.isEmpty()) {
            write(queued.poll());
        }
    }

    /** Ends {@code ch} once its requests are answered; later requests go to a new connection. */
    private void retire(Channel ch) {
        if (ch != channel || state != State.READY) {
            return;
        }
        retiring = true;
        if (inFlight.isEmpty()) {
            channel = null;
            state = State.IDLE;
            retiring = false;
            versions = Map.of();
            ch.close();
            LOG.atDebug().addKeyValue("nodeId", nodeId)
                .log("Closed the connection to {}: its SASL session ends in {} ms", target(), sessionLifetimeMs / 10);
            if (!queued.isEmpty()) {
                connectAfterBackoff();
            }
        }
    }

    /** Writes a caller's request at the highest version both sides support, or fails it. */
    private void write(Pending p) {
        if (p.result.isDone()) {
            return;
        }
        short key = p.request.apiKey();
        ApiVersionsResponseData.ApiVersion theirs = versions.get(key);
        short low = (short) Math.max(p.minVersion, p.request.lowestSupportedVersion());
        short high = (short) Math.min(p.maxVersion, p.request.highestSupportedVersion());
        if (theirs != null) {
            low = (short) Math.max(low, theirs.minVersion());
            high = (short) Math.min(high, theirs.maxVersion());
        }
        if (theirs == null || low > high) {
            p.result.completeExceptionally(new InterBrokerException(Reason.UNSUPPORTED_VERSION, target() + " supports "
                + (theirs == null ? "no version" : "versions " + theirs.minVersion() + "-" + theirs.maxVersion())
                + " of " + ApiMessageType.fromApiKey(key).apiName() + ", this request needs " + low
                + (high < p.request.highestSupportedVersion() ? "-" + high : "+")));
            return;
        }
        p.version = high;
        CompletableFuture<ApiMessage> answer = new CompletableFuture<>();
        put(p.request, high, answer, p);
        answer.whenComplete((body, error) -> {
            if (error != null) {
                p.result.completeExceptionally(error);
            } else {
                p.result.complete(body);
            }
        });
    }

    /** A set-up exchange: on the wire at once, whatever the state. */
    private CompletableFuture<ApiMessage> exchange(ApiMessage request, short version) {
        CompletableFuture<ApiMessage> answer = new CompletableFuture<>();
        put(request, version, answer, null);
        return answer;
    }

    private void put(ApiMessage request, short version, CompletableFuture<ApiMessage> answer, Pending pending) {
        ApiMessageType type = ApiMessageType.fromApiKey(request.apiKey());
        int correlationId = nextCorrelationId++;
        short headerVersion = type.requestHeaderVersion(version);
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(request.apiKey()).setRequestApiVersion(version)
            .setCorrelationId(correlationId).setClientId(clientId);
        ByteBuf frame;
        try {
            int size = header.size(headerVersion) + request.size(version);
            frame = channel.alloc().buffer(4 + size);
            frame.writeInt(size);
            header.write(frame, headerVersion);
            request.write(frame, version);
        } catch (RuntimeException e) {
            answer.completeExceptionally(new IllegalArgumentException("cannot encode " + type.apiName() + " v" + version
                + ": " + e.getMessage(), e));
            return;
        }
        inFlight.put(correlationId, new InFlight(request.apiKey(), version, answer, pending));
        Channel ch = channel;
        ch.writeAndFlush(frame).addListener(f -> {
            if (!f.isSuccess() && ch == channel) {
                failed(Reason.DISCONNECTED, "cannot send " + type.apiName() + ": " + message(f.cause()));
            }
        });
    }

    private void timedOut(Pending p) {
        if (p.result.isDone()) {
            return;
        }
        String what = ApiMessageType.fromApiKey(p.request.apiKey()).apiName();
        boolean sent = queued.remove(p) ? false : inFlight.values().removeIf(f -> f.pending() == p);
        if (sent || state == State.CONNECTING) {
            // As Kafka's network client: a connection that leaves a request unanswered is given up.
            failed(Reason.DISCONNECTED, what + " timed out after " + requestTimeoutMs + " ms");
        }
        p.result.completeExceptionally(new InterBrokerException(Reason.TIMED_OUT, what + " to " + target()
            + " got no answer within " + requestTimeoutMs + " ms (request.timeout.ms)"));
    }

    /** An answer frame (length prefix removed). */
    private void answered(ByteBuf frame) {
        if (frame.readableBytes() < 4) {
            failed(Reason.DISCONNECTED, "an answer frame of " + frame.readableBytes() + " bytes is not a Kafka response");
            return;
        }
        int correlationId = frame.getInt(frame.readerIndex());
        InFlight f = inFlight.remove(correlationId);
        if (f == null) {
            failed(Reason.DISCONNECTED, "an answer names correlation id " + correlationId + ", which no request in "
                + "flight has: not a Kafka broker, or a broken one");
            return;
        }
        ApiMessageType type = ApiMessageType.fromApiKey(f.apiKey());
        ApiMessage body;
        try {
            // Decoded from a heap copy: records fields of the answer stay valid after the frame is released.
            ByteBuf copy = Unpooled.copiedBuffer(frame);
            new ResponseHeaderData().read(copy, type.responseHeaderVersion(f.version()));
            body = type.newResponse();
            body.read(copy, f.version());
        } catch (RuntimeException e) {
            f.answer().completeExceptionally(new InterBrokerException(Reason.DISCONNECTED, "the " + type.apiName() + " v"
                + f.version() + " answer of " + target() + " cannot be read: " + message(e)));
            failed(Reason.DISCONNECTED, "unreadable " + type.apiName() + " answer: " + message(e));
            return;
        }
        f.answer().complete(body);
        if (retiring && inFlight.isEmpty()) {
            retire(channel);
        }
    }

    /** Gives the connection up: logs why, fails every request it holds, and backs off the next connect. */
    private void failed(Reason reason, String why) {
        if (state == State.CLOSED || state == State.IDLE && channel == null) {
            return;
        }
        Channel c = channel;
        channel = null;
        state = State.IDLE;
        retiring = false;
        if (setupTimeout != null) {
            setupTimeout.cancel(false);
        }
        versions = Map.of();
        failures++;
        long backoff = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS << Math.min(failures - 1, 10));
        connectNotBeforeNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
        int held = queued.size() + inFlight.size();
        LOG.atWarn().addKeyValue("nodeId", nodeId).addKeyValue("listener", security.listener())
            .addKeyValue("reason", reason)
            .log("Connection to {} failed: {}; {} request(s) failed, next connect in {} ms", target(), why, held,
                backoff);
        failAll(reason, "connection to " + target() + " failed: " + why);
        if (c != null) {
            c.close();
        }
    }

    private void failAll(Reason reason, String message) {
        List<CompletableFuture<ApiMessage>> all = new ArrayList<>();
        inFlight.values().forEach(f -> all.add(f.answer()));
        queued.forEach(p -> all.add(p.result));
        inFlight.clear();
        queued.clear();
        all.forEach(f -> f.completeExceptionally(new InterBrokerException(reason, message)));
    }

    private static String message(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return m == null ? root.getClass().getSimpleName() : m;
    }

    private final class Answers extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            if (ctx.channel() == channel) {
                answered(frame);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == channel) {
                failed(Reason.DISCONNECTED, "the broker closed the connection");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel() == channel) {
                failed(cause instanceof javax.net.ssl.SSLException ? Reason.AUTHENTICATION_FAILED : Reason.DISCONNECTED,
                    message(cause));
            } else {
                ctx.close();
            }
        }
    }
}
