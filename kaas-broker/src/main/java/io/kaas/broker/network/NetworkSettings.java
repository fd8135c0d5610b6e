package io.kaas.broker.network;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.Listener;
import io.kaas.broker.config.ListenerConfig;
import io.kaas.broker.config.SaslKeys;
import io.kaas.broker.config.SecurityProtocol;
import java.time.Duration;

/**
 * What the server needs to know, taken from {@link BrokerConfig}.
 *
 * @param listenerName        the listener's name, passed to handlers
 * @param securityProtocol    the listener's security protocol
 * @param host                the bind host; empty for every interface
 * @param port                the bind port; 0 for an ephemeral port
 * @param maxFrameBytes       {@code socket.request.max.bytes}
 * @param networkThreads      event-loop threads
 * @param ioThreads           request-handler threads
 * @param maxInFlightPerConnection requests pending on one connection before it stops being read
 * @param sendBufferBytes     SO_SNDBUF, -1 for the OS default
 * @param receiveBufferBytes  SO_RCVBUF, -1 for the OS default
 * @param drainTimeout        how long a graceful close waits for in-flight requests
 * @param idleTimeout         a connection with nothing read, written or pending for this long is
 *                            closed ({@code connections.max.idle.ms}); zero or negative: never
 * @param saslMaxReceiveBytes the largest request a SASL listener reads before its client authenticated
 *                            ({@code sasl.server.max.receive.size}); a larger one closes the connection
 */
public record NetworkSettings(String listenerName, SecurityProtocol securityProtocol, String host, int port, int maxFrameBytes, int networkThreads,
                              int ioThreads, int maxInFlightPerConnection, int sendBufferBytes,
                              int receiveBufferBytes, Duration drainTimeout, Duration idleTimeout,
                              int saslMaxReceiveBytes) {

    public static final int DEFAULT_MAX_IN_FLIGHT = 100;
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(10);

    /** Settings with Kafka's default {@code sasl.server.max.receive.size}. */
    public NetworkSettings(String listenerName, SecurityProtocol securityProtocol, String host, int port, int maxFrameBytes,
                           int networkThreads, int ioThreads, int maxInFlightPerConnection, int sendBufferBytes,
                           int receiveBufferBytes, Duration drainTimeout, Duration idleTimeout) {
        this(listenerName, securityProtocol, host, port, maxFrameBytes, networkThreads, ioThreads, maxInFlightPerConnection,
            sendBufferBytes, receiveBufferBytes, drainTimeout, idleTimeout, SaslKeys.DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE);
    }

    /** The settings of {@code listener} under {@code config}. */
    public static NetworkSettings from(BrokerConfig config, ListenerConfig listenerConfig) {
        Listener listener = listenerConfig.bind();
        return new NetworkSettings(listener.name(), listenerConfig.securityProtocol(), listener.host(), listener.port(), config.socketRequestMaxBytes(),
            config.numNetworkThreads(), config.numIoThreads(), DEFAULT_MAX_IN_FLIGHT, config.socketSendBufferBytes(),
            config.socketReceiveBufferBytes(), DEFAULT_DRAIN_TIMEOUT, Duration.ofMillis(config.connectionsMaxIdleMs()),
            SaslKeys.saslServerMaxReceiveSize(listenerConfig));
    }

    /** The settings of the config's first broker listener. */
    public static NetworkSettings from(BrokerConfig config) {
        return from(config, config.listenerConfigs().get(0));
    }
}
