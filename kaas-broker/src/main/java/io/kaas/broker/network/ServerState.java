package io.kaas.broker.network;

import io.kaas.broker.request.HandlerRegistry;
import io.netty.channel.Channel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every connection of one server shares: its settings, the in-flight count, the open connections and the
 * broker-wide limits (connection slots, queued requests).
 */
final class ServerState {
    private final NetworkSettings settings;
    private final ConnectionLimits connectionLimits;
    private final RequestQueueBound requestQueue;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<Channel, ResponseQueue> connections = new ConcurrentHashMap<>();

    private volatile HandlerRegistry registry;
    private volatile RequestThrottle throttle = RequestThrottle.NONE;
    private volatile SlowRequestLog slowRequests = SlowRequestLog.OFF;
    private volatile RequestObserver observer = RequestObserver.NONE;

    ServerState(NetworkSettings settings, ConnectionLimits connectionLimits, RequestQueueBound requestQueue) {
        this.settings = settings;
        this.connectionLimits = connectionLimits;
        this.requestQueue = requestQueue;
    }

    ConnectionLimits connectionLimits() {
        return connectionLimits;
    }

    /** {@code queued.max.requests}. */
    RequestQueueBound requestQueue() {
        return requestQueue;
    }

    void serve(HandlerRegistry registry) {
        this.registry = registry;
    }

    void throttleWith(RequestThrottle throttle) {
        this.throttle = throttle;
    }

    RequestThrottle throttle() {
        return throttle;
    }

    void observe(RequestObserver observer) {
        this.observer = observer;
    }

    RequestObserver observer() {
        return observer;
    }

    HandlerRegistry registry() {
        return registry;
    }

    void logSlowRequests(SlowRequestLog log) {
        this.slowRequests = log;
    }

    SlowRequestLog slowRequests() {
        return slowRequests;
    }

    NetworkSettings settings() {
        return settings;
    }

    /** Requests read and not yet answered (or dropped), across every connection. */
    AtomicInteger inFlight() {
        return inFlight;
    }

    void register(Channel channel, ResponseQueue queue) {
        connections.put(channel, queue);
        channel.closeFuture().addListener(f -> connections.remove(channel));
    }

    Map<Channel, ResponseQueue> connections() {
        return connections;
    }
}
