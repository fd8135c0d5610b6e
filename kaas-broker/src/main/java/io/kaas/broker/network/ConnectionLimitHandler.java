package io.kaas.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The head of every connection's pipeline (named {@value #NAME}): asks {@link ConnectionLimits} for a slot when the
 * connection becomes active. Admitted, the rest of the pipeline sees it become active and it is read; waiting, it
 * stays unread and the rest of the pipeline sees nothing until a slot frees; over its address's limit, it is closed
 * at once with one log line. One instance per connection.
 */
final class ConnectionLimitHandler extends ChannelInboundHandlerAdapter implements ConnectionLimits.Waiter {

    /** The pipeline name of this handler. */
    static final String NAME = "limits";

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimitHandler.class);

    private final ConnectionLimits limits;
    private final String listenerName;
    private ChannelHandlerContext ctx;
    private InetAddress address;
    private boolean admitted;

    ConnectionLimitHandler(ConnectionLimits limits, String listenerName) {
        this.limits = limits;
        this.listenerName = listenerName;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        // Not read until admitted: the head reads at activation only when auto-read is on.
        ctx.channel().config().setAutoRead(false);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        address = ctx.channel().remoteAddress() instanceof InetSocketAddress inet ? inet.getAddress() : null;
        long delay = limits.rates().acceptDelayMs(listenerName, System.currentTimeMillis());
        if (delay <= 0) {
            checkIpRate();
            return;
        }
        // max.connection.creation.rate (broker-wide or the listener's): the listener accepts nothing more for the delay,
        // and this connection waits it.
        Channel acceptor = ctx.channel().parent();
        limits.holdAcceptor(acceptor);
        LOG.atDebug().addKeyValue("remote", ctx.channel().remoteAddress()).addKeyValue("listener", listenerName)
            .log("connection waits {} ms (max.connection.creation.rate)", delay);
        ctx.executor().schedule(() -> {
            limits.releaseAcceptor(acceptor);
            if (ctx.channel().isActive()) {
                checkIpRate();
            }
        }, delay, TimeUnit.MILLISECONDS);
    }

    /** The address's connection_creation_rate: over it the connection is held unread, then closed. */
    private void checkIpRate() {
        long throttle = limits.rates().ipThrottleMs(listenerName, address, System.currentTimeMillis());
        if (throttle > 0) {
            LOG.atInfo().addKeyValue("listener", listenerName).addKeyValue("ip", address)
                .addKeyValue("throttleMs", throttle)
                .log("Closing connection from {} after {} ms: its address is over its connection_creation_rate "
                        + "quota of {} connections per second", address, throttle, limits.rates().ipQuota(address));
            ctx.executor().schedule(() -> ctx.close(), throttle, TimeUnit.MILLISECONDS);
            return;
        }
        arriveForSlot();
    }

    private void arriveForSlot() {
        ConnectionLimits.Verdict verdict = limits.arrive(this);
        if (verdict == ConnectionLimits.Verdict.WAIT) {
            LOG.atDebug().addKeyValue("remote", ctx.channel().remoteAddress()).addKeyValue("listener", listenerName)
                .log("connection waits for a slot (max.connections)");
            return;
        }
        apply(verdict);
    }

    @Override
    public void decided(ConnectionLimits.Verdict verdict) {
        try {
            ctx.executor().execute(() -> {
                if (ctx.channel().isActive()) {
                    apply(verdict);
                } else {
                    giveBack(verdict);
                }
            });
        } catch (RejectedExecutionException e) {
            giveBack(verdict); // the server is shutting down: the connection will never be served
        }
    }

    /** A slot decided for a connection that closed meanwhile goes back (a refusal took none). */
    private void giveBack(ConnectionLimits.Verdict verdict) {
        if (verdict == ConnectionLimits.Verdict.ADMIT) {
            limits.release(listenerName, address);
        }
    }

    private void apply(ConnectionLimits.Verdict verdict) {
        if (verdict == ConnectionLimits.Verdict.REJECT) {
            LOG.atInfo().addKeyValue("listener", listenerName)
                .log("Rejected connection from {}, address already has the configured maximum of {} connections.",
                    address, limits.maxConnections(address));
            ctx.close();
            return;
        }
        admitted = true;
        ctx.channel().closeFuture().addListener(f -> limits.release(listenerName, address));
        ctx.fireChannelActive();
        ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (admitted) {
            ctx.fireChannelInactive();
        } else {
            limits.abandon(this);
        }
    }

    @Override
    public String listenerName() {
        return listenerName;
    }

    @Override
    public InetAddress address() {
        return address;
    }

    @Override
    public Channel channel() {
        return ctx.channel();
    }

    /** Whether this connection holds a slot (it is served). */
    boolean admitted() {
        return admitted;
    }
}
