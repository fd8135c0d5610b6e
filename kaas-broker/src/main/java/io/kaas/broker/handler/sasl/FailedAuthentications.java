package io.kaas.broker.handler.sasl;

import io.kaas.broker.auth.ClientSession;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failed authentication does, as Kafka: the session is marked failed (the network layer closes the
 * connection once the answer is written and reads nothing more from it), one line is logged naming the
 * principal tried (when known), the client address, the listener and the mechanism (never a password or
 * token), and the answer is sent only after {@code connection.failed.authentication.delay.ms}, so password
 * guessing is slow.
 */
public final class FailedAuthentications {

    private static final Logger LOG = LoggerFactory.getLogger(FailedAuthentications.class);

    private final long delayMs;
    private final ScheduledExecutorService scheduler;

    /**
     * @param delayMs   {@code connection.failed.authentication.delay.ms}; 0 answers at once
     * @param scheduler runs the delayed answers
     */
    public FailedAuthentications(long delayMs, ScheduledExecutorService scheduler) {
        this.delayMs = delayMs;
        this.scheduler = scheduler;
    }

    /**
     * Fails {@code session}'s authentication: logs why ({@code reason}, which the client may also see) and
     * returns {@code answer}, delayed.
     *
     * @param attemptedPrincipal the principal the client tried, e.g. {@code User:alice}, or null if unknown
     */
    public <T> CompletableFuture<T> fail(ClientSession session, String mechanism, String attemptedPrincipal,
                                         String reason, T answer) {
        session.sasl().fail();
        String what = session.sasl().everAuthenticated() ? "re-authentication" : "authentication";
        LOG.atInfo().addKeyValue("principal", attemptedPrincipal).addKeyValue("client", address(session))
            .addKeyValue("listener", session.listenerName()).addKeyValue("mechanism", mechanism)
            .log("Failed {} of {} from {} on listener {} with SASL mechanism {}: {}", what,
                attemptedPrincipal == null ? "an unknown principal" : attemptedPrincipal, address(session),
                session.listenerName(), mechanism == null ? "(none)" : mechanism, reason);
        if (delayMs <= 0) {
            return CompletableFuture.completedFuture(answer);
        }
        CompletableFuture<T> delayed = new CompletableFuture<>();
        try {
            scheduler.schedule(() -> delayed.complete(answer), delayMs, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            // The broker is stopping: answer at once, the connection closes anyway.
            delayed.complete(answer);
        }
        return delayed;
    }

    static String address(ClientSession session) {
        InetSocketAddress a = session.clientAddress();
        return a == null ? "?" : a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress() + ":" + a.getPort();
    }
}
