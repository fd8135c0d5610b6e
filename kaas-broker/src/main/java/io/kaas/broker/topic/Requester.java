package io.kaas.broker.topic;

import java.net.InetSocketAddress;

/**
 * Who asked for a change to a topic, for the log line that reports it: the principal, the client id and the client's
 * address, or the broker itself (auto-creation, an internal topic).
 *
 * @param principal     e.g. {@code User:alice}
 * @param clientId      the request header's client id, possibly null
 * @param clientAddress the peer's address, possibly null
 */
public record Requester(String principal, String clientId, InetSocketAddress clientAddress) {

    /** The broker itself: a change no client asked for directly. */
    public static final Requester BROKER = new Requester("the broker", null, null);

    /** Where the request came from: {@code client id 'x' at /127.0.0.1:5000}, or {@code -} for the broker. */
    public String client() {
        if (this == BROKER || (clientId == null && clientAddress == null)) {
            return "-";
        }
        return "client id '" + clientId + "' at " + clientAddress;
    }

    @Override
    public String toString() {
        return this == BROKER ? principal : principal + " (" + client() + ")";
    }
}
