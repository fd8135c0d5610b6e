package io.kaas.broker.network;

import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.request.ApiSpec;
import io.kaas.broker.request.ApiVersionsHandler;
import io.kaas.broker.request.CloseConnection;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.RequestHeaderData;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.ResponseWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.DecoderException;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One per connection. Decodes each frame's header and body on the event loop, hands the request to a
 * request-handler thread, and completes the request's slot in the connection's {@link ResponseQueue}
 * back on the event loop. Any protocol violation logs one WARN line and closes this connection.
 */
final class RequestDispatcher extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);

    /** The pipeline name a TLS handler must be added under, so zero-copy sends are turned off for it. */
    static final String TLS_HANDLER = "tls";

    /** The connection's session, for handlers in front of this one (the TLS handshake sets its principal). */
    static final AttributeKey<ClientSession> SESSION = AttributeKey.valueOf("kaas.session");

    private final HandlerRegistry registry;
    private final Executor requestExecutor;
    private final ServerState state;
    private ResponseQueue queue;
    /** Frames read and not yet processed, in arrival order (owned until processed or released): see processParked. */
    private final ArrayDeque<ByteBuf> parked = new ArrayDeque<>();
    private boolean awaitingRequestQueue;
    private boolean unparkScheduled;
    private ClientSession session;
    private volatile long lastActivity = System.nanoTime();
    /** KIP-219: no request is read or processed before this (System.nanoTime), after a throttled response. */
    private long mutedUntil;
    private boolean muted;

    RequestDispatcher(HandlerRegistry registry, Executor requestExecutor, ServerState state) {
        this.registry = registry;
        this.requestExecutor = new SerialExecutor(requestExecutor);
        this.state = state;
    }

    /** When this connection last read or wrote (System.nanoTime), for closing the least recently used first. */
    long lastActivityNanos() {
        return lastActivity;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        queue = new ResponseQueue(ctx, state.inFlight(), state.settings().maxInFlightPerConnection(), delta -> {
            state.requestQueue().held(delta);
            // A response sent frees its request's bytes: frames kept aside may go on (later on the loop, not from
            // inside the queue's own write).
            if (delta < 0 && !parked.isEmpty() && !unparkScheduled) {
                unparkScheduled = true;
                try {
                    ctx.executor().execute(() -> {
                        unparkScheduled = false;
                        processParked(ctx);
                    });
                } catch (RejectedExecutionException e) {
                    unparkScheduled = false; // shutting down: the connection closes with its frames
                }
            }
        });
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        NetworkSettings settings = state.settings();
        session = new ClientSession(settings.listenerName(), settings.securityProtocol().name(),
            remote(ctx.channel().remoteAddress()), !settings.securityProtocol().usesSasl());
        ctx.channel().attr(SESSION).set(session);
        state.register(ctx.channel(), queue);
        scheduleIdleCheck(ctx, state.settings().idleTimeout());
        super.channelActive(ctx);
    }

    /** Closes the connection once nothing was read or written and nothing is pending for {@code idle}. */
    private void scheduleIdleCheck(ChannelHandlerContext ctx, Duration idle) {
        if (idle == null || idle.isZero() || idle.isNegative()) {
            return;
        }
        long idleNanos = idle.toNanos();
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(100), idleNanos / 4);
        ScheduledFuture<?> check = ctx.executor().scheduleAtFixedRate(() -> {
            if (queue.size() == 0 && parked.isEmpty() && System.nanoTime() - lastActivity > idleNanos) {
                LOG.atDebug().addKeyValue("remote", ctx.channel().remoteAddress())
                    .log("closing idle connection (connections.max.idle.ms)");
                ctx.close();
            }
        }, period, period, TimeUnit.NANOSECONDS);
        ctx.channel().closeFuture().addListener(f -> check.cancel(false));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseParked();
        queue.closed();
        super.channelInactive(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        queue.updateAutoRead();
        if (!parked.isEmpty()) {
            processParked(ctx);
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            reject(ctx, (short) -1, (short) -1, "bad frame: " + rootMessage(cause));
        } else {
            LOG.atDebug().addKeyValue("remote", ctx.channel().remoteAddress())
                .log("closing connection after I/O error: {}", rootMessage(cause));
            ctx.close();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastActivity = System.nanoTime();
        ByteBuf frame = (ByteBuf) msg;
        if (!ctx.channel().isActive()) {
            frame.release();
            return;
        }
        parked.add(frame);
        processParked(ctx);
    }

    /**
     * Processes the frames read, in arrival order, while there is room: fewer than the in-flight bound pending on
     * this connection and less than one largest frame ({@code socket.request.max.bytes}) of request bytes held by
     * it (so pipelining never holds more than about two of the largest requests per connection, where Kafka holds
     * one); its responses not backed up (the channel writable: a client that does not read its responses gets no
     * more of its requests handled); and a place in the broker-wide request queue ({@code queued.max.requests},
     * {@code queued.max.request.bytes}). Otherwise the frames wait, undecoded, and the connection is not read until
     * a response is written, the channel drains or the request queue drains.
     */
    private void processParked(ChannelHandlerContext ctx) {
        if (muted) {
            queue.holdReads(true);
            return;
        }
        while (!parked.isEmpty()) {
            if (!ctx.channel().isActive()) {
                releaseParked();
                return;
            }
            if (queue.size() >= state.settings().maxInFlightPerConnection() || !ctx.channel().isWritable()
                    || queue.heldBytes() >= state.settings().maxFrameBytes()) {
                queue.holdReads(true);
                return;
            }
            if (!state.requestQueue().tryQueue()) {
                queue.holdReads(true);
                if (!awaitingRequestQueue) {
                    awaitingRequestQueue = true;
                    state.requestQueue().whenDrained(() -> {
                        awaitingRequestQueue = false;
                        processParked(ctx);
                    }, ctx.channel().eventLoop());
                }
                return;
            }
            if (!process(ctx, parked.poll())) {
                state.requestQueue().started();
            }
        }
        queue.holdReads(false);
    }

    private void releaseParked() {
        ByteBuf frame;
        while ((frame = parked.poll()) != null) {
            frame.release();
        }
    }

    /**
     * Validates, decodes and hands on one request frame, owning it. True when the request was handed to a handler
     * (which then frees its place in the request queue); false when it was answered or refused here.
     */
    private boolean process(ChannelHandlerContext ctx, ByteBuf frame) {
        if (frame.readableBytes() < 8) {
            frame.release();
            reject(ctx, (short) -1, (short) -1, "frame of " + frame.readableBytes() + " bytes has no request header");
            return false;
        }
        short apiKey = frame.getShort(frame.readerIndex());
        short version = frame.getShort(frame.readerIndex() + 2);
        int correlationId = frame.getInt(frame.readerIndex() + 4);
        ApiMessageType api = lookup(apiKey);
        ApiSpec<?, ?> spec = api == null ? null : registry.spec(api);
        if (spec == null) {
            frame.release();
            reject(ctx, apiKey, version, "unknown or unserved API key");
            return false;
        }
        if (api == ApiMessageType.API_VERSIONS && version > spec.maxVersion()) {
            answerUnsupportedApiVersions(ctx, frame, correlationId);
            return false;
        }
        if (!registry.serves(api, version)) {
            frame.release();
            reject(ctx, apiKey, version, version >= spec.advertisedMinVersion() && version < spec.minVersion()
                ? spec.api().apiName() + " v" + version + " is advertised for librdkafka (its feature detection) but not served"
                : "version outside the served range " + spec.minVersion() + "-" + spec.maxVersion());
            return false;
        }
        AuthenticationGate.Verdict verdict = AuthenticationGate.admit(session, api, frame.readableBytes(),
            state.settings().saslMaxReceiveBytes(), System.nanoTime());
        if (verdict != AuthenticationGate.Verdict.PASS) {
            frame.release();
            if (verdict == AuthenticationGate.Verdict.CLOSE) {
                ctx.close();
            }
            return false;
        }
        return decodeAndDispatch(ctx, frame, api, version, correlationId);
    }

    private boolean decodeAndDispatch(ChannelHandlerContext ctx, ByteBuf frame, ApiMessageType api,
                                      short version, int correlationId) {
        RequestHeaderData header = new RequestHeaderData();
        ApiMessage body = api.newRequest();
        try {
            header.read(frame, api.requestHeaderVersion(version));
            body.read(frame, version);
        } catch (RuntimeException e) {
            frame.release();
            reject(ctx, api.apiKey(), version, "malformed request: " + rootMessage(e));
            return false;
        }
        ResponseQueue.Slot slot = queue.open(frame);
        RequestContext context = new RequestContext(version, correlationId, header.clientId(), session);
        EventLoop loop = ctx.channel().eventLoop();
        long received = System.nanoTime();
        try {
            requestExecutor.execute(() -> invoke(ctx, loop, slot, api, context, body, received));
        } catch (RejectedExecutionException e) {
            queue.complete(slot, new ResponseQueue.Close());
            return false;
        }
        return true;
    }

    private void invoke(ChannelHandlerContext ctx, EventLoop loop, ResponseQueue.Slot slot, ApiMessageType api,
                        RequestContext context, ApiMessage body, long received) {
        state.requestQueue().started();
        CompletableFuture<? extends ApiMessage> future;
        long began = System.nanoTime();
        try {
            future = registry.handle(api, context, body);
            if (future == null) {
                throw new IllegalStateException("the " + api.apiName() + " handler returned no future");
            }
        } catch (Throwable t) {
            future = CompletableFuture.failedFuture(t);
        }
        long handlerNanos = System.nanoTime() - began;
        future.whenComplete((response, error) -> {
            long throttleMs = error == null ? throttleMs(api, context, slot.frameBytes(), response, handlerNanos) : 0;
            state.slowRequests().completed(api, context, body, received, System.nanoTime());
            state.observer().completed(api, context, slot.frameBytes(), received, System.nanoTime());
            ResponseQueue.Outcome outcome = outcome(ctx, api, context, response, error);
            boolean delayed = throttleMs > 0 && !ClientThrottling.throttlesItself(api, context.apiVersion());
            try {
                loop.execute(() -> {
                    lastActivity = System.nanoTime();
                    if (delayed) {
                        mute(ctx, throttleMs);
                        completeLater(ctx, slot, outcome, throttleMs);
                        return;
                    }
                    queue.complete(slot, outcome);
                    if (throttleMs > 0) {
                        mute(ctx, throttleMs);
                    }
                    if (!parked.isEmpty()) {
                        processParked(ctx);
                    }
                });
            } catch (RejectedExecutionException e) {
                // The event loop is gone (shutdown): nothing can be written; free what the slot holds.
                if (outcome instanceof ResponseQueue.Send send) {
                    send.parts().forEach(ReferenceCountUtil::safeRelease);
                } else if (outcome instanceof ResponseQueue.SendThenClose last) {
                    last.parts().forEach(ReferenceCountUtil::safeRelease);
                }
                slot.releaseAbandoned(state.inFlight());
                state.requestQueue().held(-slot.frameBytes());
            }
        });
    }

    private long throttleMs(ApiMessageType api, RequestContext context, int requestBytes, ApiMessage response,
                            long handlerNanos) {
        try {
            return state.throttle().throttleMs(api, context, requestBytes, response, handlerNanos);
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).addKeyValue("remote", context.clientAddress()).addKeyValue("api", api.apiName())
                .log("client quota check failed; the request is not throttled");
            return 0;
        }
    }

    /**
     * Before KIP-219 a client does not throttle itself: as Kafka, its throttled response is held for the throttle
     * time (the connection muted meanwhile), then sent. Later responses on the connection wait behind it, in order.
     * Event loop only.
     */
    private void completeLater(ChannelHandlerContext ctx, ResponseQueue.Slot slot, ResponseQueue.Outcome outcome,
                               long throttleMs) {
        try {
            ctx.executor().schedule(() -> {
                lastActivity = System.nanoTime();
                queue.complete(slot, outcome);
            }, throttleMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            queue.complete(slot, outcome); // shutting down: nothing to wait for
        }
    }

    /**
     * KIP-219: the throttled response is out; the connection reads and processes no further request (those already
     * read wait) for {@code ms}, or longer when a later response extends it. Event loop only.
     */
    private void mute(ChannelHandlerContext ctx, long ms) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        if (muted && until - mutedUntil <= 0) {
            return;
        }
        mutedUntil = until;
        if (!muted) {
            muted = true;
            queue.holdReads(true);
            ctx.executor().schedule(() -> unmute(ctx), ms, TimeUnit.MILLISECONDS);
        }
    }

    private void unmute(ChannelHandlerContext ctx) {
        long left = mutedUntil - System.nanoTime();
        if (!muted || left > 0) {
            if (muted) {
                ctx.executor().schedule(() -> unmute(ctx), left, TimeUnit.NANOSECONDS);
            }
            return;
        }
        muted = false;
        processParked(ctx);
    }

    private ResponseQueue.Outcome outcome(ChannelHandlerContext ctx, ApiMessageType api, RequestContext context,
                                          ApiMessage response, Throwable error) {
        if (error == null && response == null) {
            return new ResponseQueue.Silent();
        }
        if (error == null) {
            try {
                List<Object> parts = encode(ctx.alloc(), api, context, response, sendsFileRegions(ctx));
                return AuthenticationGate.closesAfter(context.session(), api)
                    ? new ResponseQueue.SendThenClose(parts) : new ResponseQueue.Send(parts);
            } catch (RuntimeException e) {
                error = e;
            }
        }
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
            ? error.getCause() : error;
        if (cause instanceof CloseConnection close) {
            LOG.atInfo().addKeyValue("remote", context.clientAddress()).addKeyValue("api", api.apiName())
                .addKeyValue("version", context.apiVersion()).addKeyValue("correlationId", context.correlationId())
                .log("closing connection: {}", close.getMessage());
            return new ResponseQueue.Close();
        }
        LOG.atError().setCause(error).addKeyValue("remote", context.clientAddress())
            .addKeyValue("api", api.apiName()).addKeyValue("version", context.apiVersion())
            .addKeyValue("correlationId", context.correlationId())
            .log("request failed in its handler");
        return ErrorResponses.topLevel(api, context.apiVersion(), ErrorResponses.UNKNOWN_SERVER_ERROR)
            .<ResponseQueue.Outcome>map(r -> {
                try {
                    return new ResponseQueue.Send(encode(ctx.alloc(), api, context, r, sendsFileRegions(ctx)));
                } catch (RuntimeException e) {
                    return new ResponseQueue.Close();
                }
            })
            .orElseGet(ResponseQueue.Close::new);
    }

    private static List<Object> encode(ByteBufAllocator alloc, ApiMessageType api, RequestContext context,
                                       ApiMessage response, boolean fileRegions) {
        short version = context.apiVersion();
        short headerVersion = api.responseHeaderVersion(version);
        return ResponseWriter.writeParts(alloc, context.correlationId(), headerVersion, response, version, fileRegions);
    }

    /**
     * Whether this connection can write {@code FileRegion}s (sendfile): a plaintext epoll or NIO channel
     * can; one with a TLS handler (named {@value #TLS_HANDLER}: SSL and SASL_SSL listeners) must be given buffers.
     */
    private static boolean sendsFileRegions(ChannelHandlerContext ctx) {
        return ctx.pipeline().get(TLS_HANDLER) == null;
    }

    /** KIP-511: a v0 response with UNSUPPORTED_VERSION and our table, header v0, body otherwise unread. */
    private void answerUnsupportedApiVersions(ChannelHandlerContext ctx, ByteBuf frame, int correlationId) {
        ResponseQueue.Slot slot = queue.open(frame);
        ApiVersionsHandler apiVersions = registry.apiVersions();
        ResponseQueue.Outcome outcome;
        try {
            outcome = new ResponseQueue.Send(List.of(ResponseWriter.write(ctx.alloc(), correlationId, (short) 0,
                apiVersions.unsupportedVersionResponse(), (short) 0)));
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).log("cannot encode the ApiVersions v0 error response");
            outcome = new ResponseQueue.Close();
        }
        queue.complete(slot, outcome);
    }

    private void reject(ChannelHandlerContext ctx, short apiKey, short version, String reason) {
        LOG.atWarn().addKeyValue("remote", ctx.channel().remoteAddress())
            .addKeyValue("apiKey", apiKey).addKeyValue("apiVersion", version)
            .log("closing connection: {}", reason);
        ctx.close();
    }

    private static ApiMessageType lookup(short apiKey) {
        try {
            return ApiMessageType.fromApiKey(apiKey);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static InetSocketAddress remote(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet : null;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        String text = root.getClass().getSimpleName() + (m == null ? "" : ": " + m);
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }
}
