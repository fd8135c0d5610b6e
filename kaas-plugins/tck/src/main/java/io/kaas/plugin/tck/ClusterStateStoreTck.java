package io.kaas.plugin.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.ClientQuotaEntity;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.cluster.TopicExistsException;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.UnknownTopicException;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.SpiVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link ClusterStateStore} passes: topics by name and by id, the errors for
 * existing and unknown topics, snapshots, persistence across a reopen, a stable cluster id,
 * producer-id blocks that never overlap, consumer groups' committed offsets and configs, and SCRAM credentials.
 * Extend it and implement {@link #provider()}.
 */
@Timeout(60)
public abstract class ClusterStateStoreTck {
    @TempDir
    protected Path dataDir;

    /** The store under test; opened before each test, closed after it. */
    protected ClusterStateStore store;

    /** The provider of the store under test: a new instance, as ServiceLoader would create it. */
    protected abstract ClusterStateStoreProvider provider();

    /** The store's settings (keys under {@code cluster.<name>.}, prefix removed). Default: none. */
    protected PluginConfig config() {
        return PluginConfig.empty();
    }

    /**
     * Whether the store keeps committed offsets (the deprecated methods of stores before SPI 5, read once to move them
     * to {@code __consumer_offsets}). A store that leaves their defaults answers false and skips those cases.
     */
    protected boolean keepsCommittedOffsets() {
        return true;
    }

    private void assumeCommittedOffsets() {
        org.junit.jupiter.api.Assumptions.assumeTrue(keepsCommittedOffsets(), "the store keeps no committed offsets");
    }

    /** Opens a store over {@link #dataDir}. */
    protected ClusterStateStore openNewStore() throws IOException {
        return provider().open(new ClusterStoreContext(dataDir, config(), 1));
    }

    @BeforeEach
    final void openStore() throws IOException {
        store = openNewStore();
    }

    @AfterEach
    final void closeStore() {
        if (store != null) {
            ClusterStateStore s = store;
            store = null;
            s.close();
        }
    }

    /** Closes the store and opens a new one over the same data directory. */
    protected void reopen() throws IOException {
        closeStore();
        store = openNewStore();
    }

    private static TopicRecord topic(String name, int partitions, Map<String, String> configs) {
        return new TopicRecord(name, UUID.randomUUID(), partitions, configs);
    }

    @Test
    public void providerHasANameAndTheCurrentSpiVersion() {
        assertThat(provider().name()).isNotBlank();
        assertThat(SpiVersion.isCompatible(provider().spiVersion())).isTrue();
    }

    @Test
    public void everyEntryTheStoreKeepsInTheDataDirectoryIsAReservedName() throws IOException {
        // The broker refuses topics of these names, so no topic directory of an engine lands on the store's files.
        store.createTopic(topic("tck-reserved", 2, Map.of()));
        Set<String> reserved = provider().reservedNames();
        try (Stream<Path> entries = Files.list(dataDir)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                assertThat(reserved).as("the store keeps %s in the data directory but does not list it in reservedNames()", entry)
                        .contains(entry.getFileName().toString());
            }
        }
    }

    @Test
    public void aNewStoreHasNoTopics() {
        assertThat(store.topics()).isEmpty();
        assertThat(store.topic("anything")).isEmpty();
        assertThat(store.topic(UUID.randomUUID())).isEmpty();
    }

    @Test
    public void createdTopicsAreFoundByNameAndById() {
        TopicRecord orders = topic("orders", 3, Map.of("cleanup.policy", "compact", "retention.ms", "1000"));
        TopicRecord odd = topic("payments.v2_eu-west", 1, Map.of());
        store.createTopic(orders);
        store.createTopic(odd);

        assertThat(store.topics()).containsExactlyInAnyOrder(orders, odd);
        assertThat(store.topic("orders")).contains(orders);
        assertThat(store.topic(orders.topicId())).contains(orders);
        assertThat(store.topic("payments.v2_eu-west")).contains(odd);
        assertThat(store.topic(odd.topicId())).contains(odd);
    }

    @Test
    public void creatingATakenNameIsTopicExists() {
        TopicRecord first = topic("orders", 1, Map.of());
        store.createTopic(first);
        assertThatThrownBy(() -> store.createTopic(topic("orders", 5, Map.of())))
                .isInstanceOf(TopicExistsException.class);
        assertThat(store.topic("orders")).contains(first);
    }

    @Test
    public void deleteRemovesTheTopicAndFreesTheName() {
        TopicRecord orders = topic("orders", 1, Map.of());
        store.createTopic(orders);
        store.deleteTopic("orders");

        assertThat(store.topic("orders")).isEmpty();
        assertThat(store.topic(orders.topicId())).isEmpty();
        assertThat(store.topics()).isEmpty();
        TopicRecord again = topic("orders", 2, Map.of());
        store.createTopic(again);
        assertThat(store.topic("orders")).contains(again);
        assertThat(store.topic(orders.topicId())).isEmpty();
    }

    @Test
    public void changingAnUnknownTopicIsUnknownTopic() {
        assertThatThrownBy(() -> store.deleteTopic("missing")).isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> store.updateTopicConfigs("missing", Map.of("a", "b")))
                .isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> store.updatePartitionCount("missing", 3)).isInstanceOf(UnknownTopicException.class);
    }

    @Test
    public void updateTopicConfigsReplacesTheOverrides() {
        TopicRecord orders = topic("orders", 1, Map.of("a", "1", "b", "2"));
        store.createTopic(orders);
        TopicRecord updated = store.updateTopicConfigs("orders", Map.of("b", "3"));

        assertThat(updated).isEqualTo(orders.withConfigs(Map.of("b", "3")));
        assertThat(store.topic("orders")).contains(updated);
        assertThat(store.topic(orders.topicId())).contains(updated);
    }

    @Test
    public void updatePartitionCountRaisesIt() {
        TopicRecord orders = topic("orders", 1, Map.of("a", "1"));
        store.createTopic(orders);
        TopicRecord updated = store.updatePartitionCount("orders", 4);

        assertThat(updated).isEqualTo(orders.withPartitions(4));
        assertThat(store.topic("orders")).contains(updated);
    }

    @Test
    public void topicsIsASnapshot() {
        store.createTopic(topic("a", 1, Map.of()));
        Collection<TopicRecord> snapshot = store.topics();
        store.createTopic(topic("b", 1, Map.of()));
        store.deleteTopic("a");
        assertThat(snapshot).extracting(TopicRecord::name).containsExactly("a");
    }

    @Test
    public void everyChangeSurvivesAReopen() throws IOException {
        TopicRecord kept = topic("kept", 2, Map.of("retention.ms", "60000"));
        TopicRecord changed = topic("changed", 1, Map.of());
        store.createTopic(kept);
        store.createTopic(changed);
        store.createTopic(topic("deleted", 1, Map.of()));
        store.updateTopicConfigs("changed", Map.of("cleanup.policy", "compact"));
        store.updatePartitionCount("changed", 6);
        store.deleteTopic("deleted");

        reopen();

        TopicRecord expectedChanged = changed.withConfigs(Map.of("cleanup.policy", "compact")).withPartitions(6);
        assertThat(store.topics()).containsExactlyInAnyOrder(kept, expectedChanged);
        assertThat(store.topic(kept.topicId())).contains(kept);
        assertThat(store.topic(changed.topicId())).contains(expectedChanged);
        assertThat(store.topic("deleted")).isEmpty();
    }

    @Test
    public void theClusterIdIsKafkaShapedAndStableAcrossReopens() throws IOException {
        String id = store.clusterId();
        assertThat(id).hasSize(22).matches("[A-Za-z0-9_-]{22}");
        assertThat(store.clusterId()).isEqualTo(id);
        reopen();
        assertThat(store.clusterId()).isEqualTo(id);
    }

    @Test
    public void producerIdBlocksNeverOverlapAcrossReopens() throws IOException {
        List<long[]> blocks = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 5; i++) {
                int size = 1 + i * 10;
                long first = store.allocateProducerIdBlock(size);
                assertThat(first).isNotNegative();
                blocks.add(new long[] {first, first + size});
            }
            reopen();
        }
        assertDisjoint(blocks);
    }

    @Test
    public void concurrentProducerIdBlocksNeverOverlap() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<long[]>> futures = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                futures.add(pool.submit(() -> {
                    long first = store.allocateProducerIdBlock(100);
                    return new long[] {first, first + 100};
                }));
            }
            List<long[]> blocks = new ArrayList<>();
            for (Future<long[]> f : futures) {
                blocks.add(f.get());
            }
            assertDisjoint(blocks);
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- committed offsets of consumer groups -----------------------------------------------------

    private static CommittedOffset committed(long offset) {
        return new CommittedOffset(offset, 3, "meta-" + offset, 1_700_000_000_000L + offset, -1);
    }

    @Test
    public void committedOffsetsAreStoredPerGroupAndReplacedPerPartition() {
        assumeCommittedOffsets();
        TopicPartitionRef a0 = new TopicPartitionRef("a", 0);
        TopicPartitionRef a1 = new TopicPartitionRef("a", 1);
        assertThat(store.committedOffsets("g")).isEmpty();

        store.commitOffsets("g", Map.of(a0, committed(10), a1, committed(20)));
        store.commitOffsets("g", Map.of(a0, committed(15)));
        store.commitOffsets("other", Map.of(a0, committed(1)));
        store.commitOffsets("g", Map.of());

        assertThat(store.committedOffsets("g")).isEqualTo(Map.of(a0, committed(15), a1, committed(20)));
        assertThat(store.committedOffsets("other")).isEqualTo(Map.of(a0, committed(1)));
        assertThat(store.groupsWithOffsets()).containsExactlyInAnyOrder("g", "other");
    }

    @Test
    public void groupIdsMayBeEmptyOrUseAnyCharacters() {
        assumeCommittedOffsets();
        TopicPartitionRef p = new TopicPartitionRef("t", 0);
        for (String group : new String[] {"", "spaces and/slashes\\..", "ünïcödé-✓", "CON"}) {
            store.commitOffsets(group, Map.of(p, committed(group.length())));
        }
        assertThat(store.committedOffsets("")).isEqualTo(Map.of(p, committed(0)));
        assertThat(store.groupsWithOffsets()).hasSize(4);
    }

    @Test
    public void deletingOffsetsKeepsTheOthersAndTheLastOneRemovesTheGroup() {
        assumeCommittedOffsets();
        TopicPartitionRef a0 = new TopicPartitionRef("a", 0);
        TopicPartitionRef b0 = new TopicPartitionRef("b", 0);
        store.commitOffsets("g", Map.of(a0, committed(1), b0, committed(2)));

        store.deleteOffsets("g", List.of(a0, new TopicPartitionRef("never", 9)));
        assertThat(store.committedOffsets("g")).isEqualTo(Map.of(b0, committed(2)));

        store.deleteOffsets("g", List.of(b0));
        assertThat(store.committedOffsets("g")).isEmpty();
        assertThat(store.groupsWithOffsets()).doesNotContain("g");
    }

    @Test
    public void deletingAGroupRemovesEveryOffsetAndAnUnknownGroupIsNoError() {
        assumeCommittedOffsets();
        store.commitOffsets("g", Map.of(new TopicPartitionRef("a", 0), committed(1)));
        store.deleteGroup("g");
        store.deleteGroup("never-existed");
        assertThat(store.committedOffsets("g")).isEmpty();
        assertThat(store.groupsWithOffsets()).isEmpty();
    }

    @Test
    public void committedOffsetsSurviveAReopen() throws IOException {
        assumeCommittedOffsets();
        TopicPartitionRef a0 = new TopicPartitionRef("a", 0);
        TopicPartitionRef a1 = new TopicPartitionRef("a", 1);
        store.commitOffsets("kept", Map.of(a0, committed(5), a1, new CommittedOffset(6, -1, "", 42, 99)));
        store.commitOffsets("dropped", Map.of(a0, committed(7)));
        store.commitOffsets("partly", Map.of(a0, committed(8), a1, committed(9)));
        store.deleteGroup("dropped");
        store.deleteOffsets("partly", List.of(a1));

        reopen();

        assertThat(store.groupsWithOffsets()).containsExactlyInAnyOrder("kept", "partly");
        assertThat(store.committedOffsets("kept")).isEqualTo(Map.of(a0, committed(5), a1, new CommittedOffset(6, -1, "", 42, 99)));
        assertThat(store.committedOffsets("partly")).isEqualTo(Map.of(a0, committed(8)));
    }

    @Test
    public void committedOffsetsAreASnapshot() {
        assumeCommittedOffsets();
        TopicPartitionRef a0 = new TopicPartitionRef("a", 0);
        store.commitOffsets("g", Map.of(a0, committed(1)));
        Map<TopicPartitionRef, CommittedOffset> snapshot = store.committedOffsets("g");
        Collection<String> groups = store.groupsWithOffsets();
        store.commitOffsets("g", Map.of(a0, committed(2)));
        store.commitOffsets("h", Map.of(a0, committed(3)));
        assertThat(snapshot).isEqualTo(Map.of(a0, committed(1)));
        assertThat(groups).containsExactly("g");
    }

    @Test
    public void groupConfigsAreReplacedPerGroupAndAnEmptyMapRemovesThem() {
        assertThat(store.groupConfigs("g")).isEmpty();
        assertThat(store.groupsWithConfigs()).isEmpty();

        store.updateGroupConfigs("g", Map.of("consumer.session.timeout.ms", "50000", "consumer.heartbeat.interval.ms", "6000"));
        store.updateGroupConfigs("g", Map.of("consumer.heartbeat.interval.ms", "7000"));
        store.updateGroupConfigs("ünïcödé/..", Map.of("consumer.session.timeout.ms", "55000"));
        store.updateGroupConfigs("gone", Map.of("consumer.session.timeout.ms", "55000"));
        store.updateGroupConfigs("gone", Map.of());
        store.updateGroupConfigs("never-had-any", Map.of());

        assertThat(store.groupConfigs("g")).isEqualTo(Map.of("consumer.heartbeat.interval.ms", "7000"));
        assertThat(store.groupConfigs("ünïcödé/..")).isEqualTo(Map.of("consumer.session.timeout.ms", "55000"));
        assertThat(store.groupConfigs("gone")).isEmpty();
        assertThat(store.groupsWithConfigs()).containsExactlyInAnyOrder("g", "ünïcödé/..");
    }

    @Test
    public void groupConfigsAreIndependentOfOffsetsAndSurviveAReopen() throws IOException {
        assumeCommittedOffsets();
        TopicPartitionRef a0 = new TopicPartitionRef("a", 0);
        store.commitOffsets("g", Map.of(a0, committed(1)));
        store.updateGroupConfigs("g", Map.of("consumer.session.timeout.ms", "50000"));
        store.updateGroupConfigs("configs-only", Map.of("consumer.heartbeat.interval.ms", "6000"));
        store.deleteGroup("g");
        Map<String, String> snapshot = store.groupConfigs("configs-only");
        Collection<String> ids = store.groupsWithConfigs();
        store.updateGroupConfigs("configs-only", Map.of("consumer.heartbeat.interval.ms", "8000"));
        store.updateGroupConfigs("later", Map.of("consumer.heartbeat.interval.ms", "8000"));
        assertThat(snapshot).isEqualTo(Map.of("consumer.heartbeat.interval.ms", "6000"));
        assertThat(ids).containsExactlyInAnyOrder("g", "configs-only");

        reopen();

        assertThat(store.groupsWithOffsets()).isEmpty();
        assertThat(store.groupsWithConfigs()).containsExactlyInAnyOrder("g", "configs-only", "later");
        assertThat(store.groupConfigs("g")).isEqualTo(Map.of("consumer.session.timeout.ms", "50000"));
        assertThat(store.groupConfigs("configs-only")).isEqualTo(Map.of("consumer.heartbeat.interval.ms", "8000"));
    }

    // ---- client quotas and dynamic broker configs ----

    private static final ClientQuotaEntity ALICE = ClientQuotaEntity.of(ClientQuotaEntity.USER, "alice");
    private static final ClientQuotaEntity ALICE_APP = ClientQuotaEntity.of(ClientQuotaEntity.USER, "alice",
            ClientQuotaEntity.CLIENT_ID, "app.1");
    private static final ClientQuotaEntity DEFAULT_CLIENT = ClientQuotaEntity.of(ClientQuotaEntity.CLIENT_ID,
            ClientQuotaEntity.DEFAULT_NAME);
    private static final ClientQuotaEntity ODD_CLIENT = ClientQuotaEntity.of(ClientQuotaEntity.CLIENT_ID, "ü *+/..");
    private static final ClientQuotaEntity IP = ClientQuotaEntity.of(ClientQuotaEntity.IP, "127.0.0.1");

    @Test
    public void clientQuotasAreSetPerKeyAndAnEntityWithoutKeysDisappears() {
        assertThat(store.clientQuotas()).isEmpty();
        store.alterClientQuotas(Map.of(
                ALICE, Map.of("producer_byte_rate", Optional.of(1024.0), "consumer_byte_rate", Optional.of(2048.0)),
                ALICE_APP, Map.of("request_percentage", Optional.of(12.5)),
                DEFAULT_CLIENT, Map.of("producer_byte_rate", Optional.of(100.0)),
                ODD_CLIENT, Map.of("no_such_quota", Optional.of(7.0)),
                IP, Map.of("connection_creation_rate", Optional.of(3.0))));
        Map<ClientQuotaEntity, Map<String, Double>> snapshot = store.clientQuotas();

        store.alterClientQuotas(Map.of(ALICE, Map.of("consumer_byte_rate", Optional.empty()),
                IP, Map.of("connection_creation_rate", Optional.empty()),
                ClientQuotaEntity.of(ClientQuotaEntity.USER, "never"), Map.of("producer_byte_rate", Optional.empty())));

        assertThat(snapshot).hasSize(5).containsEntry(ALICE, Map.of("producer_byte_rate", 1024.0, "consumer_byte_rate", 2048.0));
        assertThat(store.clientQuotas()).isEqualTo(Map.of(
                ALICE, Map.of("producer_byte_rate", 1024.0),
                ALICE_APP, Map.of("request_percentage", 12.5),
                DEFAULT_CLIENT, Map.of("producer_byte_rate", 100.0),
                ODD_CLIENT, Map.of("no_such_quota", 7.0)));

        store.alterClientQuotas(Map.of(ALICE, Map.of("producer_byte_rate", Optional.empty())));
        assertThat(store.clientQuotas()).doesNotContainKey(ALICE).containsKey(ALICE_APP);
        store.alterClientQuotas(Map.of(ALICE_APP, Map.of("request_percentage", Optional.empty())));
        assertThat(store.clientQuotas()).doesNotContainKeys(ALICE, ALICE_APP);
    }

    @Test
    public void aUsersQuotasAndScramCredentialsAreKeptApart() {
        ScramCredentialRecord credential = scram("alice", "SCRAM-SHA-256", 4096, 1);
        store.alterScramCredentials(List.of(credential), List.of());
        store.alterClientQuotas(Map.of(ALICE, Map.of("producer_byte_rate", Optional.of(10.0)),
                ALICE_APP, Map.of("producer_byte_rate", Optional.of(5.0))));
        store.alterClientQuotas(Map.of(ALICE, Map.of("producer_byte_rate", Optional.empty())));
        assertThat(store.scramCredentials("alice")).containsExactly(credential);

        store.alterClientQuotas(Map.of(ALICE, Map.of("consumer_byte_rate", Optional.of(20.0))));
        store.alterScramCredentials(List.of(), List.of(credential.ref()));
        assertThat(store.scramCredentials("alice")).isEmpty();
        assertThat(store.clientQuotas()).isEqualTo(Map.of(ALICE, Map.of("consumer_byte_rate", 20.0),
                ALICE_APP, Map.of("producer_byte_rate", 5.0)));
    }

    @Test
    public void brokerConfigsArePerBrokerOrTheClusterDefaultAndAnEmptyMapRemovesThem() {
        assertThat(store.brokerConfigs(OptionalInt.empty())).isEmpty();
        store.updateBrokerConfigs(OptionalInt.empty(), Map.of("log.retention.ms", "1000", "no.such.key", "x"));
        store.updateBrokerConfigs(OptionalInt.of(1), Map.of("message.max.bytes", "2000"));
        store.updateBrokerConfigs(OptionalInt.of(2), Map.of("message.max.bytes", "3000"));
        Map<String, String> snapshot = store.brokerConfigs(OptionalInt.of(1));
        store.updateBrokerConfigs(OptionalInt.of(1), Map.of("log.cleaner.threads", "2"));
        store.updateBrokerConfigs(OptionalInt.of(2), Map.of());
        store.updateBrokerConfigs(OptionalInt.of(3), Map.of());

        assertThat(snapshot).isEqualTo(Map.of("message.max.bytes", "2000"));
        assertThat(store.brokerConfigs(OptionalInt.empty())).isEqualTo(Map.of("log.retention.ms", "1000", "no.such.key", "x"));
        assertThat(store.brokerConfigs(OptionalInt.of(1))).isEqualTo(Map.of("log.cleaner.threads", "2"));
        assertThat(store.brokerConfigs(OptionalInt.of(2))).isEmpty();
        assertThat(store.brokerConfigs(OptionalInt.of(3))).isEmpty();
    }

    @Test
    public void clientQuotasAndBrokerConfigsSurviveAReopen() throws IOException {
        store.alterClientQuotas(Map.of(ALICE_APP, Map.of("producer_byte_rate", Optional.of(1.5)),
                DEFAULT_CLIENT, Map.of("consumer_byte_rate", Optional.of(2.0)),
                ODD_CLIENT, Map.of("request_percentage", Optional.of(3.0)),
                IP, Map.of("connection_creation_rate", Optional.of(4.0))));
        store.updateBrokerConfigs(OptionalInt.empty(), Map.of("log.retention.ms", "1000"));
        store.updateBrokerConfigs(OptionalInt.of(1), Map.of("message.max.bytes", "2000"));

        reopen();

        assertThat(store.clientQuotas()).isEqualTo(Map.of(ALICE_APP, Map.of("producer_byte_rate", 1.5),
                DEFAULT_CLIENT, Map.of("consumer_byte_rate", 2.0), ODD_CLIENT, Map.of("request_percentage", 3.0),
                IP, Map.of("connection_creation_rate", 4.0)));
        assertThat(store.brokerConfigs(OptionalInt.empty())).isEqualTo(Map.of("log.retention.ms", "1000"));
        assertThat(store.brokerConfigs(OptionalInt.of(1))).isEqualTo(Map.of("message.max.bytes", "2000"));
    }

    // ---- SCRAM credentials ----

    private static ScramCredentialRecord scram(String user, String mechanism, int iterations, int seed) {
        byte[] salt = new byte[32];
        byte[] stored = new byte[32];
        byte[] server = new byte[32];
        for (int i = 0; i < 32; i++) {
            salt[i] = (byte) (seed + i);
            stored[i] = (byte) (seed * 3 + i);
            server[i] = (byte) (seed * 7 + i);
        }
        return new ScramCredentialRecord(new ScramCredentialRef(user, mechanism), salt, stored, server, iterations);
    }

    @Test
    public void scramCredentialsAreUpsertedAndDeletedPerUserAndMechanism() {
        assertThat(store.scramCredentials()).isEmpty();
        assertThat(store.scramCredentials("alice")).isEmpty();

        store.alterScramCredentials(List.of(scram("alice", "SCRAM-SHA-256", 4096, 1),
                scram("alice", "SCRAM-SHA-512", 8192, 2), scram("bob", "SCRAM-SHA-256", 4096, 3)), List.of());
        store.alterScramCredentials(List.of(scram("alice", "SCRAM-SHA-256", 16384, 4)),
                List.of(new ScramCredentialRef("bob", "SCRAM-SHA-256"), new ScramCredentialRef("nobody", "SCRAM-SHA-256")));

        assertThat(store.scramCredentials("alice")).containsExactlyInAnyOrder(scram("alice", "SCRAM-SHA-256", 16384, 4),
                scram("alice", "SCRAM-SHA-512", 8192, 2));
        assertThat(store.scramCredentials("bob")).isEmpty();
        assertThat(store.scramCredentials()).extracting(ScramCredentialRecord::user).containsOnly("alice").hasSize(2);
        store.alterScramCredentials(List.of(), List.of());
        assertThat(store.scramCredentials()).hasSize(2);
    }

    @Test
    public void scramCredentialsKeepTheirBytesAndSurviveAReopen() throws IOException {
        store.alterScramCredentials(List.of(scram("alice", "SCRAM-SHA-256", 4096, 1), scram("ünï,cödé=", "SCRAM-SHA-512", 8192, 2),
                scram("gone", "SCRAM-SHA-256", 4096, 3)), List.of());
        store.alterScramCredentials(List.of(), List.of(new ScramCredentialRef("gone", "SCRAM-SHA-256")));
        Collection<ScramCredentialRecord> snapshot = store.scramCredentials();
        store.alterScramCredentials(List.of(scram("later", "SCRAM-SHA-256", 4096, 5)), List.of());
        assertThat(snapshot).hasSize(2);

        reopen();

        assertThat(store.scramCredentials()).containsExactlyInAnyOrder(scram("alice", "SCRAM-SHA-256", 4096, 1),
                scram("ünï,cödé=", "SCRAM-SHA-512", 8192, 2), scram("later", "SCRAM-SHA-256", 4096, 5));
        ScramCredentialRecord alice = store.scramCredentials("alice").iterator().next();
        assertThat(alice.salt()).isEqualTo(scram("alice", "SCRAM-SHA-256", 4096, 1).salt());
        assertThat(alice.storedKey()).isEqualTo(scram("alice", "SCRAM-SHA-256", 4096, 1).storedKey());
        assertThat(alice.serverKey()).isEqualTo(scram("alice", "SCRAM-SHA-256", 4096, 1).serverKey());
        assertThat(alice.iterations()).isEqualTo(4096);
        assertThat(alice.toString()).doesNotContain(java.util.Arrays.toString(alice.storedKey()));
    }

    @Test
    public void aScramCredentialNamedTwiceInOneCallIsRefusedAndNothingChanges() {
        store.alterScramCredentials(List.of(scram("alice", "SCRAM-SHA-256", 4096, 1)), List.of());
        assertThatThrownBy(() -> store.alterScramCredentials(List.of(scram("bob", "SCRAM-SHA-256", 4096, 2),
                scram("bob", "SCRAM-SHA-256", 8192, 3)), List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.alterScramCredentials(List.of(scram("bob", "SCRAM-SHA-256", 4096, 2)),
                List.of(new ScramCredentialRef("bob", "SCRAM-SHA-256")))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.alterScramCredentials(List.of(scram("carol", "SCRAM-SHA-512", 4096, 2)),
                List.of(new ScramCredentialRef("alice", "SCRAM-SHA-256"), new ScramCredentialRef("alice", "SCRAM-SHA-256"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store.scramCredentials()).containsExactly(scram("alice", "SCRAM-SHA-256", 4096, 1));
    }

    @Test
    public void malformedScramCredentialsCannotBeBuilt() {
        assertThatThrownBy(() -> new ScramCredentialRef("", "SCRAM-SHA-256")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScramCredentialRef("alice", "")).isInstanceOf(IllegalArgumentException.class);
        ScramCredentialRef ref = new ScramCredentialRef("alice", "SCRAM-SHA-256");
        assertThatThrownBy(() -> new ScramCredentialRecord(ref, new byte[0], new byte[1], new byte[1], 4096))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScramCredentialRecord(ref, new byte[1], new byte[0], new byte[1], 4096))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScramCredentialRecord(ref, new byte[1], new byte[1], null, 4096))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScramCredentialRecord(ref, new byte[1], new byte[1], new byte[1], 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // --- ACLs ---

    private static AclBinding acl(ResourceType type, String name, PatternType patternType, String principal,
                                  Operation op, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, patternType),
                new AccessControlEntry(KafkaPrincipal.parse(principal), "*", op, permission));
    }

    @Test
    public void aNewStoreHasNoAcls() {
        assertThat(store.acls()).isEmpty();
    }

    @Test
    public void aclsAreAddedOnceAndRemovedExactly() {
        AclBinding read = acl(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", Operation.READ,
                AclPermissionType.ALLOW);
        AclBinding prefixed = acl(ResourceType.TOPIC, "orders", PatternType.PREFIXED, "User:alice", Operation.READ,
                AclPermissionType.ALLOW);
        AclBinding deny = acl(ResourceType.GROUP, "g", PatternType.LITERAL, "User:*", Operation.ALL,
                AclPermissionType.DENY);
        store.addAcls(List.of(read, prefixed));
        store.addAcls(List.of(read, deny));
        assertThat(store.acls()).containsExactlyInAnyOrder(read, prefixed, deny);

        Collection<AclBinding> snapshot = store.acls();
        store.removeAcls(List.of(prefixed, acl(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:x",
                Operation.ALTER, AclPermissionType.ALLOW)));
        assertThat(snapshot).as("a snapshot").hasSize(3);
        assertThat(store.acls()).containsExactlyInAnyOrder(read, deny);
        store.removeAcls(List.of());
        store.addAcls(List.of());
        assertThat(store.acls()).containsExactlyInAnyOrder(read, deny);
    }

    @Test
    public void aclsOfEveryKindSurviveAReopen() throws IOException {
        List<AclBinding> all = new ArrayList<>();
        for (ResourceType type : ResourceType.values()) {
            all.add(acl(type, "name with spaces, \"quotes\" and ü", PatternType.PREFIXED, "User:al:ice",
                    Operation.DESCRIBE, AclPermissionType.DENY));
            all.add(acl(type, "*", PatternType.LITERAL, "Group:*", Operation.ALL, AclPermissionType.ALLOW));
        }
        AclBinding onHost = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                new AccessControlEntry(KafkaPrincipal.ANONYMOUS, "10.0.0.7", Operation.IDEMPOTENT_WRITE,
                        AclPermissionType.ALLOW));
        all.add(onHost);
        store.addAcls(all);
        store.removeAcls(List.of(all.get(0)));

        reopen();

        assertThat(store.acls()).containsExactlyInAnyOrderElementsOf(all.subList(1, all.size()));
    }

    @Test
    public void concurrentAclChangesAreAllKept() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        store.addAcls(List.of(acl(ResourceType.TOPIC, "t" + thread + "-" + i, PatternType.LITERAL,
                                "User:u", Operation.WRITE, AclPermissionType.ALLOW)));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.acls()).hasSize(40);
        reopen();
        assertThat(store.acls()).hasSize(40);
    }

    private static void assertDisjoint(List<long[]> blocks) {
        List<long[]> sorted = new ArrayList<>(blocks);
        sorted.sort((a, b) -> Long.compare(a[0], b[0]));
        for (int i = 1; i < sorted.size(); i++) {
            assertThat(sorted.get(i)[0]).as("block %d starts after the previous one ends", i)
                    .isGreaterThanOrEqualTo(sorted.get(i - 1)[1]);
        }
    }
}
