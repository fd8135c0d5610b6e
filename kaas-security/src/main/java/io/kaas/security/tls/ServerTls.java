package io.kaas.security.tls;

import io.kaas.api.auth.KafkaPrincipal;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.security.Principal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.security.auth.x500.X500Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS of one listener: its current server context (each new connection gets an {@link SslHandler}
 * from it), rebuilt by {@link #reloadIfChanged()} when a key store or trust store file changed, and the
 * principal of a client certificate. Thread-safe.
 */
public final class ServerTls {

    private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);

    private final String listenerName;
    private final Map<String, String> staticSsl;
    private final SslPrincipalMapper principalMapper;
    private volatile Map<String, String> ssl;
    private volatile StoreFiles files;
    private volatile SslContext context;
    private volatile KeyStoreIdentity identity; // null: no key store file (PEM)

    private ServerTls(String listenerName, Map<String, String> ssl, SslPrincipalMapper principalMapper,
                      StoreFiles files, SslContext context) {
        this.listenerName = listenerName;
        this.staticSsl = ssl;
        this.ssl = ssl;
        this.principalMapper = principalMapper;
        this.files = files;
        this.context = context;
        this.identity = identity(ssl);
    }

    /**
     * The TLS of listener {@code listenerName} from its {@code ssl.*} values.
     *
     * @throws TlsConfigException naming the key at fault if a value (or a store it names) cannot be used
     */
    public static ServerTls create(String listenerName, Map<String, String> ssl) {
        Map<String, String> copy = new HashMap<>();
        ssl.forEach((k, v) -> {
            if (v != null) {
                copy.put(k, v);
            }
        });
        SslPrincipalMapper mapper = SslPrincipalMapper.parse(copy.get(SslKeys.PRINCIPAL_MAPPING_RULES));
        StoreFiles files = StoreFiles.of(copy.get(SslKeys.KEYSTORE_LOCATION), copy.get(SslKeys.TRUSTSTORE_LOCATION));
        SslContext context = ServerSslContextFactory.build(copy);
        return new ServerTls(Objects.requireNonNull(listenerName, "listenerName"), Map.copyOf(copy), mapper, files,
            context);
    }

    public String listenerName() {
        return listenerName;
    }

    /** A handler for one new connection, from the current context. */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        return context.newHandler(alloc);
    }

    /** The store files watched for changes. */
    public List<java.nio.file.Path> watchedFiles() {
        return files.paths();
    }

    /**
     * Rebuilds the context if a store file changed since it was last read (size, modification time or
     * content). A new context serves new connections only; a file that does not load keeps the old one
     * and logs a WARN.
     *
     * @return true if a new context is in use
     */
    public synchronized boolean reloadIfChanged() {
        StoreFiles.Change change = files.changed();
        if (change == null) {
            return false;
        }
        try {
            Map<String, String> current = ssl;
            context = ServerSslContextFactory.build(current);
            identity = identity(current);
            files.accept(change);
            LOG.atInfo().addKeyValue("listener", listenerName).addKeyValue("files", change.paths())
                .log("TLS listener {}: reloaded its key and trust stores ({} changed); new connections use them",
                    listenerName, change.paths());
            return true;
        } catch (TlsConfigException e) {
            files.accept(change); // warn once per change, not at every check
            LOG.atWarn().addKeyValue("listener", listenerName).addKeyValue("key", e.key())
                .log("TLS listener {}: {} changed but cannot be used ({}: {}); keeping the previous stores",
                    listenerName, change.paths(), e.key(), e.getMessage());
            return false;
        }
    }

    /**
     * Checks that the listener can take the per-broker dynamic values {@code dynamic} ({@link SslKeys#DYNAMIC} keys,
     * without the listener prefix; absent ones at their static value), as Kafka's {@code SslFactory} validates a
     * reconfiguration: the stores open with their passwords, the key store holds a private key, and its entries keep
     * their DNs and SANs unless {@code ssl.allow.dn.changes} / {@code ssl.allow.san.changes}.
     *
     * @throws TlsConfigException in Kafka's words if they cannot be used
     */
    public void check(Map<String, String> dynamic) {
        Map<String, String> next = effective(dynamic);
        if (!next.equals(ssl)) {
            validated(next);
        }
    }

    /**
     * Takes the per-broker dynamic values {@code dynamic} (as {@link #check}): new connections get the new context,
     * open ones keep theirs. Nothing changes if they cannot be used.
     *
     * @return true if a new context is in use
     * @throws TlsConfigException in Kafka's words if they cannot be used
     */
    public synchronized boolean reconfigure(Map<String, String> dynamic) {
        Map<String, String> next = effective(dynamic);
        if (next.equals(ssl)) {
            return false;
        }
        SslContext built = validated(next);
        files = StoreFiles.of(next.get(SslKeys.KEYSTORE_LOCATION), next.get(SslKeys.TRUSTSTORE_LOCATION));
        identity = identity(next);
        ssl = Map.copyOf(next);
        context = built;
        LOG.atInfo().addKeyValue("listener", listenerName).addKeyValue("keys", new java.util.TreeSet<>(dynamic.keySet()))
            .log("TLS listener {}: dynamic key and trust store configs applied ({}); new connections use them",
                listenerName, new java.util.TreeSet<>(dynamic.keySet()));
        return true;
    }

    private Map<String, String> effective(Map<String, String> dynamic) {
        Map<String, String> next = new HashMap<>(staticSsl);
        dynamic.forEach((k, v) -> {
            if (SslKeys.DYNAMIC.contains(k) && v != null) {
                next.put(k, v);
            }
        });
        return next;
    }

    private SslContext validated(Map<String, String> next) {
        KeyStoreIdentity now = identity(next);
        if (now != null && !now.hasKey()) {
            throw new TlsConfigException(SslKeys.KEYSTORE_LOCATION, "the key store "
                + next.get(SslKeys.KEYSTORE_LOCATION) + " holds no private key");
        }
        KeyStoreIdentity before = identity;
        if (before != null && now != null) {
            String why = before.incompatibility(now, Boolean.parseBoolean(next.get(SslKeys.ALLOW_DN_CHANGES)),
                Boolean.parseBoolean(next.get(SslKeys.ALLOW_SAN_CHANGES)));
            if (why != null) {
                throw new TlsConfigException(SslKeys.KEYSTORE_LOCATION, why);
            }
        }
        return ServerSslContextFactory.build(next);
    }

    /** The key entries of the key store file {@code values} name, or null for a PEM key store. */
    private static KeyStoreIdentity identity(Map<String, String> values) {
        String location = values.get(SslKeys.KEYSTORE_LOCATION);
        String type = values.getOrDefault(SslKeys.KEYSTORE_TYPE, SslKeys.DEFAULT_STORE_TYPE).toUpperCase(java.util.Locale.ROOT);
        if (location == null || type.equals(SslKeys.PEM)) {
            return null;
        }
        return KeyStoreIdentity.of(ServerSslContextFactory.load(SslKeys.KEYSTORE_TYPE, SslKeys.KEYSTORE_LOCATION,
            SslKeys.KEYSTORE_PASSWORD, type, location, values.get(SslKeys.KEYSTORE_PASSWORD)));
    }

    /**
     * The principal of a completed handshake's peer, as Kafka's default principal builder gives it on an SSL
     * listener: {@code User:} and the certificate subject's distinguished name (RFC 2253, as
     * {@link X500Principal#getName()}) mapped by {@code ssl.principal.mapping.rules}; {@code User:ANONYMOUS}
     * without a client certificate.
     *
     * @throws NoMatchingRuleException if no mapping rule matches the DN
     */
    public KafkaPrincipal principal(SSLSession session) {
        Principal peer;
        try {
            peer = session.getPeerPrincipal();
        } catch (SSLPeerUnverifiedException e) {
            return KafkaPrincipal.ANONYMOUS;
        }
        if (!(peer instanceof X500Principal x500)) {
            return new KafkaPrincipal(KafkaPrincipal.USER_TYPE, peer.getName());
        }
        String dn = x500.getName();
        Optional<String> name = principalMapper.name(dn);
        return new KafkaPrincipal(KafkaPrincipal.USER_TYPE,
            name.orElseThrow(() -> new NoMatchingRuleException("No rules apply to " + dn + ", rules " + principalMapper)));
    }

    /** No {@code ssl.principal.mapping.rules} rule matches a client certificate's DN. */
    public static final class NoMatchingRuleException extends RuntimeException {
        NoMatchingRuleException(String message) {
            super(message);
        }
    }
}
