package io.kaas.broker.it.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.SaslAuthenticateRequestData;
import io.kaas.wire.message.SaslAuthenticateResponseData;
import io.kaas.wire.message.SaslHandshakeRequestData;
import io.kaas.wire.message.SaslHandshakeResponseData;
import io.kaas.wire.protocol.Errors;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL/OAUTHBEARER over SASL_PLAINTEXT with the real Java clients: tokens signed in the test (jose4j), read by the
 * client from a file ({@code sasl.oauthbearer.token.endpoint.url=file:...}, Kafka's OAuthBearerLoginCallbackHandler),
 * checked by the broker against a JWKS file.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SaslOAuthBearerIT {

    private static final String ALLOWED_URLS = "org.apache.kafka.sasl.oauthbearer.allowed.urls";
    private static final String LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";

    @TempDir
    Path dir;
    private Tokens idp;
    private String jwksUrl;
    private String tokenUrl;
    private Path tokenFile;

    @BeforeEach
    void identityProvider() throws Exception {
        idp = new Tokens("kid-1");
        jwksUrl = idp.writeJwks(dir.resolve("jwks.json")).toUri().toString();
        tokenFile = dir.resolve("token.jwt");
        tokenUrl = tokenFile.toUri().toString();
        System.setProperty(ALLOWED_URLS, jwksUrl + "," + tokenUrl);
    }

    @AfterEach
    void clear() {
        System.clearProperty(ALLOWED_URLS);
    }

    private TestBroker.Builder broker(Map<String, String> more) {
        return TestBroker.builder(dir)
            .config("listeners", "SASL_PLAINTEXT://127.0.0.1:0")
            .config("sasl.enabled.mechanisms", "OAUTHBEARER")
            .config("listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config", LOGIN_MODULE + " required;")
            .config("listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler")
            .config("listener.name.sasl_plaintext.oauthbearer.sasl.oauthbearer.jwks.endpoint.url", jwksUrl)
            .config("sasl.oauthbearer.expected.audience", "kaas")
            .config("sasl.oauthbearer.expected.issuer", "https://idp.test")
            .config(more);
    }

    /** Kafka's client settings to log in with the token in {@link #tokenFile}. */
    private Map<String, Object> client() {
        Map<String, Object> p = new HashMap<>();
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put(SaslConfigs.SASL_MECHANISM, "OAUTHBEARER");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, LOGIN_MODULE + " required;");
        p.put(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS,
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
        p.put(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, tokenUrl);
        return p;
    }

    @Test
    void producerConsumerAndAdminLogInWithASignedToken() throws Exception {
        Files.writeString(tokenFile, idp.token("svc-orders", 300));
        try (TestBroker broker = broker(Map.of()).start(); LogCapture log = new LogCapture()) {
            try (Admin admin = SaslClients.admin(broker, client())) {
                admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = broker.producer(client())) {
                producer.send(new ProducerRecord<>("orders", 0, "k", "v")).get(20, TimeUnit.SECONDS);
            }
            try (KafkaConsumer<String, String> consumer = broker.consumer(client())) {
                assertThat(TestBroker.readAll(consumer, new TopicPartition("orders", 0), Duration.ofSeconds(20)))
                    .extracting(ConsumerRecord::value).containsExactly("v");
            }
            // the session lasts as long as the token (KIP-368): at most its 300 s
            assertThat(log.lines("io.kaas.broker.handler.sasl.SaslAuthenticateHandler", Level.DEBUG))
                .filteredOn(l -> l.startsWith("Authenticated User:svc-orders with SASL mechanism OAUTHBEARER"))
                .isNotEmpty().allSatisfy(l -> {
                    long lifetime = Long.parseLong(l.replaceAll(".*sessionLifetimeMs=(\\d+).*", "$1"));
                    assertThat(lifetime).isBetween(250_000L, 300_000L);
                });
        }
    }

    @Test
    void aTokenSignedByAnotherKeyIsRefusedWithKafkasJsonError() throws Exception {
        Files.writeString(tokenFile, new Tokens("kid-1").token("mallory", 300));
        try (TestBroker broker = broker(Map.of()).start(); LogCapture log = new LogCapture();
             Admin admin = SaslClients.admin(broker, client())) {
            assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("{\"status\":\"invalid_token\"}");
            String token = Files.readString(tokenFile);
            assertThat(log.lines("io.kaas.broker.handler.sasl.FailedAuthentications", Level.INFO)).isNotEmpty()
                .allSatisfy(l -> assertThat(l).contains("OAUTHBEARER", "127.0.0.1", "invalid_token"));
            assertThat(log.lines()).noneMatch(l -> l.contains(token) || l.contains(token.substring(token.lastIndexOf('.') + 1)));
        }
    }

    @Test
    void anExpiredTokenIsRefusedOnTheWire() throws Exception {
        try (TestBroker broker = broker(Map.of("connection.failed.authentication.delay.ms", "0")).start();
             RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.SASL_HANDSHAKE, (short) 1, 1, new SaslHandshakeRequestData().setMechanism("OAUTHBEARER"));
            assertThat(raw.<SaslHandshakeResponseData>read(ApiMessageType.SASL_HANDSHAKE, (short) 1).body().errorCode())
                .isEqualTo(Errors.NONE);
            String first = "n,,\u0001auth=Bearer " + idp.token("alice", -60) + "\u0001\u0001";
            raw.send(ApiMessageType.SASL_AUTHENTICATE, (short) 2, 2,
                new SaslAuthenticateRequestData().setAuthBytes(first.getBytes(StandardCharsets.UTF_8)));
            SaslAuthenticateResponseData challenge = raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE,
                (short) 2).body();
            assertThat(challenge.errorCode()).isEqualTo(Errors.NONE);
            assertThat(new String(challenge.authBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"invalid_token\"}");
            raw.send(ApiMessageType.SASL_AUTHENTICATE, (short) 2, 3, new SaslAuthenticateRequestData().setAuthBytes(new byte[] {1}));
            SaslAuthenticateResponseData failure = raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE,
                (short) 2).body();
            assertThat(failure.errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(failure.errorMessage()).isEqualTo("{\"status\":\"invalid_token\"}");
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void aMalformedFirstMessageGetsKafkasGenericMessage() throws Exception {
        try (TestBroker broker = broker(Map.of("connection.failed.authentication.delay.ms", "0")).start();
             RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.SASL_HANDSHAKE, (short) 1, 1, new SaslHandshakeRequestData().setMechanism("OAUTHBEARER"));
            raw.read(ApiMessageType.SASL_HANDSHAKE, (short) 1);
            raw.send(ApiMessageType.SASL_AUTHENTICATE, (short) 1, 2,
                new SaslAuthenticateRequestData().setAuthBytes("Bearer xyz".getBytes(StandardCharsets.UTF_8)));
            SaslAuthenticateResponseData failure = raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE,
                (short) 1).body();
            assertThat(failure.errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(failure.errorMessage()).isEqualTo(
                "Authentication failed during authentication due to invalid credentials with SASL mechanism OAUTHBEARER");
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void unsecuredTokensWorkOnlyWithKafkasUnsecuredValidatorNamedAndSayItAtStart() throws Exception {
        Map<String, String> unsecured = new HashMap<>();
        unsecured.put("listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class",
            "org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredValidatorCallbackHandler");
        try (LogCapture log = new LogCapture(); TestBroker broker = broker(unsecured).start()) {
            assertThat(log.lines("io.kaas.security.oauth.OAuthBearerMechanism", Level.WARN)).singleElement().asString()
                .contains("UNSECURED", "SASL_PLAINTEXT");
            Map<String, Object> dev = new HashMap<>();
            dev.put("security.protocol", "SASL_PLAINTEXT");
            dev.put(SaslConfigs.SASL_MECHANISM, "OAUTHBEARER");
            dev.put(SaslConfigs.SASL_JAAS_CONFIG, LOGIN_MODULE + " required unsecuredLoginStringClaim_sub=\"dev\";");
            try (Admin admin = SaslClients.admin(broker, dev)) {
                assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).isEmpty();
            }
        }
    }

    @Test
    void withoutAJwksNorTheUnsecuredValidatorTheStartFailsNamingTheKey() {
        Map<String, String> noJwks = new HashMap<>();
        noJwks.put("listener.name.sasl_plaintext.oauthbearer.sasl.oauthbearer.jwks.endpoint.url", "");
        assertThatThrownBy(() -> broker(noJwks).start()).isInstanceOf(ConfigException.class)
            .hasMessageContaining("sasl.oauthbearer.jwks.endpoint.url is not set");
        System.setProperty(ALLOWED_URLS, tokenUrl);
        assertThatThrownBy(() -> broker(Map.of()).start()).isInstanceOf(ConfigException.class)
            .hasMessageContaining("org.apache.kafka.sasl.oauthbearer.allowed.urls");
    }
}
