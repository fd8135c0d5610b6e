package io.kaas.broker.it.sasl;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.MetadataRequestData;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.SaslAuthenticateRequestData;
import io.kaas.wire.message.SaslAuthenticateResponseData;
import io.kaas.wire.message.SaslHandshakeRequestData;
import io.kaas.wire.message.SaslHandshakeResponseData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.protocol.Errors;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SASL gate on a raw socket: what may come before authentication, the answers to out-of-order SASL
 * requests, the failed-authentication delay, and a session that expires (KIP-368).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SaslGateIT {

    private static final short HANDSHAKE_V = 1;
    private static final short AUTHENTICATE_V = 2;

    @TempDir
    Path dir;

    @Test
    void aProduceBeforeAuthenticationClosesTheConnectionWithOneLine() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start(); LogCapture log = new LogCapture();
             RawClient raw = new RawClient(broker.port())) {
            ApiVersionsResponseData versions = raw.apiVersions((short) 3, 1);
            assertThat(versions.errorCode()).isEqualTo(Errors.NONE);
            assertThat(versions.apiKeys()).filteredOn(k -> k.apiKey() == ApiMessageType.SASL_HANDSHAKE.apiKey())
                .singleElement().satisfies(k -> {
                    // advertised from v0 as Kafka (librdkafka looks for it), served from v1
                    assertThat(k.minVersion()).isEqualTo((short) 0);
                    assertThat(k.maxVersion()).isEqualTo((short) 1);
                });
            raw.send(ApiMessageType.PRODUCE, (short) 9, 2, new ProduceRequestData().setAcks((short) 1).setTimeoutMs(1000));
            assertThat(raw.closedByServer()).isTrue();
            assertThat(log.lines("io.kaas.broker.network.AuthenticationGate", Level.WARN)).singleElement().asString()
                .contains("Produce", "SASL_PLAINTEXT", "127.0.0.1", "not authenticated");
        }
    }

    @Test
    void aLargeRequestBeforeAuthenticationClosesTheConnectionButNotAfter() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of("sasl.server.max.receive.size", "1024")).start()) {
            try (LogCapture log = new LogCapture(); RawClient raw = new RawClient(broker.port())) {
                raw.send(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V, 1, new SaslHandshakeRequestData().setMechanism("P".repeat(2000)));
                assertThat(raw.closedByServer()).isTrue();
                assertThat(log.lines("io.kaas.broker.network.AuthenticationGate", Level.WARN)).singleElement().asString()
                    .contains("sasl.server.max.receive.size (1024)");
            }
            try (RawClient raw = new RawClient(broker.port())) {
                handshake(raw, 1);
                raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 2, plain("alice", "alice-secret"));
                assertThat(raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V).body()
                    .errorCode()).isEqualTo(Errors.NONE);
                MetadataRequestData many = new MetadataRequestData().setAllowAutoTopicCreation(false);
                for (int i = 0; i < 100; i++) {
                    many.topics().add(new MetadataRequestData.MetadataRequestTopic().setName("topic-with-a-long-name-" + i));
                }
                raw.send(ApiMessageType.METADATA, (short) 12, 3, many);
                assertThat(raw.<MetadataResponseData>read(ApiMessageType.METADATA, (short) 12).body().topics()).hasSize(100);
            }
        }
    }

    /** As Kafka's SASL authenticator, which answers the first ApiVersions without KIP-1242's cluster check. */
    @Test
    void anApiVersionsV5BeforeAuthenticationIsNotCheckedAgainstTheCluster() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start(); RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.API_VERSIONS, (short) 5, 1, new ApiVersionsRequestData()
                .setClientSoftwareName("kaas-test").setClientSoftwareVersion("1.0")
                .setClusterId("another-cluster").setNodeId(99));
            ApiVersionsResponseData versions = raw.<ApiVersionsResponseData>read(ApiMessageType.API_VERSIONS, (short) 5)
                .body();
            assertThat(versions.errorCode()).isEqualTo(Errors.NONE);
            assertThat(versions.apiKeys()).isNotEmpty();
        }
    }

    @Test
    void aVersion0HandshakeClosesTheConnection() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start(); RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.SASL_HANDSHAKE, (short) 0, 1, new SaslHandshakeRequestData().setMechanism("PLAIN"));
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void saslAuthenticateBeforeTheHandshakeClosesTheConnection() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start(); RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 1, plain("alice", "alice-secret"));
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void anUnknownMechanismIsAnsweredWithTheEnabledOnesAfterTheDelayThenClosed() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of("connection.failed.authentication.delay.ms", "600")).start();
             RawClient raw = new RawClient(broker.port())) {
            long began = System.nanoTime();
            raw.send(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V, 1, new SaslHandshakeRequestData().setMechanism("GSSAPI"));
            SaslHandshakeResponseData answer = raw.<SaslHandshakeResponseData>read(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V).body();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isGreaterThanOrEqualTo(550);
            assertThat(answer.errorCode()).isEqualTo(Errors.UNSUPPORTED_SASL_MECHANISM);
            assertThat(answer.mechanisms()).containsExactly("PLAIN");
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void aWrongPasswordIsAnsweredAfterTheDelayThenClosed() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of("connection.failed.authentication.delay.ms", "600")).start();
             RawClient raw = new RawClient(broker.port())) {
            handshake(raw, 1);
            long began = System.nanoTime();
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 2, plain("alice", "wrong"));
            // pipelined after the failing token: never answered
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 3, plain("alice", "alice-secret"));
            RawClient.Response<SaslAuthenticateResponseData> response = raw.read(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V);
            assertThat(response.correlationId()).isEqualTo(2);
            SaslAuthenticateResponseData answer = response.body();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isGreaterThanOrEqualTo(550);
            assertThat(answer.errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(answer.errorMessage()).isEqualTo("Authentication failed: Invalid username or password");
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void aRequestOtherThanSaslAuthenticateDuringTheExchangeClosesTheConnection() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start(); RawClient raw = new RawClient(broker.port())) {
            handshake(raw, 1);
            raw.send(ApiMessageType.METADATA, (short) 12, 2, new MetadataRequestData());
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void withoutDelayTheFailureIsAnsweredAtOnce() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of("connection.failed.authentication.delay.ms", "0")).start();
             RawClient raw = new RawClient(broker.port())) {
            handshake(raw, 1);
            long began = System.nanoTime();
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 2, plain("mallory", "x"));
            assertThat(raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V).body()
                .errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(500);
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void anAuthenticatedConnectionIsServedAndRefusesASecondExchangeWithoutExpiry() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start(); RawClient raw = new RawClient(broker.port())) {
            handshake(raw, 1);
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 2, plain("alice", "alice-secret"));
            SaslAuthenticateResponseData ok = raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE,
                AUTHENTICATE_V).body();
            assertThat(ok.errorCode()).isEqualTo(Errors.NONE);
            assertThat(ok.sessionLifetimeMs()).isZero();
            raw.send(ApiMessageType.METADATA, (short) 12, 3, new MetadataRequestData());
            assertThat(raw.<MetadataResponseData>read(ApiMessageType.METADATA, (short) 12).body().brokers()).hasSize(1);
            // no session expiry: no re-authentication, the request handlers' answer, and the connection stays
            raw.send(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V, 4, new SaslHandshakeRequestData().setMechanism("PLAIN"));
            assertThat(raw.<SaslHandshakeResponseData>read(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V).body().errorCode())
                .isEqualTo(Errors.ILLEGAL_SASL_STATE);
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 5, plain("alice", "alice-secret"));
            SaslAuthenticateResponseData again = raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE,
                AUTHENTICATE_V).body();
            assertThat(again.errorCode()).isEqualTo(Errors.ILLEGAL_SASL_STATE);
            assertThat(again.errorMessage()).isEqualTo("SaslAuthenticate request received after successful authentication");
            raw.send(ApiMessageType.METADATA, (short) 12, 6, new MetadataRequestData());
            assertThat(raw.<MetadataResponseData>read(ApiMessageType.METADATA, (short) 12).correlationId()).isEqualTo(6);
        }
    }

    @Test
    void aSessionPastConnectionsMaxReauthMsIsClosedAtItsNextRequest() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of("connections.max.reauth.ms", "700")).start();
             LogCapture log = new LogCapture(); RawClient raw = new RawClient(broker.port())) {
            handshake(raw, 1);
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 2, plain("alice", "alice-secret"));
            SaslAuthenticateResponseData ok = raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE,
                AUTHENTICATE_V).body();
            assertThat(ok.errorCode()).isEqualTo(Errors.NONE);
            assertThat(ok.sessionLifetimeMs()).isEqualTo(700);
            raw.send(ApiMessageType.METADATA, (short) 12, 3, new MetadataRequestData());
            assertThat(raw.<MetadataResponseData>read(ApiMessageType.METADATA, (short) 12).correlationId()).isEqualTo(3);
            Thread.sleep(900);
            raw.send(ApiMessageType.METADATA, (short) 12, 4, new MetadataRequestData());
            assertThat(raw.closedByServer()).isTrue();
            assertThat(log.lines("io.kaas.broker.network.AuthenticationGate", Level.WARN)).singleElement().asString()
                .contains("Metadata", "User:alice", "expired");
        }
    }

    @Test
    void aReauthenticationMustKeepThePrincipal() throws Exception {
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of("connections.max.reauth.ms", "60000",
                "connection.failed.authentication.delay.ms", "0")).start();
             RawClient raw = new RawClient(broker.port())) {
            handshake(raw, 1);
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 2, plain("alice", "alice-secret"));
            assertThat(raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V).body()
                .sessionLifetimeMs()).isEqualTo(60000);
            handshake(raw, 3);
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 4, plain("bob", "bob-secret"));
            SaslAuthenticateResponseData answer = raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE,
                AUTHENTICATE_V).body();
            assertThat(answer.errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(answer.errorMessage()).isEqualTo("Cannot change principals during re-authentication from User.alice: User.bob");
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void saslRequestsOnAPlaintextListenerAreIllegalButHarmless() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).start(); RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V, 1, new SaslHandshakeRequestData().setMechanism("PLAIN"));
            assertThat(raw.<SaslHandshakeResponseData>read(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V).body().errorCode())
                .isEqualTo(Errors.ILLEGAL_SASL_STATE);
            raw.send(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V, 2, plain("alice", "alice-secret"));
            assertThat(raw.<SaslAuthenticateResponseData>read(ApiMessageType.SASL_AUTHENTICATE, AUTHENTICATE_V).body()
                .errorCode()).isEqualTo(Errors.ILLEGAL_SASL_STATE);
            raw.send(ApiMessageType.METADATA, (short) 12, 3, new MetadataRequestData());
            assertThat(raw.<MetadataResponseData>read(ApiMessageType.METADATA, (short) 12).correlationId()).isEqualTo(3);
        }
    }

    private static void handshake(RawClient raw, int correlationId) throws Exception {
        raw.send(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V, correlationId, new SaslHandshakeRequestData().setMechanism("PLAIN"));
        SaslHandshakeResponseData answer = raw.<SaslHandshakeResponseData>read(ApiMessageType.SASL_HANDSHAKE, HANDSHAKE_V).body();
        assertThat(answer.errorCode()).isEqualTo(Errors.NONE);
        assertThat(answer.mechanisms()).isEqualTo(List.of("PLAIN"));
    }

    private static SaslAuthenticateRequestData plain(String user, String password) {
        return new SaslAuthenticateRequestData().setAuthBytes(("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8));
    }
}
