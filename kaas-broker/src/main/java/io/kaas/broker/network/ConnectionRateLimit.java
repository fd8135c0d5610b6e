package io.kaas.broker.network;

import java.net.InetAddress;

/**
 * The connection creation rates a listener holds new connections to (KIP-612): broker-wide
 * ({@code max.connection.creation.rate}; over it the listener stops accepting for a while, as Kafka's acceptor
 * waits) and per client address (the {@code connection_creation_rate} quota of ip entities; over it the connection
 * is held unread and then closed, as Kafka's acceptor closes it after the throttle time). Asked once per accepted
 * connection, on its event loop; never on the request path.
 */
public interface ConnectionRateLimit {
    /** No rate is limited. */
    ConnectionRateLimit NONE = new ConnectionRateLimit() {
        @Override
        public long acceptDelayMs(long nowMs) {
            return 0;
        }

        @Override
        public long ipThrottleMs(InetAddress address, long nowMs) {
            return 0;
        }

        @Override
        public int ipQuota(InetAddress address) {
            return Integer.MAX_VALUE;
        }
    };

    /** Records a new connection on the broker-wide rate: the ms it (and its listener) is to wait first, 0 for none. */
    long acceptDelayMs(long nowMs);

    /**
     * Records a new connection of listener {@code listenerName} on the broker-wide rate and on the listener's own
     * ({@code listener.name.<l>.max.connection.creation.rate}): the ms it (and its listener) is to wait first, the longer
     * of the two, 0 for none. By default the broker-wide rate only.
     */
    default long acceptDelayMs(String listenerName, long nowMs) {
        return acceptDelayMs(nowMs);
    }

    /** As {@link #ipThrottleMs(InetAddress, long)}; a connection held and closed is not counted on its listener either. */
    default long ipThrottleMs(String listenerName, InetAddress address, long nowMs) {
        return ipThrottleMs(address, nowMs);
    }

    /**
     * Records a new connection from {@code address} on its address's rate: 0 to go on, else the ms to hold it before
     * it is closed (it is then not counted, broker-wide either).
     */
    long ipThrottleMs(InetAddress address, long nowMs);

    /** The connections per second {@code address} may open (for the log line). */
    int ipQuota(InetAddress address);
}
