package io.kaas.broker.admin;

import io.kaas.broker.config.AdminListener;
import io.kaas.broker.metrics.BrokerMetrics;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP endpoint ({@code admin.listener}): /metrics, /health and /ready, and the console (its JSON API and
 * pages, {@link AdminRoutes}) over Netty's HTTP codec, on an event loop thread of its own, so a scrape never waits
 * behind Kafka requests (nor they behind it). The answers are computed on a small bounded executor of the endpoint's
 * own (the console's may block on storage), never on the event loop; a request over {@link #MAX_REQUEST_BYTES} is
 * answered 413, and one arriving while every worker is busy and the queue full 503.
 */
public final class AdminServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    /** The largest request body: a console test message of up to 1 MiB, JSON-escaped, plus its envelope. */
    public static final int MAX_REQUEST_BYTES = 1024 * 1024 + 64 * 1024;
    private static final int WORKERS = 2;
    private static final int QUEUED = 32;

    private final EventLoopGroup group;
    private final Channel channel;
    private final AdminRoutes routes;
    private final ExecutorService workers;

    private AdminServer(EventLoopGroup group, Channel channel, AdminRoutes routes, ExecutorService workers) {
        this.group = group;
        this.channel = channel;
        this.routes = routes;
        this.workers = workers;
    }

    /**
     * Binds {@code listener} and serves it.
     *
     * @throws IOException if the address cannot be bound
     */
    public static AdminServer start(AdminListener listener, BrokerMetrics metrics, Readiness readiness)
            throws IOException {
        return start(listener, metrics, readiness, false);
    }

    /**
     * Binds {@code listener} and serves it, with the console's routes when {@code consoleEnabled}
     * ({@code admin.console.enabled}).
     *
     * @throws IOException if the address cannot be bound
     */
    public static AdminServer start(AdminListener listener, BrokerMetrics metrics, Readiness readiness,
                                    boolean consoleEnabled) throws IOException {
        AdminRoutes routes = new AdminRoutes(metrics, readiness, consoleEnabled);
        ExecutorService workers = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUED), new DefaultThreadFactory("kaas-admin-worker", true),
            new ThreadPoolExecutor.AbortPolicy());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("kaas-admin", true),
            NioIoHandler.newFactory());
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new JsonLimitAggregator(MAX_REQUEST_BYTES),
                            new Handler(routes, workers));
                    }
                })
                .bind(new InetSocketAddress(listener.host(), listener.port())).sync().channel();
            AdminServer server = new AdminServer(group, channel, routes, workers);
            LOG.atInfo().addKeyValue("port", server.port())
                .log("admin endpoint listening on http://{}:{}", hostForUrl(listener.host()), server.port());
            return server;
        } catch (InterruptedException e) {
            workers.shutdownNow();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + AdminListener.KEY, e);
        } catch (Exception e) {
            workers.shutdownNow();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            IOException io = new IOException("cannot bind " + AdminListener.KEY + " http://"
                + hostForUrl(listener.host()) + ":" + listener.port() + ": " + e.getMessage(), e);
            throw io;
        }
    }

    private static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    /** The bound port (the real one when port 0 was asked). */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Serves the console's JSON API under /api/v1 from now on (when the console is enabled). */
    public void console(ConsoleApi api) {
        routes.console(api);
    }

    /** Serves the console's pages under /console from now on (when the console is enabled). */
    public void assets(StaticAssets assets) {
        routes.assets(assets);
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.shutdownNow();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** The aggregator, answering a request over the limit with the console API's JSON 413, then closing. */
    private static final class JsonLimitAggregator extends HttpObjectAggregator {
        JsonLimitAggregator(int max) {
            super(max);
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            LOG.atWarn().addKeyValue("remote", ctx.channel().remoteAddress())
                .addKeyValue("uri", oversized instanceof HttpRequest r ? r.uri() : "")
                .log("admin endpoint: refused a request from {} over {} bytes (413)", ctx.channel().remoteAddress(),
                    MAX_REQUEST_BYTES);
            Answer answer = ConsoleErrors.json(413, "REQUEST_TOO_LARGE", "the request is larger than the admin "
                + "endpoint's limit of " + MAX_REQUEST_BYTES + " bytes");
            ctx.writeAndFlush(response(answer, false)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse response(Answer answer, boolean head) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(answer.status()),
            head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(answer.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.contentType());
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
        response.headers().set("X-Content-Type-Options", "nosniff");
        answer.headers().forEach((k, v) -> response.headers().set(k, v));
        if (answer.status() == 405 && !answer.headers().containsKey("Allow")) {
            response.headers().set(HttpHeaderNames.ALLOW, "GET");
        }
        return response;
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final AdminRoutes routes;
        private final ExecutorService workers;

        Handler(AdminRoutes routes, ExecutorService workers) {
            this.routes = routes;
            this.workers = workers;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            boolean keepAlive = HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess();
            boolean head = request.method().equals(HttpMethod.HEAD);
            if (!request.decoderResult().isSuccess()) {
                send(ctx, Answer.text(400, "bad request: " + request.decoderResult().cause()), false, false);
                return;
            }
            AdminRequest copy = copy(ctx, request);
            // One request at a time per connection: the answers go out in the order of the requests.
            ctx.channel().config().setAutoRead(false);
            try {
                workers.execute(() -> {
                    send(ctx, answer(copy), keepAlive, head);
                    ctx.channel().config().setAutoRead(true);
                });
            } catch (RejectedExecutionException e) {
                ctx.channel().config().setAutoRead(true);
                LOG.atWarn().addKeyValue("remote", copy.remote()).addKeyValue("uri", request.uri())
                    .log("admin endpoint busy: refused {} {} from {} (503)", copy.method(), request.uri(),
                        copy.remote());
                send(ctx, ConsoleErrors.json(503, "BUSY", "the admin endpoint is busy; retry shortly"), false, head);
            }
        }

        private Answer answer(AdminRequest request) {
            try {
                return routes.answer(request);
            } catch (RuntimeException e) {
                LOG.atError().setCause(e).addKeyValue("uri", request.path())
                    .log("admin endpoint: {} {} failed", request.method(), request.path());
                return request.path().startsWith(AdminRoutes.API_PREFIX)
                    ? ConsoleErrors.json(500, "UNKNOWN_SERVER_ERROR", "internal error: " + e)
                    : Answer.text(500, "internal error: " + e);
            }
        }

        private static AdminRequest copy(ChannelHandlerContext ctx, FullHttpRequest request) {
            String uri = request.uri();
            int q = uri.indexOf('?');
            Map<String, String> headers = new HashMap<>();
            for (Map.Entry<String, String> h : request.headers()) {
                headers.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue());
            }
            byte[] body = new byte[request.content().readableBytes()];
            request.content().getBytes(request.content().readerIndex(), body);
            SocketAddress remote = ctx.channel().remoteAddress();
            String method = request.method().name();
            return new AdminRequest("HEAD".equals(method) ? "GET" : method, q < 0 ? uri : uri.substring(0, q),
                q < 0 ? "" : uri.substring(q + 1), headers, body,
                remote instanceof InetSocketAddress inet ? inet : null);
        }

        private static void send(ChannelHandlerContext ctx, Answer answer, boolean keepAlive, boolean head) {
            FullHttpResponse response = response(answer, head);
            if (keepAlive) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.atDebug().setCause(cause).addKeyValue("remote", ctx.channel().remoteAddress())
                .log("admin endpoint connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }
}
