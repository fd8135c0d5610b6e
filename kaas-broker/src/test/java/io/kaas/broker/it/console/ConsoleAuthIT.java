package io.kaas.broker.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console with the acl authorizer: HTTP Basic credentials checked against the SCRAM credentials stored with
 * AlterUserScramCredentials (SCRAM-SHA-256 and -512), 401 without or with wrong ones, and each read and action
 * authorized as the Kafka API it runs: 403 for a user without the ACL (nothing changed), 200/201 with it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsoleAuthIT {

    private static final String RULES = """
        allow User:alice DESCRIBE topic:shared
        allow User:alice READ topic:shared
        allow User:alice WRITE topic:shared
        allow User:alice DESCRIBE_CONFIGS topic:shared
        allow User:carol DESCRIBE topic:shared
        allow User:carol DESCRIBE cluster
        """;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;
    static ConsoleHttp http;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dir).config("super.users", "User:ANONYMOUS")
            .config("auto.create.topics.enable", "false").acl(RULES).start();
        admin = broker.admin();
        admin.alterUserScramCredentials(List.of(
            new UserScramCredentialUpsertion("alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                "alice-secret"),
            new UserScramCredentialUpsertion("bob", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                "bob-secret"),
            new UserScramCredentialUpsertion("carol", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                "carol-secret"))).all().get(20, TimeUnit.SECONDS);
        broker.createTopic("shared", 1);
        http = new ConsoleHttp(broker.broker.adminPort());
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void withoutOrWithWrongCredentialsIs401() throws Exception {
        ConsoleHttp.Reply none = http.get("/api/v1/topics");
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.header("WWW-Authenticate")).startsWith("Basic realm=\"kaas\"");
        assertThat(none.error()).isEqualTo("SASL_AUTHENTICATION_FAILED");
        ConsoleHttp.Reply wrong = http.as("alice", "guess").get("/api/v1/topics");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.message()).isEqualTo("authentication failed for user 'alice' (unknown user or wrong password)");
        assertThat(http.as("mallory", "alice-secret").get("/api/v1/topics").status()).isEqualTo(401);
        ConsoleHttp.Reply action = http.post("/api/v1/topics", Map.of("name", "anon", "partitions", 1));
        assertThat(action.status()).isEqualTo(401);
        assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).doesNotContain("anon");
    }

    @Test
    void readsAreAuthorizedAsTheirKafkaApis() throws Exception {
        ConsoleHttp.Reply alice = http.as("alice", "alice-secret").get("/api/v1/topics/shared");
        assertThat(alice.status()).as(alice.toString()).isEqualTo(200);
        ConsoleHttp.Reply bob = http.as("bob", "bob-secret").get("/api/v1/topics/shared");
        assertThat(bob.status()).as(bob.toString()).isEqualTo(403);
        assertThat(bob.error()).isEqualTo("TOPIC_AUTHORIZATION_FAILED");
        assertThat(bob.message()).isEqualTo("User:bob is not authorized to describe topic 'shared'");
        assertThat(http.as("bob", "bob-secret").get("/api/v1/topics").json().get("topics")).isEmpty();
        assertThat(http.as("alice", "alice-secret").get("/api/v1/topics").json().get("topics").findValuesAsText("name"))
            .containsExactly("shared");

        ConsoleHttp.Reply aliceMessages = http.as("alice", "alice-secret").get("/api/v1/topics/shared/messages");
        assertThat(aliceMessages.status()).as(aliceMessages.toString()).isEqualTo(200);
        ConsoleHttp.Reply carolMessages = http.as("carol", "carol-secret").get("/api/v1/topics/shared/messages");
        assertThat(carolMessages.status()).as("SCRAM-SHA-512 signs in; DESCRIBE is not READ").isEqualTo(403);
        assertThat(carolMessages.error()).isEqualTo("TOPIC_AUTHORIZATION_FAILED");
        assertThat(carolMessages.message()).isEqualTo("User:carol is not authorized to read topic 'shared'");

        assertThat(http.as("alice", "alice-secret").get("/api/v1/overview").json().get("logDirs").isNull())
            .as("DescribeLogDirs needs DESCRIBE on the cluster").isTrue();
        assertThat(http.as("carol", "carol-secret").get("/api/v1/overview").json().get("logDirs").isArray()).isTrue();
    }

    @Test
    void actionsAreAuthorizedAsTheirKafkaApis() throws Exception {
        ConsoleHttp.Reply bob = http.as("bob", "bob-secret").post("/api/v1/topics/shared/messages", Map.of("value", "b"));
        assertThat(bob.status()).as(bob.toString()).isEqualTo(403);
        assertThat(bob.error()).isEqualTo("TOPIC_AUTHORIZATION_FAILED");
        TopicPartition tp = new TopicPartition("shared", 0);
        long before = admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(20, TimeUnit.SECONDS).get(tp).offset();
        ConsoleHttp.Reply alice = http.as("alice", "alice-secret").post("/api/v1/topics/shared/messages",
            Map.of("partition", 0, "value", "a"));
        assertThat(alice.status()).as(alice.toString()).isEqualTo(201);
        assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(20, TimeUnit.SECONDS).get(tp).offset())
            .isEqualTo(before + 1);

        ConsoleHttp.Reply create = http.as("alice", "alice-secret").post("/api/v1/topics",
            Map.of("name", "alices", "partitions", 1));
        assertThat(create.status()).as(create.toString()).isEqualTo(403);
        assertThat(create.error()).isEqualTo("TOPIC_AUTHORIZATION_FAILED");
        ConsoleHttp.Reply configs = http.as("alice", "alice-secret").patch("/api/v1/topics/shared/configs",
            Map.of("set", Map.of("retention.ms", "1000")));
        assertThat(configs.status()).as(configs.toString()).isEqualTo(403);
        ConsoleHttp.Reply trim = http.as("alice", "alice-secret").post("/api/v1/topics/shared/delete-records",
            Map.of("partition", 0, "beforeOffset", 1));
        assertThat(trim.status()).as(trim.toString()).isEqualTo(403);
        assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).doesNotContain("alices");
        assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get(20, TimeUnit.SECONDS).get(tp).offset())
            .isZero();
    }
}
