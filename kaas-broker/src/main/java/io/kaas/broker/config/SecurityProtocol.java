package io.kaas.broker.config;

import java.util.Locale;

/** Kafka's security protocols, the values of {@code listener.security.protocol.map}. */
public enum SecurityProtocol {
    PLAINTEXT(false, false),
    SSL(true, false),
    SASL_PLAINTEXT(false, true),
    SASL_SSL(true, true);

    private final boolean tls;
    private final boolean sasl;

    SecurityProtocol(boolean tls, boolean sasl) {
        this.tls = tls;
        this.sasl = sasl;
    }

    /** Whether connections are encrypted (SSL, SASL_SSL). */
    public boolean usesTls() {
        return tls;
    }

    /** Whether a client must authenticate with SASL before any request but ApiVersions and the SASL APIs. */
    public boolean usesSasl() {
        return sasl;
    }

    /**
     * The protocol named {@code name} (case-insensitive), as Kafka parses it.
     *
     * @throws IllegalArgumentException if it names none
     */
    public static SecurityProtocol forName(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + name + "' is not a security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)");
        }
    }
}
