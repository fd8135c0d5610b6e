package io.kaas.broker.network;

import io.kaas.broker.request.HandlerRegistry;
import io.netty.channel.Channel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** What every connection of one server shares: its settings, the in-flight count and the open connections. */
final class ServerState {
    private final NetworkSettings settings;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<Channel, ResponseQueue> connections = new ConcurrentHashMap<>();

    private volatile HandlerRegistry registry;

    ServerState(NetworkSettings settings) {
        this.settings = settings;
    }

    void serve(HandlerRegistry registry) {
        this.registry = registry;
    }

    HandlerRegistry registry() {
        return registry;
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
