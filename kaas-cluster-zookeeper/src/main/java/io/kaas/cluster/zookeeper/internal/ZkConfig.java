package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;

/**
 * The store's settings, under Kafka's names ({@code zookeeper.connect}, {@code zookeeper.session.timeout.ms},
 * {@code zookeeper.ssl.*}...). The broker hands each {@code zookeeper.*} key of server.properties under its full name;
 * a key given as {@code cluster.zookeeper.<rest>} reaches the store as {@code <rest>} and is read when the full name is
 * absent ({@code cluster.zookeeper.connect} stands for {@code zookeeper.connect}). The TLS keys map to ZooKeeper's
 * client properties on a {@link ZKClientConfig} (never on System properties), as Kafka maps them.
 */
final class ZkConfig {
    static final String CONNECT = "zookeeper.connect";
    static final String SESSION_TIMEOUT = "zookeeper.session.timeout.ms";
    static final String CONNECTION_TIMEOUT = "zookeeper.connection.timeout.ms";
    static final String SET_ACL = "zookeeper.set.acl";
    static final String CLIENT_CNXN_SOCKET = "zookeeper.clientCnxnSocket";
    static final String SSL_CLIENT_ENABLE = "zookeeper.ssl.client.enable";
    static final String SSL_KEYSTORE_LOCATION = "zookeeper.ssl.keystore.location";
    static final String SSL_KEYSTORE_PASSWORD = "zookeeper.ssl.keystore.password";
    static final String SSL_KEYSTORE_TYPE = "zookeeper.ssl.keystore.type";
    static final String SSL_TRUSTSTORE_LOCATION = "zookeeper.ssl.truststore.location";
    static final String SSL_TRUSTSTORE_PASSWORD = "zookeeper.ssl.truststore.password";
    static final String SSL_TRUSTSTORE_TYPE = "zookeeper.ssl.truststore.type";
    static final String SSL_PROTOCOL = "zookeeper.ssl.protocol";
    static final String SSL_ENABLED_PROTOCOLS = "zookeeper.ssl.enabled.protocols";
    static final String SSL_CIPHER_SUITES = "zookeeper.ssl.cipher.suites";
    static final String SSL_ENDPOINT_IDENTIFICATION = "zookeeper.ssl.endpoint.identification.algorithm";
    static final String SSL_CRL_ENABLE = "zookeeper.ssl.crl.enable";
    static final String SSL_OCSP_ENABLE = "zookeeper.ssl.ocsp.enable";

    /** Every key the store reads, for {@code configKeys()}. */
    static final Set<String> KEYS = Set.copyOf(new LinkedHashSet<>(java.util.List.of(CONNECT, SESSION_TIMEOUT,
            CONNECTION_TIMEOUT, SET_ACL, CLIENT_CNXN_SOCKET, SSL_CLIENT_ENABLE, SSL_KEYSTORE_LOCATION,
            SSL_KEYSTORE_PASSWORD, SSL_KEYSTORE_TYPE, SSL_TRUSTSTORE_LOCATION, SSL_TRUSTSTORE_PASSWORD,
            SSL_TRUSTSTORE_TYPE, SSL_PROTOCOL, SSL_ENABLED_PROTOCOLS, SSL_CIPHER_SUITES, SSL_ENDPOINT_IDENTIFICATION,
            SSL_CRL_ENABLE, SSL_OCSP_ENABLE)));

    /**
     * kaas's default session timeout: 6 s (Kafka's default before 2.5; Kafka 3.x used 18 s, and Kafka 4 has no
     * ZooKeeper mode). A partition has one writer and no replica to fail over to, so the session timeout is the
     * time its partitions have no writer after a broker dies: 6 s keeps failover (expiry, reassignment, recovery)
     * under 10 s.
     */
    static final int DEFAULT_SESSION_TIMEOUT_MS = 6_000;
    static final String NETTY_SOCKET = "org.apache.zookeeper.ClientCnxnSocketNetty";

    final ConnectString connect;
    final int sessionTimeoutMs;
    final int connectionTimeoutMs;
    final boolean setAcl;
    final boolean tls;
    private final PluginConfig config;

    private ZkConfig(PluginConfig config) {
        this.config = config;
        String connectKey = keyOf(CONNECT);
        this.connect = ConnectString.parse(connectKey, value(CONNECT).orElseThrow(
                () -> new PluginConfigException(CONNECT, "the zookeeper cluster store needs it (host:port[,host:port...][/chroot])")));
        this.sessionTimeoutMs = positive(SESSION_TIMEOUT, DEFAULT_SESSION_TIMEOUT_MS);
        this.connectionTimeoutMs = positive(CONNECTION_TIMEOUT, sessionTimeoutMs);
        this.setAcl = bool(SET_ACL, false);
        this.tls = bool(SSL_CLIENT_ENABLE, false);
        bool(SSL_CRL_ENABLE, false);
        bool(SSL_OCSP_ENABLE, false);
    }

