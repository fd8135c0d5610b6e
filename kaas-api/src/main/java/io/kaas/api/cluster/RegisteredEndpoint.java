package io.kaas.api.cluster;

import java.util.Objects;

/**
 * One advertised listener of a registered broker, as Kafka's Metadata lists it.
 *
 * @param listener         the listener name, upper case ({@code PLAINTEXT}, {@code INTERNAL})
 * @param securityProtocol its security protocol ({@code PLAINTEXT}, {@code SSL}, {@code SASL_PLAINTEXT}, {@code SASL_SSL})
 * @param host             the advertised host
 * @param port             the advertised port
 */
public record RegisteredEndpoint(String listener, String securityProtocol, String host, int port) {
    public RegisteredEndpoint {
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(securityProtocol, "securityProtocol");
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }
}
