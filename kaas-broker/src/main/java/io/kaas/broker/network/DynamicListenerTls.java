package io.kaas.broker.network;

import io.kaas.broker.config.ListenerConfig;
import io.kaas.security.tls.ServerTls;
import io.kaas.security.tls.SslKeys;
import io.kaas.security.tls.TlsConfigException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-broker dynamic TLS configs of this broker's listeners (Kafka's KIP-226
 * {@code listener.name.<l>.ssl.keystore.location} and the other {@link SslKeys#DYNAMIC} keys): checked before they
 * are stored, applied to each TLS listener's {@link ServerTls} when they change.
 */
public final class DynamicListenerTls {
    private static final Logger LOG = LoggerFactory.getLogger(DynamicListenerTls.class);

    private final Supplier<List<ServedListener>> listeners;

    public DynamicListenerTls(Supplier<List<ServedListener>> listeners) {
        this.listeners = listeners;
    }

    /**
     * Why this broker's TLS listeners cannot take the dynamic configs {@code configs} (its own, after the change), in
     * Kafka's words, or null; a refusal is logged naming the listener.
     */
    public String problem(Map<String, String> configs) {
        for (ServedListener l : listeners.get()) {
            ServerTls tls = l.tls();
            if (tls == null) {
                continue;
            }
            try {
                tls.check(of(tls.listenerName(), configs));
            } catch (TlsConfigException e) {
                String message = "Validation of dynamic config update of SSLFactory failed: "
                    + "org.apache.kafka.common.config.ConfigException: " + e.getMessage();
                LOG.atWarn().addKeyValue("listener", tls.listenerName()).addKeyValue("key", e.key())
                    .log("TLS listener {}: dynamic configs refused, nothing changed ({}: {})", tls.listenerName(),
                        e.key(), e.getMessage());
                return message;
            }
        }
        return null;
    }

    /** Applies {@code merged} (the broker's effective dynamic configs) to every TLS listener; throws if one cannot. */
    public void apply(Map<String, String> merged) {
        for (ServedListener l : listeners.get()) {
            if (l.tls() != null) {
                l.tls().reconfigure(of(l.tls().listenerName(), merged));
            }
        }
    }

    /** The dynamic TLS values of listener {@code name} in {@code configs}, without their prefix. */
    static Map<String, String> of(String name, Map<String, String> configs) {
        String prefix = ListenerConfig.prefixOf(name);
        Map<String, String> out = new HashMap<>();
        configs.forEach((k, v) -> {
            if (k.startsWith(prefix) && SslKeys.DYNAMIC.contains(k.substring(prefix.length()))) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }
}
