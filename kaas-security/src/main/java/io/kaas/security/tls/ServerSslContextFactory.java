package io.kaas.security.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.NoSuchAlgorithmException;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a listener's server {@link SslContext} from its Kafka {@code ssl.*} values, with Kafka's rules
 * and defaults: a JKS or PKCS12 key store (file and password), or PEM (a file holding the private key and
 * its chain, or {@code ssl.keystore.key} and {@code ssl.keystore.certificate.chain} inline); a trust store
 * the same ways (none: the JDK's default trust); protocols, cipher suites, client authentication. Every
 * problem is a {@link TlsConfigException} naming the key; a password never appears in a message.
 */
public final class ServerSslContextFactory {

    private static final Logger LOG = LoggerFactory.getLogger(ServerSslContextFactory.class);
    private static final AtomicBoolean PROVIDER_LOGGED = new AtomicBoolean();
    private static final Set<String> CLIENT_AUTH_VALUES = Set.of("required", "requested", "none");

    private ServerSslContextFactory() {
    }

    /** The engine used: OpenSSL (netty-tcnative) when it loads here, else the JDK's. */
    public static SslProvider provider() {
        SslProvider provider = OpenSsl.isAvailable() && OpenSsl.supportsKeyManagerFactory() ? SslProvider.OPENSSL
            : SslProvider.JDK;
        if (PROVIDER_LOGGED.compareAndSet(false, true)) {
            if (provider == SslProvider.OPENSSL) {
                LOG.atInfo().addKeyValue("provider", "OPENSSL").addKeyValue("version", OpenSsl.versionString())
                    .log("TLS listeners use OpenSSL ({})", OpenSsl.versionString());
            } else {
                Throwable why = OpenSsl.unavailabilityCause();
                LOG.atInfo().addKeyValue("provider", "JDK")
                    .log("TLS listeners use the JDK's TLS engine (OpenSSL is not available: {})",
                        why == null ? "no KeyManagerFactory support" : why.getMessage());
            }
        }
        return provider;
    }

    /**
     * The server context for {@code ssl}: Kafka's {@code ssl.*} keys of one listener (the listener's own
     * {@code listener.name.<l>.} overrides already applied), absent keys at Kafka's defaults.
     *
     * @throws TlsConfigException if a value cannot be used
     */
    public static SslContext build(Map<String, String> ssl) {
        return build(ssl, provider());
    }

    static SslContext build(Map<String, String> ssl, SslProvider provider) {
        Values v = new Values(ssl);
        checkProtocol(v.get(SslKeys.PROTOCOL, SslKeys.DEFAULT_PROTOCOL));
        List<String> protocols = protocols(v.list(SslKeys.ENABLED_PROTOCOLS, SslKeys.DEFAULT_ENABLED_PROTOCOLS));
        ClientAuth clientAuth = clientAuth(v.get(SslKeys.CLIENT_AUTH, SslKeys.DEFAULT_CLIENT_AUTH));
        SslContextBuilder builder = keyStore(v);
        trustStore(v, builder);
        builder.sslProvider(provider).clientAuth(clientAuth).protocols(protocols);
        List<String> ciphers = v.list(SslKeys.CIPHER_SUITES, "");
        if (!ciphers.isEmpty()) {
            builder.ciphers(ciphers, IdentityCipherSuiteFilter.INSTANCE);
        }
        SslContext context;
        try {
            context = builder.build();
        } catch (IOException | RuntimeException e) {
            throw new TlsConfigException(ciphers.isEmpty() ? SslKeys.KEYSTORE_LOCATION : SslKeys.CIPHER_SUITES,
                "cannot build the TLS context: " + rootMessage(e), e);
        }
        checkEngine(context, ciphers);
        return context;
    }

    static void checkProtocol(String protocol) {
        try {
            SSLContext.getInstance(protocol);
        } catch (NoSuchAlgorithmException e) {
            throw new TlsConfigException(SslKeys.PROTOCOL, "unknown TLS protocol '" + protocol + "'");
        }
    }

    static List<String> protocols(List<String> wanted) {
        Set<String> supported;
        try {
            supported = Set.of(SSLContext.getDefault().getSupportedSSLParameters().getProtocols());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no default TLS context", e);
        }
        for (String p : wanted) {
            if (!supported.contains(p)) {
                throw new TlsConfigException(SslKeys.ENABLED_PROTOCOLS, "unknown or unsupported protocol '" + p
                    + "'; supported: " + String.join(", ", new java.util.TreeSet<>(supported)));
            }
        }
        if (wanted.isEmpty()) {
            throw new TlsConfigException(SslKeys.ENABLED_PROTOCOLS, "must name at least one protocol (e.g. TLSv1.3)");
        }
        return wanted;
    }

    private static ClientAuth clientAuth(String value) {
        if (!CLIENT_AUTH_VALUES.contains(value)) {
            throw new TlsConfigException(SslKeys.CLIENT_AUTH, "Invalid value " + value + " for configuration "
                + SslKeys.CLIENT_AUTH + ": String must be one of: required, requested, none");
        }
        return switch (value) {
            case "required" -> ClientAuth.REQUIRE;
            case "requested" -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        };
    }

    private static SslContextBuilder keyStore(Values v) {
        String type = v.get(SslKeys.KEYSTORE_TYPE, SslKeys.DEFAULT_STORE_TYPE).toUpperCase(Locale.ROOT);
        String location = v.get(SslKeys.KEYSTORE_LOCATION);
        String password = v.get(SslKeys.KEYSTORE_PASSWORD);
        String keyPassword = v.get(SslKeys.KEY_PASSWORD);
        String key = v.get(SslKeys.KEYSTORE_KEY);
        String chain = v.get(SslKeys.KEYSTORE_CERTIFICATE_CHAIN);
        if (key != null) {
            if (!type.equals(SslKeys.PEM)) {
                throw new TlsConfigException(SslKeys.KEYSTORE_KEY, "SSL private key can be specified only for PEM, but key "
                    + "store type is " + type + ".");
            }
            if (chain == null) {
                throw new TlsConfigException(SslKeys.KEYSTORE_CERTIFICATE_CHAIN, "SSL private key is specified, but "
                    + "certificate chain is not specified.");
            }
            if (location != null) {
                throw new TlsConfigException(SslKeys.KEYSTORE_LOCATION, "Both SSL key store location and separate "
                    + "private key are specified.");
            }
            if (password != null) {
                throw new TlsConfigException(SslKeys.KEYSTORE_PASSWORD, "SSL key store password cannot be specified "
                    + "with PEM format, only key password may be specified.");
            }
            return pem(SslKeys.KEYSTORE_KEY, chain, key, keyPassword);
        }
        if (chain != null) {
            throw new TlsConfigException(SslKeys.KEYSTORE_KEY, "SSL certificate chain is specified, but private key is "
                + "not specified");
        }
        if (location == null) {
            throw new TlsConfigException(SslKeys.KEYSTORE_LOCATION, "a TLS listener needs a key store: set "
                + SslKeys.KEYSTORE_LOCATION + " (or " + SslKeys.KEYSTORE_KEY + " and " + SslKeys.KEYSTORE_CERTIFICATE_CHAIN
                + " with " + SslKeys.KEYSTORE_TYPE + "=PEM)");
        }
        if (type.equals(SslKeys.PEM)) {
            if (password != null) {
                throw new TlsConfigException(SslKeys.KEYSTORE_PASSWORD, "SSL key store password cannot be specified "
                    + "with PEM format, only key password may be specified");
            }
            String text = readText(SslKeys.KEYSTORE_LOCATION, location);
            return pem(SslKeys.KEYSTORE_LOCATION, text, text, keyPassword);
        }
        if (password == null) {
            throw new TlsConfigException(SslKeys.KEYSTORE_PASSWORD, "SSL key store is specified, but key store password "
                + "is not specified.");
        }
        KeyStore store = load(SslKeys.KEYSTORE_TYPE, SslKeys.KEYSTORE_LOCATION, SslKeys.KEYSTORE_PASSWORD, type, location,
            password);
        String algorithm = v.get(SslKeys.KEYMANAGER_ALGORITHM, KeyManagerFactory.getDefaultAlgorithm());
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(algorithm);
            kmf.init(store, (keyPassword != null ? keyPassword : password).toCharArray());
            return SslContextBuilder.forServer(kmf);
        } catch (NoSuchAlgorithmException e) {
            throw new TlsConfigException(SslKeys.KEYMANAGER_ALGORITHM, "unknown key manager algorithm '" + algorithm + "'");
        } catch (UnrecoverableKeyException e) {
            throw new TlsConfigException(keyPassword != null ? SslKeys.KEY_PASSWORD : SslKeys.KEYSTORE_PASSWORD,
                "cannot recover the private key in " + location + ": wrong key password", e);
        } catch (KeyStoreException e) {
            throw new TlsConfigException(SslKeys.KEYSTORE_LOCATION, "cannot use key store " + location + ": "
                + rootMessage(e), e);
        }
    }

    private static SslContextBuilder pem(String key, String chain, String privateKey, String keyPassword) {
        if (!chain.contains("-----BEGIN CERTIFICATE-----")) {
            throw new TlsConfigException(key, "no PEM certificate (-----BEGIN CERTIFICATE-----) found");
        }
        if (!privateKey.contains("PRIVATE KEY-----")) {
            throw new TlsConfigException(key, "no PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN "
                + "ENCRYPTED PRIVATE KEY-----) found");
        }
        try {
            return SslContextBuilder.forServer(stream(chain), stream(privateKey), keyPassword);
        } catch (RuntimeException e) {
            throw new TlsConfigException(privateKey.contains("ENCRYPTED") ? SslKeys.KEY_PASSWORD : key,
                "Invalid PEM keystore configs: " + rootMessage(e), e);
        }
    }

    static void trustStore(Values v, SslContextBuilder builder) {
        String type = v.get(SslKeys.TRUSTSTORE_TYPE, SslKeys.DEFAULT_STORE_TYPE).toUpperCase(Locale.ROOT);
        String location = v.get(SslKeys.TRUSTSTORE_LOCATION);
        String password = v.get(SslKeys.TRUSTSTORE_PASSWORD);
        String certificates = v.get(SslKeys.TRUSTSTORE_CERTIFICATES);
        if (certificates != null || (type.equals(SslKeys.PEM) && location != null)) {
            if (!type.equals(SslKeys.PEM)) {
                throw new TlsConfigException(SslKeys.TRUSTSTORE_CERTIFICATES, "SSL trust store certs can be specified "
                    + "only for PEM, but trust store type is " + type + ".");
            }
            if (certificates != null && location != null) {
                throw new TlsConfigException(SslKeys.TRUSTSTORE_LOCATION, "Both SSL trust store location and separate "
                    + "trust certificates are specified.");
            }
            if (password != null) {
                throw new TlsConfigException(SslKeys.TRUSTSTORE_PASSWORD, "SSL trust store password cannot be specified "
                    + "for PEM format.");
            }
            String key = certificates != null ? SslKeys.TRUSTSTORE_CERTIFICATES : SslKeys.TRUSTSTORE_LOCATION;
            String text = certificates != null ? certificates : readText(key, location);
            if (!text.contains("-----BEGIN CERTIFICATE-----")) {
                throw new TlsConfigException(key, "At least one certificate expected, but none found");
            }
            try {
                builder.trustManager(stream(text));
            } catch (RuntimeException e) {
                throw new TlsConfigException(key, "Invalid PEM truststore configs: " + rootMessage(e), e);
            }
            return;
        }
        if (location == null) {
            if (password != null) {
                throw new TlsConfigException(SslKeys.TRUSTSTORE_PASSWORD, "SSL trust store is not specified, but trust "
                    + "store password is specified.");
            }
            return; // the JDK's default trust (cacerts)
        }
        KeyStore store = load(SslKeys.TRUSTSTORE_TYPE, SslKeys.TRUSTSTORE_LOCATION, SslKeys.TRUSTSTORE_PASSWORD, type,
            location, password);
        String algorithm = v.get(SslKeys.TRUSTMANAGER_ALGORITHM, TrustManagerFactory.getDefaultAlgorithm());
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(algorithm);
            tmf.init(store);
            builder.trustManager(tmf);
        } catch (NoSuchAlgorithmException e) {
            throw new TlsConfigException(SslKeys.TRUSTMANAGER_ALGORITHM, "unknown trust manager algorithm '" + algorithm
                + "'");
        } catch (KeyStoreException e) {
            throw new TlsConfigException(SslKeys.TRUSTSTORE_LOCATION, "cannot use trust store " + location + ": "
                + rootMessage(e), e);
        }
    }

    static KeyStore load(String typeKey, String locationKey, String passwordKey, String type, String location,
                                 String password) {
        KeyStore store;
        try {
            store = KeyStore.getInstance(type);
        } catch (KeyStoreException e) {
            throw new TlsConfigException(typeKey, "unknown store type '" + type + "' (JKS, PKCS12 or PEM)");
        }
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            store.load(in, password == null ? null : password.toCharArray());
            return store;
        } catch (NoSuchFileException e) {
            throw new TlsConfigException(locationKey, "no such file: " + location);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException || String.valueOf(e.getMessage()).contains("password")) {
                throw new TlsConfigException(passwordKey, "cannot open " + location + ": wrong password", e);
            }
            throw new TlsConfigException(locationKey, "Failed to load SSL keystore " + location + " of type " + type + ": "
                + rootMessage(e), e);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException(locationKey, "Failed to load SSL keystore " + location + " of type " + type + ": "
                + rootMessage(e), e);
        }
    }

    static String readText(String key, String location) {
        try {
            return Files.readString(Path.of(location), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new TlsConfigException(key, "no such file: " + location);
        } catch (IOException e) {
            throw new TlsConfigException(key, "cannot read " + location + ": " + rootMessage(e), e);
        }
    }

    /** Makes one engine so that a cipher suite or protocol the engine refuses fails now, not at the first client. */
    private static void checkEngine(SslContext context, List<String> ciphers) {
        SSLEngine engine = null;
        try {
            engine = context.newEngine(ByteBufAllocator.DEFAULT);
            if (!ciphers.isEmpty() && engine.getEnabledCipherSuites().length == 0) {
                throw new TlsConfigException(SslKeys.CIPHER_SUITES, "none of " + ciphers + " is supported");
            }
        } catch (IllegalArgumentException e) {
            if (e instanceof TlsConfigException t) {
                throw t;
            }
            throw new TlsConfigException(ciphers.isEmpty() ? SslKeys.ENABLED_PROTOCOLS : SslKeys.CIPHER_SUITES,
                rootMessage(e), e);
        } finally {
            if (engine != null) {
                ReferenceCountUtil.release(engine);
            }
        }
    }

    static InputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII));
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    /** The listener's values, blank treated as absent (Kafka's empty default of a password). */
    record Values(Map<String, String> map) {
        String get(String key) {
            String v = map.get(key);
            return v == null || v.isBlank() ? null : v.trim();
        }

        String get(String key, String fallback) {
            String v = get(key);
            return v != null ? v : fallback;
        }

        List<String> list(String key, String fallback) {
            String raw = map.containsKey(key) ? map.get(key) : fallback;
            List<String> out = new ArrayList<>();
            for (String part : (raw == null ? "" : raw).split(",")) {
                if (!part.isBlank()) {
                    out.add(part.trim());
                }
            }
            return out;
        }
    }
}
