package io.kaas.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.network.AuthenticationGate.Verdict;
import io.kaas.wire.message.ApiMessageType;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class AuthenticationGateTest {

    private static final KafkaPrincipal ALICE = new KafkaPrincipal("User", "alice");

    private static ClientSession sasl() {
        return new ClientSession("SASL_PLAINTEXT", "SASL_PLAINTEXT", new InetSocketAddress("127.0.0.1", 5000), false);
    }

    @Test
    void aPlaintextSessionPassesEverything() {
        ClientSession s = ClientSession.plaintext("PLAINTEXT", null);
        for (ApiMessageType api : ApiMessageType.values()) {
            assertThat(AuthenticationGate.admit(s, api, 100, 1000, System.nanoTime())).isEqualTo(Verdict.PASS);
        }
    }

    @Test
    void beforeAuthenticationOnlyApiVersionsAndTheHandshakeMayCome() {
        ClientSession s = sasl();
        long now = System.nanoTime();
        assertThat(AuthenticationGate.admit(s, ApiMessageType.API_VERSIONS, 100, 1000, now)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_HANDSHAKE, 100, 1000, now)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_AUTHENTICATE, 100, 1000, now)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, 100, 1000, now)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.METADATA, 100, 1000, now)).isEqualTo(Verdict.CLOSE);
        s.sasl().begin("PLAIN", null);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_AUTHENTICATE, 100, 1000, now)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.API_VERSIONS, 100, 1000, now)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.FETCH, 100, 1000, now)).isEqualTo(Verdict.CLOSE);
    }

    @Test
    void afterAFailureNothingMoreIsServedAndTheSaslAnswerIsTheLast() {
        ClientSession s = sasl();
        s.sasl().begin("PLAIN", null);
        s.sasl().fail();
        for (ApiMessageType api : ApiMessageType.values()) {
            assertThat(AuthenticationGate.admit(s, api, 100, 1000, System.nanoTime())).isEqualTo(Verdict.DROP);
        }
        assertThat(AuthenticationGate.closesAfter(s, ApiMessageType.SASL_AUTHENTICATE)).isTrue();
        assertThat(AuthenticationGate.closesAfter(s, ApiMessageType.SASL_HANDSHAKE)).isTrue();
        assertThat(AuthenticationGate.closesAfter(s, ApiMessageType.PRODUCE)).isFalse();
        assertThat(AuthenticationGate.closesAfter(sasl(), ApiMessageType.SASL_AUTHENTICATE)).isFalse();
    }

    @Test
    void beforeTheFirstAuthenticationLargeRequestsCloseTheConnection() {
        ClientSession s = sasl();
        long now = System.nanoTime();
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_HANDSHAKE, 1000, 1000, now)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_HANDSHAKE, 1001, 1000, now)).isEqualTo(Verdict.CLOSE);
        s.sasl().begin("PLAIN", null);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_AUTHENTICATE, 5000, 1000, now)).isEqualTo(Verdict.CLOSE);
        s.authenticated(ALICE, ClientSession.NEVER);
        s.sasl().completed();
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, 5_000_000, 1000, now)).isEqualTo(Verdict.PASS);
    }

    @Test
    void anExpiredSessionMayOnlyReauthenticate() {
        ClientSession s = sasl();
        long now = System.nanoTime();
        s.authenticated(ALICE, now + 1_000_000_000L);
        s.sasl().completed();
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, 100, 1000, now)).isEqualTo(Verdict.PASS);
        long later = now + 2_000_000_000L;
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, 100, 1000, later)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.API_VERSIONS, 100, 1000, later)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_HANDSHAKE, 100, 1000, later)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_AUTHENTICATE, 100, 1000, later)).isEqualTo(Verdict.PASS);
        s.authenticated(ALICE, ClientSession.NEVER);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, 100, 1000, Long.MAX_VALUE)).isEqualTo(Verdict.PASS);
    }
}
