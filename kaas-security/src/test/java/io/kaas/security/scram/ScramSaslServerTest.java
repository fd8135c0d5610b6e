package io.kaas.security.scram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.security.scram.ScramExtensionsCallback;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The SCRAM server against Kafka's own SCRAM client (kafka-clients), and against hand-made bad messages. */
class ScramSaslServerTest {

    private final Map<String, ScramCredential> store = new HashMap<>();
    private final ScramCredentialLookup lookup = (user, mechanism) -> Optional.ofNullable(store.get(mechanism + "/" + user));

    private void addUser(ScramMechanism mechanism, String user, String password, int iterations) {
        store.put(mechanism + "/" + user,
                ScramCredentials.fromPassword(mechanism, password, ScramCredentials.randomSalt(mechanism), iterations));
    }

    private static CallbackHandler login(String user, String password, Map<String, String> extensions) {
        return callbacks -> {
            for (Callback cb : callbacks) {
                if (cb instanceof NameCallback n) {
                    n.setName(user);
                } else if (cb instanceof PasswordCallback p) {
                    p.setPassword(password.toCharArray());
                } else if (cb instanceof ScramExtensionsCallback e) {
                    e.extensions(extensions);
                } else {
                    throw new UnsupportedCallbackException(cb);
                }
            }
        };
    }

    private static org.apache.kafka.common.security.scram.internals.ScramMechanism kafka(ScramMechanism m) {
        return org.apache.kafka.common.security.scram.internals.ScramMechanism.forMechanismName(m.mechanismName());
    }

