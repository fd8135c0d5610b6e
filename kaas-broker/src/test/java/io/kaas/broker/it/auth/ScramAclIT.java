package io.kaas.broker.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.tools.StorageTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole operator's path on a SASL/SCRAM broker with the acl authorizer: the first credentials seeded with
 * {@code kaas-storage.sh format --add-scram} before the first start, a super user managing ACLs with
 * {@code kafka-acls --command-config} over SCRAM, a user allowed by a prefixed ACL, a DENY beating that ALLOW, a
 * topic without any ACL, a wrong password; credentials and ACLs still in force after a restart.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScramAclIT {
    private static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    @TempDir
    Path dir;

    private static Map<String, Object> scram(String mechanism, String user, String password) {
        Map<String, Object> p = new HashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put(SaslConfigs.SASL_MECHANISM, mechanism);
        p.put(SaslConfigs.SASL_JAAS_CONFIG, SCRAM_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";");
        return p;
    }

    private static Admin admin(TestBroker broker, Map<String, Object> security) {
        return broker.admin(security);
    }

    private static void produce(TestBroker broker, Map<String, Object> security, String topic) throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer(security)) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "v")).get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void scramUsersAreAuthorizedByAclsManagedWithKafkaAclsAndBothSurviveARestart() throws Exception {
        Path data = dir.resolve("data");
        Map<String, String> config = Map.of(
            "listeners", "SASL_PLAINTEXT://127.0.0.1:0",
            "sasl.enabled.mechanisms", "SCRAM-SHA-256,SCRAM-SHA-512",
            "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "super.users", "User:admin");
        Path properties = dir.resolve("server.properties");
        StringBuilder text = new StringBuilder("node.id=1\nlog.dirs=" + data + "\n");
        config.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(properties, text);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int formatted = StorageTool.run(new String[] {"format", "--config", properties.toString(),
            "--add-scram", "SCRAM-SHA-512=[name=admin,password=admin-secret]",
            "--add-scram", "SCRAM-SHA-256=[name=carol,iterations=8192,password=carol-secret]"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(formatted).as(out.toString(StandardCharsets.UTF_8)).isZero();

        Map<String, Object> admin = scram("SCRAM-SHA-512", "admin", "admin-secret");
        Map<String, Object> carol = scram("SCRAM-SHA-256", "carol", "carol-secret");
        Path adminClientConfig = dir.resolve("admin.properties");
        StringBuilder adminText = new StringBuilder();
        admin.forEach((k, v) -> adminText.append(k).append('=').append(v).append('\n'));
        Files.writeString(adminClientConfig, adminText);

        TestBroker.Builder builder = TestBroker.builder(dir).dataDir(data).config(config);
        try (TestBroker broker = builder.start()) {
            KafkaAclsTool.Run allow = KafkaAclsTool.run(broker.bootstrap(), "--command-config", adminClientConfig.toString(),
                "--add", "--allow-principal", "User:carol", "--producer", "--topic", "carol-",
                "--resource-pattern-type", "prefixed");
            assertThat(allow.exitCode()).as(allow.out()).isZero();
            KafkaAclsTool.Run deny = KafkaAclsTool.run(broker.bootstrap(), "--command-config", adminClientConfig.toString(),
                "--add", "--deny-principal", "User:carol", "--operation", "Write", "--topic", "carol-secret");
            assertThat(deny.exitCode()).as(deny.out()).isZero();
            try (Admin a = admin(broker, admin)) {
                a.createTopics(List.of(new NewTopic("carol-a", 1, (short) 1), new NewTopic("carol-secret", 1, (short) 1),
                    new NewTopic("other", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }

            produce(broker, carol, "carol-a");
            assertThatThrownBy(() -> produce(broker, carol, "carol-secret"))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> produce(broker, carol, "other"))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
            try (Admin wrong = admin(broker, scram("SCRAM-SHA-256", "carol", "not-carols"))) {
                assertThatThrownBy(() -> wrong.listTopics().names().get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SaslAuthenticationException.class);
            }

            try (TestBroker again = broker.restart()) {
                produce(again, carol, "carol-a");
                assertThatThrownBy(() -> produce(again, carol, "carol-secret"))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
                KafkaAclsTool.Run list = KafkaAclsTool.run(again.bootstrap(), "--command-config",
                    adminClientConfig.toString(), "--list", "--principal", "User:carol");
                assertThat(list.exitCode()).as(list.out()).isZero();
                assertThat(list.out()).contains("name=carol-, patternType=PREFIXED")
                    .contains("name=carol-secret, patternType=LITERAL").contains("operation=WRITE, permissionType=DENY");
                try (Admin a = admin(again, admin)) {
                    assertThat(a.describeUserScramCredentials().all().get(20, TimeUnit.SECONDS))
                        .containsOnlyKeys("admin", "carol");
                }
            }
        }
    }
}
