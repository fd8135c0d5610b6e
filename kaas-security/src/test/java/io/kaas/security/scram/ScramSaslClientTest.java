package io.kaas.security.scram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.security.scram.ScramCredentialCallback;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * kaas's SCRAM client (the inter-broker side) against Kafka's own SCRAM server (kafka-clients) and kaas's, and
 * against servers that lie: a nonce that does not extend the client's, iterations outside Kafka's bounds, a wrong
 * server signature, an error message.
 */
class ScramSaslClientTest {

    private static org.apache.kafka.common.security.scram.internals.ScramMechanism kafka(ScramMechanism m) {
        return org.apache.kafka.common.security.scram.internals.ScramMechanism.forMechanismName(m.mechanismName());
    }

    /** Kafka's server knowing {@code user} with {@code password}. */
    private static SaslServer kafkaServer(ScramMechanism m, String user, String password) throws Exception {
        org.apache.kafka.common.security.scram.ScramCredential credential = new ScramFormatter(kafka(m))
            .generateCredential(password, 4096);
        CallbackHandler handler = callbacks -> {
            String name = null;
            for (Callback cb : callbacks) {
                if (cb instanceof NameCallback n) {
                    name = n.getDefaultName();
                } else if (cb instanceof ScramCredentialCallback c && user.equals(name)) {
                    c.scramCredential(credential);
                }
            }
        };
        return new org.apache.kafka.common.security.scram.internals.ScramSaslServer(kafka(m), Map.of(), handler);
    }

    private static void exchange(ScramSaslClient client, SaslServer server) throws Exception {
        byte[] token = client.evaluateChallenge(new byte[0]);
        while (!server.isComplete()) {
            byte[] challenge = server.evaluateResponse(token);
            token = client.evaluateChallenge(challenge);
        }
        assertThat(token).isNull();
        assertThat(client.isComplete()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(ScramMechanism.class)
    void authenticatesToKafkasServerAndToKaas(ScramMechanism m) throws Exception {
        SaslServer kafkaServer = kafkaServer(m, "broker,one=", "pässword");
        exchange(new ScramSaslClient(m, "broker,one=", "pässword"), kafkaServer);
        assertThat(kafkaServer.getAuthorizationID()).isEqualTo("broker,one=");

        ScramCredential credential = ScramCredentials.fromPassword(m, "secret", ScramCredentials.randomSalt(m), 8192);
        SaslServer kaasServer = new ScramSaslServerFactory(m, (user, mech) ->
            user.equals("broker") ? Optional.of(credential) : Optional.empty()).newServer();
        exchange(new ScramSaslClient(m, "broker", "secret"), kaasServer);
        assertThat(kaasServer.getAuthorizationID()).isEqualTo("broker");
    }

    @Test
    void aWrongPasswordIsRefusedByTheServer() throws Exception {
        SaslServer server = kafkaServer(ScramMechanism.SCRAM_SHA_256, "broker", "right");
        ScramSaslClient client = new ScramSaslClient(ScramMechanism.SCRAM_SHA_256, "broker", "wrong");
        byte[] serverFirst = server.evaluateResponse(client.evaluateChallenge(new byte[0]));
        byte[] clientFinal = client.evaluateChallenge(serverFirst);
        assertThatThrownBy(() -> server.evaluateResponse(clientFinal)).isInstanceOf(SaslException.class);
        assertThat(client.isComplete()).isFalse();
    }

    /** The client's nonce, from its first message. */
    private static String nonce(byte[] first) {
        String s = new String(first, StandardCharsets.UTF_8);
        return s.substring(s.indexOf(",r=") + 3);
    }

    private static String salt() {
        return Base64.getEncoder().encodeToString(new byte[32]);
    }

    @Test
    void refusesAServerThatDoesNotFollowTheProtocol() throws Exception {
        ScramSaslClient c1 = new ScramSaslClient(ScramMechanism.SCRAM_SHA_512, "broker", "pw");
        c1.evaluateChallenge(new byte[0]);
        assertThatThrownBy(() -> c1.evaluateChallenge(("r=someoneelse,s=" + salt() + ",i=4096")
            .getBytes(StandardCharsets.UTF_8))).isInstanceOf(SaslException.class)
            .hasMessageContaining("does not extend the client's");

        ScramSaslClient c2 = new ScramSaslClient(ScramMechanism.SCRAM_SHA_512, "broker", "pw");
        String n2 = nonce(c2.evaluateChallenge(new byte[0]));
        assertThatThrownBy(() -> c2.evaluateChallenge(("r=" + n2 + "srv,s=" + salt() + ",i=1")
            .getBytes(StandardCharsets.UTF_8))).isInstanceOf(SaslException.class).hasMessageContaining("1 iterations");

        ScramSaslClient c3 = new ScramSaslClient(ScramMechanism.SCRAM_SHA_512, "broker", "pw");
        String n3 = nonce(c3.evaluateChallenge(new byte[0]));
        c3.evaluateChallenge(("r=" + n3 + "srv,s=" + salt() + ",i=4096").getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> c3.evaluateChallenge(("v=" + Base64.getEncoder().encodeToString(new byte[64]))
            .getBytes(StandardCharsets.UTF_8))).isInstanceOf(SaslException.class)
            .hasMessageContaining("server's signature is wrong");
        assertThat(c3.isComplete()).isFalse();

        ScramSaslClient c4 = new ScramSaslClient(ScramMechanism.SCRAM_SHA_512, "broker", "pw");
        c4.evaluateChallenge(new byte[0]);
        assertThatThrownBy(() -> c4.evaluateChallenge("e=unknown-user".getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(SaslException.class).hasMessageContaining("unknown-user");
        assertThatThrownBy(() -> c4.evaluateChallenge(new byte[0])).isInstanceOf(SaslException.class);

        ScramSaslClient c5 = new ScramSaslClient(ScramMechanism.SCRAM_SHA_512, "broker", "pw");
        c5.evaluateChallenge(new byte[0]);
        assertThatThrownBy(() -> c5.evaluateChallenge("garbage".getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(SaslException.class).hasMessageContaining("expected r=<nonce>");
    }
}