    /** @throws PluginConfigException naming the key of the first malformed value */
    static ZkConfig of(PluginConfig config) {
        return new ZkConfig(config);
    }

    /** The key a setting was given under: its full name, or the short name of {@code cluster.zookeeper.<rest>}. */
    private String keyOf(String fullName) {
        if (config.get(fullName).isPresent()) {
            return fullName;
        }
        String shortName = fullName.substring("zookeeper.".length());
        return config.get(shortName).isPresent() ? "cluster.zookeeper." + shortName : fullName;
    }

    private Optional<String> value(String fullName) {
        Optional<String> v = config.get(fullName);
        return v.isPresent() ? v : config.get(fullName.substring("zookeeper.".length()));
    }

    private int positive(String fullName, int defaultValue) {
        Optional<String> v = value(fullName);
        if (v.isEmpty()) {
            return defaultValue;
        }
        try {
            int n = Integer.parseInt(v.get());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new PluginConfigException(keyOf(fullName), "expected a positive integer (milliseconds), got '" + v.get() + "'");
    }

    private boolean bool(String fullName, boolean defaultValue) {
        Optional<String> v = value(fullName);
        if (v.isEmpty()) {
            return defaultValue;
        }
        if (v.get().equalsIgnoreCase("true")) {
            return true;
        }
        if (v.get().equalsIgnoreCase("false")) {
            return false;
        }
        throw new PluginConfigException(keyOf(fullName), "expected true or false, got '" + v.get() + "'");
    }

    /**
     * The ZooKeeper client's settings: TLS as Kafka maps {@code zookeeper.ssl.*} onto ZooKeeper's own properties, and
     * {@code zookeeper.clientCnxnSocket} (ClientCnxnSocketNetty when TLS is on and it is not set). SASL needs nothing
     * here: ZooKeeper's client reads the JAAS {@code Client} section of {@code java.security.auth.login.config}.
     */
    ZKClientConfig clientConfig() {
        ZKClientConfig zk = new ZKClientConfig();
        Optional<String> socket = value(CLIENT_CNXN_SOCKET);
        if (tls) {
            zk.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
            zk.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, socket.orElse(NETTY_SOCKET));
            var x509 = new org.apache.zookeeper.common.ClientX509Util();
            try (x509) {
                copy(zk, SSL_KEYSTORE_LOCATION, x509.getSslKeystoreLocationProperty());
                copy(zk, SSL_KEYSTORE_PASSWORD, x509.getSslKeystorePasswdProperty());
                copy(zk, SSL_KEYSTORE_TYPE, x509.getSslKeystoreTypeProperty());
                copy(zk, SSL_TRUSTSTORE_LOCATION, x509.getSslTruststoreLocationProperty());
                copy(zk, SSL_TRUSTSTORE_PASSWORD, x509.getSslTruststorePasswdProperty());
                copy(zk, SSL_TRUSTSTORE_TYPE, x509.getSslTruststoreTypeProperty());
                zk.setProperty(x509.getSslProtocolProperty(), value(SSL_PROTOCOL).orElse("TLSv1.2"));
                copy(zk, SSL_ENABLED_PROTOCOLS, x509.getSslEnabledProtocolsProperty());
                copy(zk, SSL_CIPHER_SUITES, x509.getSslCipherSuitesProperty());
                String identification = value(SSL_ENDPOINT_IDENTIFICATION).orElse("HTTPS");
                zk.setProperty(x509.getSslHostnameVerificationEnabledProperty(),
                        String.valueOf(identification.toUpperCase(Locale.ROOT).equals("HTTPS")));
                zk.setProperty(x509.getSslCrlEnabledProperty(), String.valueOf(bool(SSL_CRL_ENABLE, false)));
                zk.setProperty(x509.getSslOcspEnabledProperty(), String.valueOf(bool(SSL_OCSP_ENABLE, false)));
            }
        } else {
            socket.ifPresent(s -> zk.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, s));
        }
        return zk;
    }

    private void copy(ZKConfig zk, String kafkaKey, String zkKey) {
        value(kafkaKey).ifPresent(v -> zk.setProperty(zkKey, v));
    }
}
