package io.kaas.broker.network;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.config.ListenerConfig;
import io.kaas.broker.config.SecurityProtocol;
import io.kaas.security.tls.ServerTls;
import io.kaas.security.tls.SslKeys;
import io.kaas.security.tls.TlsConfigException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The listeners a broker serves, built from its config: settings, and the TLS of SSL and SASL_SSL listeners. */
public final class Listeners {

    private Listeners() {
    }

    /**
     * Every broker listener of {@code config}, in {@code listeners} order, TLS contexts built (stores read).
     *
     * @throws ConfigException naming the key (with its {@code listener.name.<l>.} prefix when the value came
     *                         from there) if a TLS setting cannot be used
     */
    public static List<ServedListener> of(BrokerConfig config) {
        List<ServedListener> out = new ArrayList<>();
        for (ListenerConfig lc : config.listenerConfigs()) {
            ServerTls tls = lc.securityProtocol().usesTls() ? tls(lc) : null;
            out.add(new ServedListener(NetworkSettings.from(config, lc), tls));
        }
        return List.copyOf(out);
    }

    private static ServerTls tls(ListenerConfig lc) {
        try {
            return ServerTls.create(lc.name(), sslValues(lc));
        } catch (TlsConfigException e) {
            String key = lc.ownValue(e.key()) != null ? ListenerConfig.prefixOf(lc.name()) + e.key() : e.key();
            throw new ConfigException(key, "listener " + lc.name() + ": " + e.getMessage());
        }
    }

    /**
     * The listener's {@code ssl.*} values (its own {@code listener.name.<l>.} value, else the broker-wide one).
     * On SASL_SSL only the listener's own {@code ssl.client.auth} counts, as in Kafka (KIP-684).
     */
    static Map<String, String> sslValues(ListenerConfig lc) {
        Map<String, String> out = new HashMap<>();
        for (String key : SslKeys.ALL) {
            String v = key.equals(SslKeys.CLIENT_AUTH) && lc.securityProtocol() == SecurityProtocol.SASL_SSL
                ? lc.ownValue(key) : lc.value(key);
            if (v != null) {
                out.put(key, v);
            }
        }
        for (String key : List.of(SslKeys.ALLOW_DN_CHANGES, SslKeys.ALLOW_SAN_CHANGES)) {
            if (lc.value(key) != null) {
                out.put(key, lc.value(key));
            }
        }
        return out;
    }
}
