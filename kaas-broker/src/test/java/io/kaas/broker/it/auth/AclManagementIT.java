package io.kaas.broker.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.TestBroker;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteAclsResult;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACLs managed with Kafka's tools against a broker that selects the built-in authorizer by Kafka's class name:
 * {@code kafka-acls} (the real tool class) and the Java Admin create, list and remove them, and the real
 * producer and consumer feel them at once. Every PLAINTEXT client is {@code User:ANONYMOUS}; the rules file only
 * seeds its right to manage ACLs (ALTER and DESCRIBE on the cluster) and to create topics; no super user.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class AclManagementIT {
    private static final String ADMIN_RIGHTS = """
            allow User:ANONYMOUS ALTER cluster
            allow User:ANONYMOUS DESCRIBE cluster
            allow User:ANONYMOUS CREATE cluster
            """;
    private static final AclBindingFilter ALL = AclBindingFilter.ANY;

    @TempDir
    Path dir;

    private TestBroker.Builder broker(String rules) throws IOException {
        return TestBroker.builder(dir).pluginsDir(dir.resolve("no-plugins")).acl(rules)
                .config("authorizer", "")
                .config("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    }

    private static KafkaAclsTool.Run acls(TestBroker broker, String... args) {
        KafkaAclsTool.Run run = KafkaAclsTool.run(broker.bootstrap(), args);
        assertThat(run.exitCode()).as(run.out()).isZero();
        return run;
    }

    private static KafkaProducer<String, String> plainProducer(TestBroker broker) {
        return broker.producer(Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000));
    }

    private static void send(KafkaProducer<String, String> producer, String topic) throws Exception {
        producer.send(new ProducerRecord<>(topic, 0, "k", "v")).get(20, TimeUnit.SECONDS);
    }

    private static void sendIsDenied(KafkaProducer<String, String> producer, String topic) {
        assertThatThrownBy(() -> send(producer, topic)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void kafkaAclsAddsListsAndRemovesAclsAndTheProducerFeelsEachChange() throws Exception {
        try (TestBroker broker = broker(ADMIN_RIGHTS).start()) {
            broker.createTopic("orders", 1);
            try (KafkaProducer<String, String> producer = plainProducer(broker)) {
                sendIsDenied(producer, "orders");

                acls(broker, "--add", "--allow-principal", "User:ANONYMOUS", "--operation", "Write", "--topic", "orders");
                send(producer, "orders");

                KafkaAclsTool.Run list = acls(broker, "--list", "--topic", "orders");
                assertThat(list.out()).contains("Current ACLs for resource `ResourcePattern(resourceType=TOPIC, "
                        + "name=orders, patternType=LITERAL)`:")
                        .contains("(principal=User:ANONYMOUS, host=*, operation=WRITE, permissionType=ALLOW)");

                acls(broker, "--add", "--deny-principal", "User:ANONYMOUS", "--operation", "Write", "--topic", "orders");
                sendIsDenied(producer, "orders");

                acls(broker, "--remove", "--force", "--deny-principal", "User:ANONYMOUS", "--operation", "Write",
                        "--topic", "orders");
                send(producer, "orders");

                acls(broker, "--remove", "--force", "--topic", "orders");
                assertThat(acls(broker, "--list", "--topic", "orders").out()).doesNotContain("User:ANONYMOUS");
                sendIsDenied(producer, "orders");
            }
        }
    }

    @Test
    void prefixedProducerAndConsumerConveniencesAndAHostOfAnotherClient() throws Exception {
        try (TestBroker broker = broker(ADMIN_RIGHTS).start()) {
            broker.createTopic("app-events", 1);
            broker.createTopic("other", 1);
            acls(broker, "--add", "--allow-principal", "User:ANONYMOUS", "--producer", "--topic", "app-",
                    "--resource-pattern-type", "prefixed");
            acls(broker, "--add", "--allow-principal", "User:ANONYMOUS", "--consumer", "--topic", "app-",
                    "--group", "app-readers", "--resource-pattern-type", "prefixed");
            acls(broker, "--add", "--allow-principal", "User:ANONYMOUS", "--allow-host", "10.9.9.9",
                    "--operation", "Write", "--topic", "other");

            try (KafkaProducer<String, String> producer = broker.producer()) {
                send(producer, "app-events");
                sendIsDenied(producer, "other");
            }
            try (KafkaConsumer<String, String> consumer = broker.groupConsumer("app-readers", Map.of())) {
                consumer.subscribe(List.of("app-events"));
                List<ConsumerRecord<String, String>> read = new java.util.ArrayList<>();
                for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); read.isEmpty() && System.nanoTime() < end; ) {
                    consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                }
                assertThat(read).extracting(ConsumerRecord::value).containsExactly("v");
                consumer.commitSync(Duration.ofSeconds(20));
            }

            KafkaAclsTool.Run matching = acls(broker, "--list", "--topic", "app-events", "--resource-pattern-type",
                    "match");
            assertThat(matching.out()).contains("name=app-, patternType=PREFIXED")
                    .contains("operation=WRITE").contains("operation=READ").contains("operation=CREATE")
                    .contains("operation=DESCRIBE").doesNotContain("name=other");
        }
    }

    @Test
    void kafkaAclsManagesTransactionalIdDelegationTokenAndUserAcls() throws Exception {
        try (TestBroker broker = broker(ADMIN_RIGHTS).start()) {
            acls(broker, "--add", "--allow-principal", "User:alice", "--operation", "Write", "--transactional-id", "tx-",
                    "--resource-pattern-type", "prefixed");
            acls(broker, "--add", "--allow-principal", "User:alice", "--operation", "Describe", "--delegation-token",
                    "token-1");
            acls(broker, "--add", "--allow-principal", "User:alice", "--operation", "CreateTokens", "--user-principal",
                    "User:bob");
            String all = acls(broker, "--list", "--principal", "User:alice").out();
            assertThat(all).contains("ResourcePattern(resourceType=TRANSACTIONAL_ID, name=tx-, patternType=PREFIXED)")
                    .contains("ResourcePattern(resourceType=DELEGATION_TOKEN, name=token-1, patternType=LITERAL)")
                    .contains("ResourcePattern(resourceType=USER, name=User:bob, patternType=LITERAL)")
                    .contains("operation=CREATE_TOKENS");
            acls(broker, "--remove", "--force", "--delegation-token", "token-1");
            assertThat(acls(broker, "--list", "--principal", "User:alice").out()).doesNotContain("DELEGATION_TOKEN")
                    .contains("TRANSACTIONAL_ID");
        }
    }

    @Test
    void theAdminClientCreatesDescribesWithFiltersAndDeletesAcls() throws Exception {
        AclBinding readT = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
        AclBinding denyGroup = new AclBinding(new ResourcePattern(ResourceType.GROUP, "g-", PatternType.PREFIXED),
                new AccessControlEntry("User:bob", "*", AclOperation.ALL, AclPermissionType.DENY));
        AclBinding token = new AclBinding(new ResourcePattern(ResourceType.USER, "carol", PatternType.LITERAL),
                new AccessControlEntry("User:alice", "10.0.0.1", AclOperation.CREATE_TOKENS, AclPermissionType.ALLOW));
        try (TestBroker broker = broker(ADMIN_RIGHTS).start(); Admin admin = broker.admin()) {
            admin.createAcls(List.of(readT, denyGroup, token)).all().get(20, TimeUnit.SECONDS);

            assertThat(describe(admin, new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC, null,
                    PatternType.ANY), AccessControlEntryFilter.ANY))).containsExactly(readT);
            assertThat(describe(admin, new AclBindingFilter(new ResourcePatternFilter(ResourceType.GROUP, "g-1",
                    PatternType.MATCH), AccessControlEntryFilter.ANY))).containsExactly(denyGroup);
            assertThat(describe(admin, new AclBindingFilter(ResourcePatternFilter.ANY, new AccessControlEntryFilter(
                    "User:alice", null, AclOperation.ANY, AclPermissionType.ALLOW)))).containsExactlyInAnyOrder(readT, token);

            DeleteAclsResult deleted = admin.deleteAcls(List.of(new AclBindingFilter(ResourcePatternFilter.ANY,
                    new AccessControlEntryFilter("User:bob", null, AclOperation.ANY, AclPermissionType.ANY))));
            assertThat(deleted.all().get(20, TimeUnit.SECONDS)).containsExactly(denyGroup);
            assertThat(describe(admin, ALL)).filteredOn(b -> b.pattern().resourceType() != ResourceType.CLUSTER)
                    .containsExactlyInAnyOrder(readT, token);
        }
    }

    @Test
    void badBindingsAreInvalidRequestWithKafkasMessages() throws Exception {
        try (TestBroker broker = broker(ADMIN_RIGHTS).start(); Admin admin = broker.admin()) {
            AccessControlEntry entry = new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW);
            assertInvalid(admin, new AclBinding(new ResourcePattern(ResourceType.CLUSTER, "my-cluster", PatternType.LITERAL),
                    new AccessControlEntry("User:alice", "*", AclOperation.ALTER, AclPermissionType.ALLOW)),
                    "The only valid name for the CLUSTER resource is kafka-cluster");
            assertInvalid(admin, new AclBinding(new ResourcePattern(ResourceType.TOPIC, "", PatternType.LITERAL), entry),
                    "Invalid empty resource name");
            assertInvalid(admin, new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                    new AccessControlEntry("alice", "*", AclOperation.READ, AclPermissionType.ALLOW)),
                    "Could not parse principal from `alice` (no colon is present separating the principal type from "
                            + "the principal name)");
            assertThat(describe(admin, ALL)).filteredOn(b -> b.pattern().resourceType() != ResourceType.CLUSTER).isEmpty();
        }
    }

    private static void assertInvalid(Admin admin, AclBinding binding, String message) {
        assertThatThrownBy(() -> admin.createAcls(List.of(binding)).all().get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage(message);
    }

    @Test
    void aclsSurviveARestartAndTheRulesFileDoesNotSeedTheStoreAgain() throws Exception {
        AclBinding write = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "kept", PatternType.PREFIXED),
                new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
        TestBroker broker = broker(ADMIN_RIGHTS).start();
        try {
            try (Admin admin = broker.admin()) {
                admin.createAcls(List.of(write)).all().get(20, TimeUnit.SECONDS);
                admin.deleteAcls(List.of(new AclBindingFilter(new ResourcePatternFilter(ResourceType.CLUSTER, null,
                        PatternType.ANY), new AccessControlEntryFilter(null, null, AclOperation.CREATE,
                        AclPermissionType.ANY)))).all().get(20, TimeUnit.SECONDS);
            }
            broker = broker.restart();
            TestBroker restarted = broker;
            try (Admin admin = restarted.admin()) {
                Collection<AclBinding> after = describe(admin, ALL);
                assertThat(after).contains(write);
                assertThat(after).as("the CREATE deleted before the restart is not seeded again")
                        .noneMatch(b -> b.entry().operation() == AclOperation.CREATE);
                assertThatThrownBy(() -> restarted.createTopic("kept-1", 1)).hasRootCauseInstanceOf(
                        org.apache.kafka.common.errors.TopicAuthorizationException.class);
            }
        } finally {
            broker.close();
        }
    }

    @Test
    void withoutAlterOrDescribeOnTheClusterTheAclApisAreClusterAuthorizationFailed() throws Exception {
        try (TestBroker broker = broker("allow User:ANONYMOUS DESCRIBE cluster\n").start(); Admin admin = broker.admin()) {
            AclBinding binding = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                    new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.READ, AclPermissionType.ALLOW));
            assertThatThrownBy(() -> admin.createAcls(List.of(binding)).all().get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> admin.deleteAcls(List.of(ALL)).all().get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThat(describe(admin, ALL)).hasSize(1);
        }
        // CREATE implies no DESCRIBE (ALTER would, as in Kafka)
        try (TestBroker broker = broker("allow User:ANONYMOUS CREATE cluster\n").config("log.dirs",
                dir.resolve("data2").toString()).start(); Admin admin = broker.admin()) {
            assertThatThrownBy(() -> describe(admin, ALL)).hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
    }

    @Test
    void withoutAnAuthorizerTheAclApisAreSecurityDisabled() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).pluginsDir(dir.resolve("no-plugins")).start();
             Admin admin = broker.admin()) {
            assertThatThrownBy(() -> describe(admin, ALL)).hasCauseInstanceOf(SecurityDisabledException.class)
                    .hasMessageContaining("No Authorizer is configured on the broker");
            assertThatThrownBy(() -> admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t",
                    PatternType.LITERAL), new AccessControlEntry("User:a", "*", AclOperation.READ,
                    AclPermissionType.ALLOW)))).all().get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SecurityDisabledException.class);
            assertThat(KafkaAclsTool.run(broker.bootstrap(), "--list").out()).contains("No Authorizer is configured");
        }
    }

    private static Collection<AclBinding> describe(Admin admin, AclBindingFilter filter) throws Exception {
        return admin.describeAcls(filter).values().get(20, TimeUnit.SECONDS);
    }
}
