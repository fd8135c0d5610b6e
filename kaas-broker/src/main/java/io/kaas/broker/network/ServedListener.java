package io.kaas.broker.network;

import io.kaas.security.tls.ServerTls;
import java.util.Objects;

/**
 * One listener a {@link KafkaServer} binds.
 *
 * @param settings its network settings (name, protocol, address, limits)
 * @param tls      its TLS (SSL and SASL_SSL listeners), null for a plaintext one
 */
public record ServedListener(NetworkSettings settings, ServerTls tls) {

    public ServedListener {
        Objects.requireNonNull(settings, "settings");
        if (settings.securityProtocol().usesTls() != (tls != null)) {
            throw new IllegalArgumentException("listener " + settings.listenerName() + " (" + settings.securityProtocol()
                + ") " + (tls == null ? "needs" : "takes no") + " TLS");
        }
    }
}
