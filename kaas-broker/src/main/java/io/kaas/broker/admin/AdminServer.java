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
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP endpoint ({@code admin.listener}): /metrics, /health and /ready over Netty's HTTP codec, on an event
 * loop thread of its own, so a scrape never waits behind Kafka requests (nor they behind it).
 */
public final class AdminServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    /** A GET carries no body; anything bigger is refused by the aggregator (413). */
    private static final int MAX_REQUEST_BYTES = 8192;

    private final EventLoopGroup group;
    private final Channel channel;

    private AdminServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Binds {@code listener} and serves it.
     *
     * @throws IOException if the address cannot be bound
     */
    public static AdminServer start(AdminListener listener, BrokerMetrics metrics, Readiness readiness)
            throws IOException {
        AdminRoutes routes = new AdminRoutes(metrics, readiness);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("kaas-admin", true),
            NioIoHandler.newFactory());
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST_BYTES),
                            new Handler(routes));
                    }
                })
                .bind(new InetSocketAddress(listener.host(), listener.port())).sync().channel();
            AdminServer server = new AdminServer(group, channel);
            LOG.atInfo().addKeyValue("port", server.port())
                .log("admin endpoint listening on http://{}:{}", hostForUrl(listener.host()), server.port());
            return server;
        } catch (InterruptedException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + AdminListener.KEY, e);
        } catch (Exception e) {
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

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final AdminRoutes routes;

        Handler(AdminRoutes routes) {
            this.routes = routes;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            AdminRoutes.Answer answer;
            if (!request.decoderResult().isSuccess()) {
                answer = AdminRoutes.Answer.text(400, "bad request: " + request.decoderResult().cause());
            } else {
                try {
                    answer = routes.answer(request.method().name(), request.uri(),
                        request.headers().get(HttpHeaderNames.ACCEPT));
                } catch (RuntimeException e) {
                    LOG.atError().setCause(e).addKeyValue("uri", request.uri())
                        .log("admin endpoint: {} {} failed", request.method(), request.uri());
                    answer = AdminRoutes.Answer.text(500, "internal error: " + e);
                }
            }
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.contentType());
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
            answer.headers().forEach((name, value) -> response.headers().set(name, value));
            if (answer.status() == 405) {
                response.headers().set(HttpHeaderNames.ALLOW, "GET");
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess();
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
