package io.kaas.broker.network;

import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.config.SecurityProtocol;
import io.kaas.security.tls.ServerTls;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Behind a connection's {@code tls} handler: when the handshake completes on an SSL listener, sets the
 * session's principal from the client certificate ({@link ServerTls#principal}); on SASL_SSL the SASL user
 * will be the principal. A failed handshake (plaintext bytes, no or an untrusted client certificate, no
 * common protocol or cipher) and any later TLS error log one line naming the peer and the reason, and
 * close the connection.
 */
final class TlsHandshakeHandler extends ChannelInboundHandlerAdapter {

    static final String NAME = "tls-handshake";

    private static final Logger LOG = LoggerFactory.getLogger(TlsHandshakeHandler.class);

    private final NetworkSettings settings;
    private final ServerTls tls;
    private boolean failed;

    TlsHandshakeHandler(NetworkSettings settings, ServerTls tls) {
        this.settings = settings;
        this.tls = tls;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                handshakeDone(ctx);
            } else {
                fail(ctx, done.cause());
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    private void handshakeDone(ChannelHandlerContext ctx) {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (settings.securityProtocol() != SecurityProtocol.SSL || ssl == null) {
            return;
        }
        ClientSession session = ctx.channel().attr(RequestDispatcher.SESSION).get();
        try {
            KafkaPrincipal principal = tls.principal(ssl.engine().getSession());
            if (session != null) {
                session.certificatePrincipal(principal);
            }
            LOG.atDebug().addKeyValue("listener", settings.listenerName()).addKeyValue("remote", ctx.channel().remoteAddress())
                .addKeyValue("principal", principal).addKeyValue("protocol", ssl.engine().getSession().getProtocol())
                .log("TLS handshake with {} on listener {} done: {}", ctx.channel().remoteAddress(),
                    settings.listenerName(), principal);
        } catch (ServerTls.NoMatchingRuleException e) {
            failed = true;
            LOG.atWarn().addKeyValue("listener", settings.listenerName()).addKeyValue("remote", ctx.channel().remoteAddress())
                .log("closing TLS connection from {} on listener {}: {} (ssl.principal.mapping.rules)",
                    ctx.channel().remoteAddress(), settings.listenerName(), e.getMessage());
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (isTls(cause)) {
            fail(ctx, cause);
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (!failed) {
            failed = true;
            LOG.atWarn().addKeyValue("listener", settings.listenerName()).addKeyValue("remote", ctx.channel().remoteAddress())
                .log("TLS with {} on listener {} failed, closing the connection: {}", ctx.channel().remoteAddress(),
                    settings.listenerName(), reason(cause));
        }
        ctx.close();
    }

    private static boolean isTls(Throwable cause) {
        if (cause instanceof NotSslRecordException) {
            return true;
        }
        Throwable t = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        return t instanceof SSLException;
    }

    private static String reason(Throwable cause) {
        Throwable t = cause;
        while (t instanceof DecoderException && !(t instanceof NotSslRecordException) && t.getCause() != null) {
            t = t.getCause();
        }
        String message = t.getMessage();
        if (message != null && message.length() > 200) {
            message = message.substring(0, 200) + "...";
        }
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
