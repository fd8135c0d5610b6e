package io.kaas.broker.network;

import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.protocol.ApiMessage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs, at INFO, each request answered more than {@code slow.request.log.threshold.ms} after it was read: API name
 * and version, client id and address, principal, listener and time. Kafka has no such threshold (it logs every request
 * at DEBUG in {@code kafka.request.logger}); this is the line an operator needs without that flood. A request that
 * waits by design is measured past its own wait: a Fetch past its {@code max_wait_ms}, a JoinGroup past its
 * rebalance timeout. Thread-safe; {@link #OFF} logs nothing.
 */
public final class SlowRequestLog {
    private static final Logger LOG = LoggerFactory.getLogger(SlowRequestLog.class);

    /** Logs nothing. */
    public static final SlowRequestLog OFF = new SlowRequestLog(0);

    private final long thresholdNanos;

    /** @param thresholdMs the time over which a request is logged; 0 turns the log off */
    public SlowRequestLog(long thresholdMs) {
        if (thresholdMs < 0) {
            throw new IllegalArgumentException("negative threshold " + thresholdMs + " ms");
        }
        this.thresholdNanos = TimeUnit.MILLISECONDS.toNanos(thresholdMs);
    }

    /**
     * Reports a request answered: logs it if it took longer than the threshold (past any wait it asked for).
     *
     * @return whether it was logged
     */
    public boolean completed(ApiMessageType api, RequestContext context, ApiMessage body, long startNanos, long endNanos) {
        if (thresholdNanos == 0) {
            return false;
        }
        long elapsed = endNanos - startNanos;
        if (elapsed - TimeUnit.MILLISECONDS.toNanos(requestedWaitMs(body)) <= thresholdNanos) {
            return false;
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(elapsed);
        try {
            log(api, context, ms);
        } catch (RuntimeException e) {
            // Called on the response path: a failure to log must never cost the client its answer.
            return false;
        }
        return true;
    }

    private static void log(ApiMessageType api, RequestContext context, long ms) {
        LOG.atInfo().addKeyValue("api", api.apiName()).addKeyValue("apiVersion", context.apiVersion())
                .addKeyValue("clientId", context.clientId()).addKeyValue("clientAddress", context.clientAddress())
                .addKeyValue("principal", context.principal()).addKeyValue("listener", context.listenerName())
                .addKeyValue("correlationId", context.correlationId()).addKeyValue("timeMs", ms)
                .log("Slow request: {} v{} from client id '{}' at {} ({}, listener {}) took {} ms", api.apiName(),
                        context.apiVersion(), context.clientId(), context.clientAddress(), context.principal(),
                        context.listenerName(), ms);
    }

    /** How long the request itself asks the broker to wait before answering (long polls), in ms. */
    private static long requestedWaitMs(ApiMessage body) {
        if (body instanceof FetchRequestData fetch) {
            return Math.max(fetch.maxWaitMs(), 0);
        }
        if (body instanceof JoinGroupRequestData join) {
            return Math.max(join.rebalanceTimeoutMs(), join.sessionTimeoutMs());
        }
        return 0;
    }
}
