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
            assertThat(AuthenticationGate.admit(s, api, System.nanoTime())).isEqualTo(Verdict.PASS);
        }
    }

    @Test
    void beforeAuthenticationOnlyApiVersionsAndTheHandshakeMayCome() {
        ClientSession s = sasl();
        long now = System.nanoTime();
        assertThat(AuthenticationGate.admit(s, ApiMessageType.API_VERSIONS, now)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_HANDSHAKE, now)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_AUTHENTICATE, now)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, now)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.METADATA, now)).isEqualTo(Verdict.CLOSE);
        s.sasl().begin("PLAIN", null);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_AUTHENTICATE, now)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.API_VERSIONS, now)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.FETCH, now)).isEqualTo(Verdict.CLOSE);
    }

    @Test
    void afterAFailureNothingMoreIsServedAndTheSaslAnswerIsTheLast() {
        ClientSession s = sasl();
        s.sasl().begin("PLAIN", null);
        s.sasl().fail();
        for (ApiMessageType api : ApiMessageType.values()) {
            assertThat(AuthenticationGate.admit(s, api, System.nanoTime())).isEqualTo(Verdict.DROP);
        }
        assertThat(AuthenticationGate.closesAfter(s, ApiMessageType.SASL_AUTHENTICATE)).isTrue();
        assertThat(AuthenticationGate.closesAfter(s, ApiMessageType.SASL_HANDSHAKE)).isTrue();
        assertThat(AuthenticationGate.closesAfter(s, ApiMessageType.PRODUCE)).isFalse();
        assertThat(AuthenticationGate.closesAfter(sasl(), ApiMessageType.SASL_AUTHENTICATE)).isFalse();
    }

    @Test
    void anExpiredSessionMayOnlyReauthenticate() {
        ClientSession s = sasl();
        long now = System.nanoTime();
        s.authenticated(ALICE, now + 1_000_000_000L);
        s.sasl().completed();
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, now)).isEqualTo(Verdict.PASS);
        long later = now + 2_000_000_000L;
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, later)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.API_VERSIONS, later)).isEqualTo(Verdict.CLOSE);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_HANDSHAKE, later)).isEqualTo(Verdict.PASS);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.SASL_AUTHENTICATE, later)).isEqualTo(Verdict.PASS);
        s.authenticated(ALICE, ClientSession.NEVER);
        assertThat(AuthenticationGate.admit(s, ApiMessageType.PRODUCE, Long.MAX_VALUE)).isEqualTo(Verdict.PASS);
    }
}
