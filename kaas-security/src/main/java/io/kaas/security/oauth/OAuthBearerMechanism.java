package io.kaas.security.oauth;

import io.kaas.security.sasl.JaasConfig;
import io.kaas.security.sasl.JaasModule;
import io.kaas.security.sasl.MechanismSettings;
import io.kaas.security.sasl.SaslMechanismFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import javax.security.sasl.SaslServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SASL/OAUTHBEARER on one listener, configured with Kafka's broker keys: the JAAS config
 * ({@code listener.name.<l>.oauthbearer.sasl.jaas.config}, Kafka's {@code OAuthBearerLoginModule}), the validator
 * named by {@code listener.name.<l>.oauthbearer.sasl.server.callback.handler.class} (Kafka's
 * {@code OAuthBearerValidatorCallbackHandler}: JWTs checked against {@code sasl.oauthbearer.jwks.endpoint.url};
 * or, only when named, Kafka's unsecured validator, with a WARN at start-up), and the {@code sasl.oauthbearer.*}
 * keys ({@code listener.name.<l>.oauthbearer.} before a key wins, then {@code listener.name.<l>.}, then the
 * broker-wide key). As Kafka 4, the JWKS URL must be listed in the JVM's system property
 * {@value #ALLOWED_URLS_PROPERTY}.
 */
public final class OAuthBearerMechanism implements SaslMechanismFactory, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OAuthBearerMechanism.class);

    public static final String LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
    public static final String CALLBACK_HANDLER_KEY = "sasl.server.callback.handler.class";
    public static final String VALIDATOR_HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler";
    /** Kafka 3.x's name of the same handler. */
    public static final String LEGACY_VALIDATOR_HANDLER =
        "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerValidatorCallbackHandler";
    public static final String UNSECURED_HANDLER =
        "org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredValidatorCallbackHandler";
    public static final String ALLOWED_URLS_PROPERTY = "org.apache.kafka.sasl.oauthbearer.allowed.urls";

    public static final String JWKS_ENDPOINT_URL = "sasl.oauthbearer.jwks.endpoint.url";
    public static final String JWKS_ENDPOINT_REFRESH_MS = "sasl.oauthbearer.jwks.endpoint.refresh.ms";
    public static final String EXPECTED_AUDIENCE = "sasl.oauthbearer.expected.audience";
    public static final String EXPECTED_ISSUER = "sasl.oauthbearer.expected.issuer";
    public static final String SUB_CLAIM_NAME = "sasl.oauthbearer.sub.claim.name";
    public static final String SCOPE_CLAIM_NAME = "sasl.oauthbearer.scope.claim.name";
    public static final String CLOCK_SKEW_SECONDS = "sasl.oauthbearer.clock.skew.seconds";

    private final TokenValidator validator;

    private OAuthBearerMechanism(TokenValidator validator) {
        this.validator = validator;
    }

    /**
     * OAUTHBEARER from {@code settings}.
     *
     * @throws IllegalArgumentException naming the key when the JAAS config, the callback handler, the JWKS URL
     *                                  (missing, malformed, not allowed, an unreadable file) or a number is wrong
     */
    public static OAuthBearerMechanism create(MechanismSettings settings) {
        JaasModule module = JaasConfig.of(settings, LOGIN_MODULE);
        if (!module.loginModule().equals(LOGIN_MODULE)) {
            throw new IllegalArgumentException(settings.describe(JaasConfig.KEY) + ": OAUTHBEARER needs the login module "
                + LOGIN_MODULE + ", not " + module.loginModule());
        }
        String handler = settings.mechanismValue(CALLBACK_HANDLER_KEY);
        String handlerKey = settings.describe(CALLBACK_HANDLER_KEY);
        if (UNSECURED_HANDLER.equals(handler)) {
            LOG.atWarn().addKeyValue("listener", settings.listenerName())
                .log("OAUTHBEARER on listener {} accepts UNSECURED (unsigned) tokens ({}={}): anyone can log in as "
                    + "anyone; for development only", settings.listenerName(), handlerKey, handler);
            return new OAuthBearerMechanism(unsecured(module, settings));
        }
        if (handler != null && !handler.equals(VALIDATOR_HANDLER) && !handler.equals(LEGACY_VALIDATOR_HANDLER)) {
            throw new IllegalArgumentException(handlerKey + ": kaas loads no callback handler classes; use "
                + VALIDATOR_HANDLER + " (tokens checked against " + JWKS_ENDPOINT_URL + ") or, for development only, "
                + UNSECURED_HANDLER + ", not " + handler);
        }
        String url = settings.value(JWKS_ENDPOINT_URL);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(JWKS_ENDPOINT_URL + " is not set for OAUTHBEARER on listener "
                + settings.listenerName() + ": tokens need a JWKS to be checked against (or name " + UNSECURED_HANDLER
                + " in " + handlerKey + ", for development only)");
        }
        URI jwks = jwksUri(url.trim());
        long refreshMs = number(settings, JWKS_ENDPOINT_REFRESH_MS, 3_600_000L, 0);
        int skew = (int) number(settings, CLOCK_SKEW_SECONDS, 30, 0);
        List<String> audiences = list(settings.value(EXPECTED_AUDIENCE));
        String issuer = blankToNull(settings.value(EXPECTED_ISSUER));
        String sub = orDefault(settings.value(SUB_CLAIM_NAME), "sub");
        String scope = orDefault(settings.value(SCOPE_CLAIM_NAME), "scope");
        JwksKeys keys;
        try {
            keys = new JwksKeys(jwks, refreshMs, "https".equalsIgnoreCase(jwks.getScheme()) ? JwksTls.socketFactory(module) : null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(JWKS_ENDPOINT_URL + " (OAUTHBEARER on listener " + settings.listenerName()
                + "): " + e.getMessage(), e);
        }
        LOG.atInfo().addKeyValue("listener", settings.listenerName()).addKeyValue("jwks", jwks)
            .log("OAUTHBEARER on listener {} checks tokens against the JWKS {} (refreshed every {} ms){}{}",
                settings.listenerName(), jwks, refreshMs, audiences.isEmpty() ? "" : ", audience " + audiences,
                issuer == null ? "" : ", issuer " + issuer);
        return new OAuthBearerMechanism(new JwksTokenValidator(keys, skew, audiences, issuer, sub, scope));
    }

    private static TokenValidator unsecured(JaasModule module, MechanismSettings settings) {
        long skewMs;
        String raw = module.option(UnsecuredTokenValidator.CLOCK_SKEW_OPTION);
        try {
            skewMs = raw == null ? 0 : Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            skewMs = -1;
        }
        if (skewMs < 0) {
            throw new IllegalArgumentException(settings.describe(JaasConfig.KEY) + ": option "
                + UnsecuredTokenValidator.CLOCK_SKEW_OPTION + " must be a non-negative number of milliseconds");
        }
        return new UnsecuredTokenValidator(
            orDefault(module.option(UnsecuredTokenValidator.PRINCIPAL_CLAIM_OPTION), "sub"),
            orDefault(module.option(UnsecuredTokenValidator.SCOPE_CLAIM_OPTION), "scope"),
            UnsecuredTokenValidator.parseScope(module.option(UnsecuredTokenValidator.REQUIRED_SCOPE_OPTION)), skewMs);
    }

    /** The JWKS URL, checked as Kafka 4: http, https or an existing file, listed in {@value #ALLOWED_URLS_PROPERTY}. */
    private static URI jwksUri(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(JWKS_ENDPOINT_URL + " contains a URL (" + url + ") that is malformed: "
                + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!Set.of("http", "https", "file").contains(scheme)) {
            throw new IllegalArgumentException(JWKS_ENDPOINT_URL + " contains a URL (" + url + ") with an invalid "
                + "protocol; only \"http\", \"https\", and \"file\" protocol are supported");
        }
        Set<String> allowed = Arrays.stream(System.getProperty(ALLOWED_URLS_PROPERTY, "").split(","))
            .map(String::trim).collect(Collectors.toSet());
        if (!allowed.contains(url)) {
            throw new IllegalArgumentException(JWKS_ENDPOINT_URL + ": The URL cannot be accessed due to restrictions. "
                + "Update the system property '" + ALLOWED_URLS_PROPERTY + "' to allow the URL to be accessed.");
        }
        if (scheme.equals("file")) {
            Path file;
            try {
                file = Path.of(uri);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(JWKS_ENDPOINT_URL + " contains a URL (" + url + ") that is malformed: "
                    + e.getMessage());
            }
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new IllegalArgumentException(JWKS_ENDPOINT_URL + " contains a file (" + file
                    + ") that doesn't exist or cannot be read");
            }
        }
        return uri;
    }

    private static long number(MechanismSettings settings, String key, long fallback, long min) {
        String raw = settings.value(key);
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        long v;
        try {
            v = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " (OAUTHBEARER on listener " + settings.listenerName()
                + "): expected a number, got '" + raw + "'");
        }
        if (v < min || v > Integer.MAX_VALUE && key.equals(CLOCK_SKEW_SECONDS)) {
            throw new IllegalArgumentException(key + " (OAUTHBEARER on listener " + settings.listenerName()
                + "): must be at least " + min + ", got " + v);
        }
        return v;
    }

    private static List<String> list(String raw) {
        return raw == null ? List.of() : Arrays.stream(raw.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static String orDefault(String s, String fallback) {
        return s == null || s.isBlank() ? fallback : s.trim();
    }

    @Override
    public String mechanism() {
        return OAuthBearerSaslServer.MECHANISM;
    }

    @Override
    public SaslServer newServer() {
        return new OAuthBearerSaslServer(validator);
    }

    /** Stops the JWKS refresh. */
    @Override
    public void close() {
        validator.close();
    }
}
