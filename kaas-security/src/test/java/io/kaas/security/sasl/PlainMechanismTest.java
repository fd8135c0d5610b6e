package io.kaas.security.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.security.sasl.SaslServer;
import org.junit.jupiter.api.Test;

class PlainMechanismTest {

    private static final String JAAS = PlainMechanism.LOGIN_MODULE + " required username=\"admin\" password=\"admin-secret\" "
        + "user_admin=\"admin-secret\" user_alice=\"alice-secret\" user_=\"nobody\";";
    private final PlainMechanism plain = PlainMechanism.create(
        TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of("plain.sasl.jaas.config", JAAS)));

    private static byte[] message(String authzid, String user, String password) {
        return (authzid + "\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theRightPasswordAuthenticatesTheUser() throws Exception {
        SaslServer server = plain.newServer();
        assertThat(server.getMechanismName()).isEqualTo("PLAIN");
        assertThat(server.isComplete()).isFalse();
        assertThat(server.evaluateResponse(message("", "alice", "alice-secret"))).isEmpty();
        assertThat(server.isComplete()).isTrue();
        assertThat(server.getAuthorizationID()).isEqualTo("alice");
        assertThat(server.getNegotiatedProperty(SaslMechanismFactory.CREDENTIAL_LIFETIME_MS)).isNull();
    }

    @Test
    void anAuthorizationIdEqualToTheUserIsAccepted() throws Exception {
        SaslServer server = plain.newServer();
        server.evaluateResponse(message("admin", "admin", "admin-secret"));
        assertThat(server.getAuthorizationID()).isEqualTo("admin");
    }

    @Test
    void aWrongPasswordOrUnknownUserFailsWithKafkasMessage() {
        for (byte[] bad : new byte[][] {message("", "alice", "admin-secret"), message("", "mallory", "alice-secret"),
                message("", "alice", "alice-secret2"), message("", "alice", "alice-secre")}) {
            SaslServer server = plain.newServer();
            assertThatThrownBy(() -> server.evaluateResponse(bad)).isInstanceOf(SaslAuthenticationFailure.class)
                .hasMessage("Authentication failed: Invalid username or password");
            assertThat(server.isComplete()).isFalse();
            assertThatThrownBy(server::getAuthorizationID).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void theFailureNamesTheUserTriedNeverThePassword() {
        try {
            plain.newServer().evaluateResponse(message("", "alice", "guess-1"));
        } catch (Exception e) {
            assertThat(((SaslAuthenticationFailure) e).attemptedUser()).isEqualTo("alice");
            assertThat(e.getMessage()).doesNotContain("guess-1");
            return;
        }
        throw new AssertionError("no failure");
    }

    @Test
    void malformedMessagesFailAsKafkas() {
        assertThatThrownBy(() -> plain.newServer().evaluateResponse(new byte[0]))
            .hasMessage("Invalid SASL/PLAIN response: expected 3 tokens, got 1");
        assertThatThrownBy(() -> plain.newServer().evaluateResponse("alice\0alice-secret".getBytes(StandardCharsets.UTF_8)))
            .hasMessage("Invalid SASL/PLAIN response: expected 3 tokens, got 2");
        assertThatThrownBy(() -> plain.newServer().evaluateResponse(message("", "alice", "alice-secret\0more")))
            .hasMessage("Invalid SASL/PLAIN response: expected 3 tokens, got 4");
        assertThatThrownBy(() -> plain.newServer().evaluateResponse(message("", "", "x")))
            .hasMessage("Authentication failed: username not specified");
        assertThatThrownBy(() -> plain.newServer().evaluateResponse(message("", "alice", "")))
            .hasMessage("Authentication failed: password not specified");
        assertThatThrownBy(() -> plain.newServer().evaluateResponse(message("admin", "alice", "alice-secret")))
            .hasMessage("Authentication failed: Client requested an authorization id that is different from username");
    }

    @Test
    void anEmptyUserNameOptionIsNoUser() {
        assertThat(plain.userNames()).containsExactly("admin", "alice");
        assertThatThrownBy(() -> plain.newServer().evaluateResponse(message("", "", "nobody")))
            .hasMessage("Authentication failed: username not specified");
    }

    @Test
    void aConfigWithoutUsersOrWithAnotherModuleIsRefusedAtStart() {
        assertThatThrownBy(() -> PlainMechanism.create(TestSettings.of("SASL_PLAINTEXT", "PLAIN",
                Map.of("plain.sasl.jaas.config", PlainMechanism.LOGIN_MODULE + " required username=\"a\" password=\"b\";"))))
            .hasMessageContaining("listener.name.sasl_plaintext.plain.sasl.jaas.config: no user_<NAME>");
        assertThatThrownBy(() -> PlainMechanism.create(TestSettings.of("SASL_PLAINTEXT", "PLAIN",
                Map.of("plain.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required user_a=\"b\";"))))
            .hasMessageContaining("PLAIN needs the login module " + PlainMechanism.LOGIN_MODULE);
        assertThatThrownBy(() -> PlainMechanism.create(TestSettings.of("SASL_PLAINTEXT", "PLAIN",
                Map.of("sasl.jaas.config", JAAS))))
            .hasMessageContaining("plain.sasl.jaas.config is not set");
    }
}
