package io.kaas.security.oauth;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jose4j.jwk.HttpsJwks;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwx.JsonWebStructure;
import org.jose4j.keys.resolvers.JwksVerificationKeyResolver;
import org.jose4j.keys.resolvers.VerificationKeyResolver;
import org.jose4j.lang.JoseException;
import org.jose4j.lang.UnresolvableKeyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verification keys of a JWKS ({@code sasl.oauthbearer.jwks.endpoint.url}), as Kafka's broker keeps them:
 * loaded at start, reloaded every {@code sasl.oauthbearer.jwks.endpoint.refresh.ms} on a thread of its own (a
 * failed reload keeps the previous keys and logs a WARN), and, for an {@code https:} endpoint, fetched again at
 * once (at most once a second) when a token names a key id not in the set. Thread-safe.
 */
final class JwksKeys implements VerificationKeyResolver, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JwksKeys.class);
    private static final long MIN_ON_DEMAND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final URI url;
    private final Path file;
    private final HttpsJwks https;
    private final ScheduledExecutorService refresher;
    private volatile List<JsonWebKey> keys;
    private volatile JwksVerificationKeyResolver resolver;
    private long lastOnDemandNanos;

    /**
     * Loads the JWKS at {@code url} ({@code file:} or {@code https:}).
     *
     * @param refreshMs how often it is reloaded; 0 or less: never
     * @throws IllegalArgumentException if a {@code file:} JWKS cannot be read or parsed (an {@code https:} one
     *                                  that cannot be fetched now is logged and retried at each refresh)
     */
    JwksKeys(URI url, long refreshMs) {
        this(url, refreshMs, null);
    }

    /** As {@link #JwksKeys(URI, long)}, an {@code https:} endpoint trusted through {@code tls} (null: the JVM's trust). */
    JwksKeys(URI url, long refreshMs, javax.net.ssl.SSLSocketFactory tls) {
        this.url = url;
        if ("file".equalsIgnoreCase(url.getScheme())) {
            this.file = Path.of(url);
            this.https = null;
        } else {
            this.file = null;
            this.https = new HttpsJwks(url.toString());
            // this class limits the fetches itself (refresh interval, at most one on-demand fetch a second)
            https.setRefreshReprieveThreshold(0);
            if (tls != null) {
                org.jose4j.http.Get get = new org.jose4j.http.Get();
                get.setSslSocketFactory(tls);
                https.setSimpleHttpGet(get);
            }
        }
        try {
            load();
        } catch (IOException | JoseException e) {
            if (file != null) {
                throw new IllegalArgumentException("cannot load the JWKS " + url + ": " + e.getMessage(), e);
            }
            LOG.atWarn().addKeyValue("url", url).log("cannot fetch the JWKS {} yet (every token fails until it is): {}",
                url, e.getMessage());
            keys = List.of();
            resolver = new JwksVerificationKeyResolver(List.of());
        }
        if (refreshMs > 0) {
            refresher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "kaas-jwks-refresh");
                t.setDaemon(true);
                return t;
            });
            refresher.scheduleWithFixedDelay(this::refresh, refreshMs, refreshMs, TimeUnit.MILLISECONDS);
        } else {
            refresher = null;
        }
    }

    private void load() throws IOException, JoseException {
        List<JsonWebKey> loaded;
        if (file != null) {
            loaded = new JsonWebKeySet(Files.readString(file)).getJsonWebKeys();
        } else {
            https.refresh();
            loaded = https.getJsonWebKeys();
        }
        keys = List.copyOf(loaded);
        resolver = new JwksVerificationKeyResolver(keys);
        LOG.atDebug().addKeyValue("url", url).log("loaded {} keys from the JWKS {}", loaded.size(), url);
    }

    /** Reloads now; a failure keeps the previous keys. */
    void refresh() {
        try {
            load();
        } catch (IOException | JoseException | RuntimeException e) {
            LOG.atWarn().addKeyValue("url", url).log("cannot reload the JWKS {} (keeping the {} keys loaded): {}", url,
                keys.size(), e.getMessage());
        }
    }

    @Override
    public Key resolveKey(JsonWebSignature jws, List<JsonWebStructure> nestingContext) throws UnresolvableKeyException {
        try {
            return resolver.resolveKey(jws, nestingContext);
        } catch (UnresolvableKeyException e) {
            if (https == null || !mayFetchOnDemand()) {
                throw e;
            }
            refresh();
            return resolver.resolveKey(jws, nestingContext);
        }
    }

    private synchronized boolean mayFetchOnDemand() {
        long now = System.nanoTime();
        if (lastOnDemandNanos != 0 && now - lastOnDemandNanos < MIN_ON_DEMAND_NANOS) {
            return false;
        }
        lastOnDemandNanos = now;
        return true;
    }

    @Override
    public void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }
}
