package io.kaas.broker;

/**
 * A listener endpoint as advertised to clients.
 *
 * @param listenerName e.g. {@code PLAINTEXT}
 * @param host         host name or address clients connect to
 * @param port         the bound port (never 0)
 */
public record BrokerEndpoint(String listenerName, String host, int port) {
}