    /** Runs Kafka's client against {@code server} to the end; the client checks the server signature. */
    private static void exchange(ScramSaslClient client, SaslServer server) throws Exception {
        byte[] token = client.evaluateChallenge(new byte[0]);
        while (!server.isComplete()) {
            byte[] challenge = server.evaluateResponse(token);
            token = client.evaluateChallenge(challenge);
        }
        assertThat(client.isComplete()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(ScramMechanism.class)
    void kafkasClientAuthenticatesAndVerifiesTheServerSignature(ScramMechanism mechanism) throws Exception {
        addUser(mechanism, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(mechanism, lookup).newServer();
        exchange(new ScramSaslClient(kafka(mechanism), login("alice", "alice-secret", Map.of())), server);
        assertThat(server.getAuthorizationID()).isEqualTo("alice");
        assertThat(server.getMechanismName()).isEqualTo(mechanism.mechanismName());
        assertThat(server.getNegotiatedProperty("CREDENTIAL.LIFETIME.MS")).isNull();
    }

    @Test
    void userNamesWithCommasAndEqualsSignsAndNonAsciiPasswords() throws Exception {
        ScramMechanism m = ScramMechanism.SCRAM_SHA_512;
        addUser(m, "a,b=c", "pässwörd-ß", 16384);
        SaslServer server = new ScramSaslServerFactory(m, lookup).newServer();
        exchange(new ScramSaslClient(kafka(m), login("a,b=c", "pässwörd-ß", Map.of())), server);
        assertThat(server.getAuthorizationID()).isEqualTo("a,b=c");
    }

    @Test
    void theDerivationMatchesKafkas() throws Exception {
        for (ScramMechanism m : ScramMechanism.values()) {
            byte[] salt = ScramCredentials.randomSalt(m);
            ScramFormatter kafka = new ScramFormatter(kafka(m));
            var theirs = kafka.generateCredential(salt, kafka.saltedPassword("s3cret", salt, 4096), 4096);
            ScramCredential ours = ScramCredentials.fromPassword(m, "s3cret", salt, 4096);
            assertThat(ours.storedKey()).isEqualTo(theirs.storedKey());
            assertThat(ours.serverKey()).isEqualTo(theirs.serverKey());
            assertThat(ScramCredentials.saltedPassword(m, "s3cret", salt, 4096))
                    .isEqualTo(kafka.saltedPassword("s3cret", salt, 4096));
        }
    }

    @Test
    void aWrongPasswordFailsWithKafkasMessage() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        ScramSaslClient client = new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256), login("alice", "nope", Map.of()));
        byte[] first = server.evaluateResponse(client.evaluateChallenge(new byte[0]));
        byte[] fin = client.evaluateChallenge(first);
        assertThatThrownBy(() -> server.evaluateResponse(fin))
                .isInstanceOf(SaslException.class)
                .hasMessage("Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256");
        assertThat(server.isComplete()).isFalse();
        assertThatThrownBy(server::getAuthorizationID).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> server.evaluateResponse(fin)).isInstanceOf(SaslException.class);
    }

    @Test
    void anUnknownUserLooksLikeAWrongPassword() throws Exception {
        ScramSaslServerFactory factory = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup);
        String[] salts = new String[2];
        for (int i = 0; i < 2; i++) {
            SaslServer server = factory.newServer();
            ScramSaslClient client = new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256), login("mallory", "x", Map.of()));
            String first = new String(server.evaluateResponse(client.evaluateChallenge(new byte[0])), StandardCharsets.UTF_8);
            assertThat(first).matches("r=[!-+\\--~]+,s=[A-Za-z0-9+/=]+,i=4096");
            salts[i] = first.replaceAll(".*,s=([^,]+),.*", "$1");
            byte[] fin = client.evaluateChallenge(first.getBytes(StandardCharsets.UTF_8));
            assertThatThrownBy(() -> server.evaluateResponse(fin))
                    .hasMessage("Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256");
        }
        assertThat(salts[1]).as("the made-up salt is stable per user name").isEqualTo(salts[0]);
        assertThat(Base64.getDecoder().decode(salts[0])).hasSize(32);
    }

    @Test
    void aCredentialOfTheOtherMechanismDoesNotAuthenticate() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_512, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        assertThatThrownBy(() -> exchange(new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256),
                login("alice", "alice-secret", Map.of())), server)).isInstanceOf(SaslException.class);
        assertThat(server.isComplete()).isFalse();
    }

    @Test
    void theDelegationTokenExtensionIsRefused() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        ScramSaslClient client = new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256),
                login("alice", "alice-secret", Map.of("tokenauth", "true")));
        byte[] first = client.evaluateChallenge(new byte[0]);
        assertThat(new String(first, StandardCharsets.UTF_8)).contains("tokenauth=true");
        assertThatThrownBy(() -> server.evaluateResponse(first))
                .hasMessage("Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256");
    }

    @Test
    void otherExtensionsAreIgnored() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        exchange(new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256),
                login("alice", "alice-secret", Map.of("traceid", "abc"))), server);
        assertThat(server.getAuthorizationID()).isEqualTo("alice");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4095, 16385})
    void aStoredCredentialWithIterationsOutsideKafkasBoundsIsRefused(int iterations) throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", iterations);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        assertThatThrownBy(() -> server.evaluateResponse("n,,n=alice,r=abc".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("invalid credentials with SASL mechanism SCRAM-SHA-256");
    }

    @Test
    void anAuthorizationIdOtherThanTheUserIsRefusedWithKafkasMessage() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        assertThatThrownBy(() -> server.evaluateResponse("n,a=admin,n=alice,r=abc".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("Authentication failed: Client requested an authorization id that is different from username");
    }

    @Test
    void anAuthorizationIdEqualToTheUserIsAccepted() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        String first = new String(server.evaluateResponse("n,a=alice,n=alice,r=abc".getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);
        assertThat(first).startsWith("r=abc").contains(",i=4096");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "y,,n=alice,r=abc", "p=tls-unique,,n=alice,r=abc", "n,,", "n,,n=alice", "n,,r=abc,n=alice",
        "n,,n=,r=abc", "n,,n=alice,r=", "n,,n=al=ice,r=abc", "n,,n=alice,r=a b", "n,b=x,n=alice,r=abc",
        "n,,m=ext,n=alice,r=abc", "n,,n=alice,r=abc,=x", "n,,n=alice,r=abc,1=x", "n", "n,,n=alice,r=abc\u0000",
    })
    void malformedClientFirstMessagesAreRefused(String message) {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        assertThatThrownBy(() -> server.evaluateResponse(message.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SaslException.class)
                .hasMessage("Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256");
        assertThat(server.isComplete()).isFalse();
    }

    @Test
    void invalidUtf8IsRefused() {
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        assertThatThrownBy(() -> server.evaluateResponse(new byte[] {'n', ',', ',', 'n', '=', (byte) 0xC3, ',', 'r', '=', 'x'}))
                .isInstanceOf(SaslException.class);
    }

    /** Drives a real exchange to the client final message, then lets {@code tamper} change it. */
    private void assertTamperedFinalRefused(java.util.function.UnaryOperator<String> tamper) throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        ScramSaslClient client = new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256), login("alice", "alice-secret", Map.of()));
        byte[] first = server.evaluateResponse(client.evaluateChallenge(new byte[0]));
        String fin = new String(client.evaluateChallenge(first), StandardCharsets.UTF_8);
        byte[] tampered = tamper.apply(fin).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> server.evaluateResponse(tampered))
                .isInstanceOf(SaslException.class)
                .hasMessage("Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256");
        assertThat(server.isComplete()).isFalse();
    }

    @Test
    void theUntamperedFinalMessageIsAccepted() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        ScramSaslClient client = new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256), login("alice", "alice-secret", Map.of()));
        byte[] first = server.evaluateResponse(client.evaluateChallenge(new byte[0]));
        byte[] fin = client.evaluateChallenge(first);
        assertThat(new String(server.evaluateResponse(fin), StandardCharsets.UTF_8)).startsWith("v=");
        assertThat(server.isComplete()).isTrue();
    }

    /**
     * librdkafka's client final message sends its client nonce once more in front of the exchange's nonce
     * ({@code r=<client nonce><client nonce><server nonce>}); Kafka's server only asks that the nonce end with the
     * exchange's, so kcat logs in against Kafka, and must against kaas. The proof is computed over that message.
     */
    @Test
    void librdkafkasNonceWithTheClientNonceRepeatedIsAcceptedAsKafkaDoes() throws Exception {
        ScramMechanism m = ScramMechanism.SCRAM_SHA_256;
        byte[] salt = ScramCredentials.randomSalt(m);
        store.put(m + "/carol", ScramCredentials.fromPassword(m, "carol-secret", salt, 4096));
        SaslServer server = new ScramSaslServerFactory(m, lookup).newServer();
        String clientNonce = "|7MMkvJ]8He7hxf:=YceEOynA25.<ZT~";
        String bare = "n=carol,r=" + clientNonce;
        String serverFirst = new String(server.evaluateResponse(("n,," + bare).getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);
        String exchangeNonce = serverFirst.substring(2, serverFirst.indexOf(','));
        assertThat(exchangeNonce).startsWith(clientNonce);
        String withoutProof = "c=biws,r=" + clientNonce + exchangeNonce;
        byte[] salted = ScramCredentials.saltedPassword(m, "carol-secret", salt, 4096);
        byte[] clientKey = ScramCredentials.hmac(m, salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
        byte[] authMessage = (bare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] signature = ScramCredentials.hmac(m, ScramCredentials.hash(m, clientKey), authMessage);
        String proof = java.util.Base64.getEncoder().encodeToString(ScramCredentials.xor(clientKey, signature));
        byte[] serverFinal = server.evaluateResponse((withoutProof + ",p=" + proof).getBytes(StandardCharsets.UTF_8));
        byte[] serverKey = ScramCredentials.hmac(m, salted, "Server Key".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(serverFinal, StandardCharsets.UTF_8)).isEqualTo("v="
                + java.util.Base64.getEncoder().encodeToString(ScramCredentials.hmac(m, serverKey, authMessage)));
        assertThat(server.isComplete()).isTrue();
        assertThat(server.getAuthorizationID()).isEqualTo("carol");
    }

    @Test
    void aFailureNamesTheUserTriedForTheBrokersLog() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        ScramSaslClient client = new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256), login("alice", "wrong", Map.of()));
        byte[] first = server.evaluateResponse(client.evaluateChallenge(new byte[0]));
        byte[] fin = client.evaluateChallenge(first);
        assertThatThrownBy(() -> server.evaluateResponse(fin))
                .isInstanceOfSatisfying(io.kaas.security.sasl.SaslAuthenticationFailure.class,
                        f -> assertThat(f.attemptedUser()).isEqualTo("alice"));
    }

    @Test
    void aWrongNonceIsRefused() throws Exception {
        assertTamperedFinalRefused(fin -> fin.replaceFirst(",r=", ",r=x").replaceFirst(",p=", "y,p="));
    }

    @Test
    void aTruncatedNonceIsRefused() throws Exception {
        assertTamperedFinalRefused(fin -> fin.replaceFirst(",r=.", ",r="));
    }

    @Test
    void aWrongProofIsRefused() throws Exception {
        assertTamperedFinalRefused(fin -> {
            int p = fin.indexOf(",p=") + 3;
            char c = fin.charAt(p) == 'A' ? 'B' : 'A';
            return fin.substring(0, p) + c + fin.substring(p + 1);
        });
    }

    @Test
    void aShortProofIsRefused() throws Exception {
        assertTamperedFinalRefused(fin -> fin.substring(0, fin.indexOf(",p=") + 3) + "AAAA");
    }

    @Test
    void aProofThatIsNotBase64IsRefused() throws Exception {
        assertTamperedFinalRefused(fin -> fin + "*");
    }

    @Test
    void aMissingProofIsRefused() throws Exception {
        assertTamperedFinalRefused(fin -> fin.substring(0, fin.indexOf(",p=")));
    }

    @Test
    void aChannelBindingOtherThanTheGs2HeaderIsRefused() throws Exception {
        assertTamperedFinalRefused(fin -> fin.replaceFirst("^c=[^,]*", "c=" + Base64.getEncoder().encodeToString("y,,".getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void aMessageAfterCompletionIsRefused() throws Exception {
        addUser(ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret", 4096);
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_256, lookup).newServer();
        exchange(new ScramSaslClient(kafka(ScramMechanism.SCRAM_SHA_256), login("alice", "alice-secret", Map.of())), server);
        assertThatThrownBy(() -> server.evaluateResponse("n,,n=alice,r=abc".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SaslException.class);
    }

    @Test
    void aLookupThatThrowsFailsTheExchangeWithTheSameMessage() {
        SaslServer server = new ScramSaslServerFactory(ScramMechanism.SCRAM_SHA_512, (u, m) -> {
            throw new IllegalStateException("store is down");
        }).newServer();
        assertThatThrownBy(() -> server.evaluateResponse("n,,n=alice,r=abc".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512");
    }

    @Test
    void factoriesByMechanismName() {
        assertThat(ScramSaslServerFactory.forName("SCRAM-SHA-512", lookup)).get()
                .satisfies(f -> assertThat(f.mechanism()).isEqualTo("SCRAM-SHA-512"))
                .satisfies(f -> assertThat(f.newServer().getMechanismName()).isEqualTo("SCRAM-SHA-512"));
        assertThat(ScramSaslServerFactory.forName("PLAIN", lookup)).isEmpty();
        assertThat(ScramSaslServerFactory.forName("SCRAM-SHA-1", lookup)).isEmpty();
    }

    @Test
    void mechanismsByNameAndWireType() {
        assertThat(ScramMechanism.forName("SCRAM-SHA-256")).contains(ScramMechanism.SCRAM_SHA_256);
        assertThat(ScramMechanism.forName("scram-sha-256")).isEmpty();
        assertThat(ScramMechanism.forType((byte) 2)).contains(ScramMechanism.SCRAM_SHA_512);
        assertThat(ScramMechanism.forType((byte) 0)).isEmpty();
        assertThat(ScramMechanism.SCRAM_SHA_512.acceptsIterations(16384)).isTrue();
        assertThat(ScramMechanism.SCRAM_SHA_512.acceptsIterations(4095)).isFalse();
        assertThat(ScramCredentials.fromPassword(ScramMechanism.SCRAM_SHA_256, "pw", new byte[] {1, 2}, 4096))
                .hasToString("ScramCredential[iterations=4096]");
    }
}
