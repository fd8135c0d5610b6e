package io.kaas.security.tls;

import java.util.Objects;

/** A TLS setting that cannot be used; {@link #key()} names the Kafka config key at fault. */
public final class TlsConfigException extends IllegalArgumentException {

    private final String key;

    public TlsConfigException(String key, String problem) {
        super(problem);
        this.key = Objects.requireNonNull(key, "key");
    }

    public TlsConfigException(String key, String problem, Throwable cause) {
        super(problem, cause);
        this.key = Objects.requireNonNull(key, "key");
    }

    /** The Kafka config key whose value is wrong, e.g. {@code ssl.keystore.password}. */
    public String key() {
        return key;
    }
}
