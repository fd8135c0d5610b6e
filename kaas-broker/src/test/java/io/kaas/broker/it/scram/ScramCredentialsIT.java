package io.kaas.broker.it.scram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.auth.StoredScramCredentials;
import io.kaas.broker.it.TestBroker;
import io.kaas.security.scram.ScramSaslServerFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.DuplicateResourceException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.UnacceptableCredentialException;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCRAM credentials managed with the Java Admin (describe/alterUserScramCredentials) against a running
 * broker: Kafka's errors per user, the password never stored, the stored credential accepted by Kafka's own
 * SCRAM client against the broker's SCRAM server, and credentials surviving a restart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ScramCredentialsIT {
    @TempDir
    Path dir;

    private static final ScramCredentialInfo SHA256_8192 = new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192);
    private static final ScramCredentialInfo SHA512_4096 = new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096);

    @Test
    void credentialsAreUpsertedDescribedAuthenticatedDeletedAndSurviveARestart() throws Exception {
        TestBroker.Builder builder = TestBroker.builder(dir);
        try (TestBroker broker = builder.start(); Admin admin = broker.admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice", SHA256_8192, "alice-secret"),
                    new UserScramCredentialUpsertion("bob", SHA512_4096, "bob-secret")))
                    .all().get(20, TimeUnit.SECONDS);
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice", SHA512_4096, "alice-512")))
                    .all().get(20, TimeUnit.SECONDS);

            Map<String, UserScramCredentialsDescription> all = admin.describeUserScramCredentials().all().get(20, TimeUnit.SECONDS);
            assertThat(all).containsOnlyKeys("alice", "bob");
            assertThat(all.get("alice").credentialInfos()).containsExactlyInAnyOrder(SHA256_8192, SHA512_4096);
            assertThat(all.get("bob").credentialInfos()).containsExactly(SHA512_4096);

            // The broker derived the keys from the salted password the Admin sent: Kafka's client logs in with the password.
            authenticates(broker, org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256,
                    "alice", "alice-secret");
            authenticates(broker, org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_512,
                    "alice", "alice-512");
            assertThatThrownBy(() -> authenticates(broker,
                    org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256, "alice", "alice-512"))
                    .isInstanceOf(SaslException.class).hasMessageContaining("invalid credentials");
            assertThat(broker.broker.clusterStore().scramCredentials().toString())
                    .doesNotContain("alice-secret").contains("iterations=8192");

            admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("bob", ScramMechanism.SCRAM_SHA_512)))
                    .all().get(20, TimeUnit.SECONDS);
            assertThat(admin.describeUserScramCredentials().all().get(20, TimeUnit.SECONDS)).containsOnlyKeys("alice");
        }
        try (TestBroker broker = builder.start(); Admin admin = broker.admin()) {
            Map<String, UserScramCredentialsDescription> all = admin.describeUserScramCredentials().all().get(20, TimeUnit.SECONDS);
            assertThat(all).containsOnlyKeys("alice");
            assertThat(all.get("alice").credentialInfos()).containsExactlyInAnyOrder(SHA256_8192, SHA512_4096);
            authenticates(broker, org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256,
                    "alice", "alice-secret");
        }
    }

    @Test
    void eachUserIsAnsweredOnItsOwnWithKafkasErrors() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).start(); Admin admin = broker.admin()) {
            var result = admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("ok", SHA256_8192, "pw"),
                    new UserScramCredentialUpsertion("few", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4095), "pw"),
                    new UserScramCredentialUpsertion("many", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 16385), "pw"),
                    new UserScramCredentialUpsertion("twice", SHA256_8192, "pw"),
                    new UserScramCredentialUpsertion("twice", SHA512_4096, "pw"),
                    new UserScramCredentialDeletion("ghost", ScramMechanism.SCRAM_SHA_256)));
            result.values().get("ok").get(20, TimeUnit.SECONDS);
            assertThat(cause(result.values().get("few"))).isInstanceOf(UnacceptableCredentialException.class)
                    .hasMessage("Too few iterations");
            assertThat(cause(result.values().get("many"))).isInstanceOf(UnacceptableCredentialException.class)
                    .hasMessage("Too many iterations");
            assertThat(cause(result.values().get("twice"))).isInstanceOf(DuplicateResourceException.class)
                    .hasMessage("A user credential cannot be altered twice in the same request");
            assertThat(cause(result.values().get("ghost"))).isInstanceOf(ResourceNotFoundException.class)
                    .hasMessage("Attempt to delete a user credential that does not exist");

            var described = admin.describeUserScramCredentials(List.of("ok", "nobody"));
            assertThat(described.description("ok").get(20, TimeUnit.SECONDS).credentialInfos()).containsExactly(SHA256_8192);
            assertThat(cause(described.description("nobody"))).isInstanceOf(ResourceNotFoundException.class)
                    .hasMessage("Attempt to describe a user credential that does not exist: nobody");
            assertThat(cause(admin.describeUserScramCredentials(List.of("ok", "ok")).description("ok")))
                    .isInstanceOf(DuplicateResourceException.class)
                    .hasMessage("Cannot describe SCRAM credentials for the same user twice in a single request: ok");
            assertThat(admin.describeUserScramCredentials().all().get(20, TimeUnit.SECONDS)).containsOnlyKeys("ok");
        }
    }

    @Test
    void withoutDescribeAndAlterOnTheClusterBothAreClusterAuthorizationFailed() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).acl("allow * DESCRIBE topic:t\n").start(); Admin admin = broker.admin()) {
            assertThat(cause(admin.describeUserScramCredentials().all())).isInstanceOf(ClusterAuthorizationException.class);
            assertThat(cause(admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice", SHA256_8192,
                    "pw"))).all())).isInstanceOf(ClusterAuthorizationException.class);
            assertThat(broker.broker.clusterStore().scramCredentials()).isEmpty();
        }
    }

    @Test
    void describeAndAlterOnTheClusterAreEnough() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).acl("allow * ALTER cluster\nallow * DESCRIBE cluster\n").start();
             Admin admin = broker.admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice", SHA256_8192, "pw")))
                    .all().get(20, TimeUnit.SECONDS);
            assertThat(admin.describeUserScramCredentials().all().get(20, TimeUnit.SECONDS)).containsOnlyKeys("alice");
        }
    }

    private static Throwable cause(org.apache.kafka.common.KafkaFuture<?> future) {
        try {
            future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("expected the future to fail");
    }

    /** Kafka's SCRAM client against the broker's SCRAM server over the broker's stored credentials. */
    static void authenticates(TestBroker broker, org.apache.kafka.common.security.scram.internals.ScramMechanism mechanism,
                              String user, String password) throws Exception {
        SaslServer server = new ScramSaslServerFactory(io.kaas.security.scram.ScramMechanism.forName(mechanism.mechanismName())
                .orElseThrow(), new StoredScramCredentials(broker.broker.clusterStore())).newServer();
        ScramSaslClient client = new ScramSaslClient(mechanism, callbacks -> {
            for (Callback cb : callbacks) {
                if (cb instanceof NameCallback n) {
                    n.setName(user);
                } else if (cb instanceof PasswordCallback p) {
                    p.setPassword(password.toCharArray());
                } else {
                    throw new UnsupportedCallbackException(cb);
                }
            }
        });
        byte[] token = client.evaluateChallenge(new byte[0]);
        while (!server.isComplete()) {
            token = client.evaluateChallenge(server.evaluateResponse(token));
        }
        assertThat(client.isComplete()).isTrue();
        assertThat(server.getAuthorizationID()).isEqualTo(user);
    }
}
