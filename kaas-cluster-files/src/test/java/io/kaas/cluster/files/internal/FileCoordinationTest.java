package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.NotControllerException;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.VersionConflictException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The coordination state of the single-broker files store: registration, election, assignments, move requests. */
@Timeout(60)
class FileCoordinationTest {
    @TempDir
    Path dir;

    private static BrokerRegistration registration(int nodeId) {
        return new BrokerRegistration(nodeId, List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT", "127.0.0.1", 9092)),
                Optional.empty(), "localhost", ProcessHandle.current().pid());
    }

    /** Records the controller listener's calls with the thread they came on. */
    private static final class Terms implements ControllerListener {
        final BlockingQueue<String> calls = new LinkedBlockingQueue<>();

        @Override
        public void elected(ControllerTerm term) {
            calls.add("elected " + term.controllerEpoch() + " on " + Thread.currentThread().getName());
        }

        @Override
        public void resigned(ControllerTerm term) {
            calls.add("resigned " + term.controllerEpoch() + " on " + Thread.currentThread().getName());
        }

        String next() throws InterruptedException {
            String call = calls.poll(10, TimeUnit.SECONDS);
            assertThat(call).as("a controller listener call").isNotNull();
            return call;
        }
    }

    private static ControllerTerm elect(FileClusterStore store) {
        store.electController(new Terms());
        return store.controller().orElseThrow();
    }

    private static TopicAssignment assignTo(TopicAssignment current, LiveBroker broker) {
        return current.with(current.partitions().stream().map(p -> p.handedTo(broker)).toList());
    }

    private static TopicAssignment unassigned(TopicRecord topic) {
        return new TopicAssignment(topic.topicId(), topic.name(),
                Collections.nCopies(topic.partitions(), PartitionLeader.none(0)), TopicAssignment.NEW);
    }

    @Test
    void theSessionIsConnectedWithALeaseThatHoldsUntilClose() throws IOException {
        FileClusterStore store = FileClusterStore.open(dir, 1);
        try {
            assertThat(store.session().state()).isEqualTo(SessionState.CONNECTED);
            assertThat(store.session().leaseValid()).isTrue();
            assertThat(store.session().sessionTimeoutMs()).isZero();
            assertThat(store.session().leaseDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        } finally {
            store.close();
        }
        assertThat(store.session().state()).isEqualTo(SessionState.CLOSED);
        assertThat(store.session().leaseValid()).isFalse();
    }

    @Test
    void theBrokerEpochGrowsWithEveryRegistrationAcrossRestarts() throws IOException {
        long first;
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.liveBrokers()).isEmpty();
            LiveBroker broker = store.registerBroker(registration(1));
            first = broker.brokerEpoch();
            assertThat(first).isPositive();
            assertThat(broker.registration()).isEqualTo(registration(1));
            assertThat(store.liveBrokers()).containsExactly(Map.entry(1, broker));
            assertThatThrownBy(() -> store.registerBroker(registration(1))).isInstanceOf(IllegalStateException.class);
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.liveBrokers()).isEmpty();
            assertThat(store.registerBroker(registration(1)).brokerEpoch()).isGreaterThan(first);
        }
    }

    @Test
    void theBrokerIsElectedAtOnceUnderAControllerEpochThatGrowsAcrossRestartsAndResignsAtClose() throws Exception {
        Terms terms = new Terms();
        long firstEpoch;
        FileClusterStore store = FileClusterStore.open(dir, 4);
        try {
            assertThat(store.controller()).isEmpty();
            store.registerBroker(registration(4));
            store.electController(terms);
            ControllerTerm term = store.controller().orElseThrow();
            firstEpoch = term.controllerEpoch();
            assertThat(term.controllerId()).isEqualTo(4);
            assertThat(terms.next()).isEqualTo("elected " + firstEpoch + " on kaas-files-cluster-events");
            assertThatThrownBy(() -> store.electController(new Terms())).isInstanceOf(IllegalStateException.class);
        } finally {
            store.close();
        }
        assertThat(terms.next()).isEqualTo("resigned " + firstEpoch + " on kaas-files-cluster-events");
        assertThat(store.controller()).isEmpty();
        assertThat(store.liveBrokers()).isEmpty();
        try (FileClusterStore reopened = FileClusterStore.open(dir, 4)) {
            assertThat(elect(reopened).controllerEpoch()).isGreaterThan(firstEpoch);
        }
    }

    @Test
    void assignmentsAreWrittenWithVersionsThatGrowAndSurviveARestart() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 3, Map.of());
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            LiveBroker broker = store.registerBroker(registration(1));
            ControllerTerm term = elect(store);
            assertThat(store.assignments()).isEmpty();

            store.updateAssignments(term, List.of(assignTo(unassigned(orders), broker)));
            TopicAssignment v0 = store.assignments().get(orders.topicId());
            assertThat(v0.version()).isZero();
            assertThat(v0.partitions()).containsOnly(new PartitionLeader(1, 1, broker.brokerEpoch()));

            store.updateAssignments(term, List.of(assignTo(v0, broker)));
            TopicAssignment v1 = store.assignments().get(orders.topicId());
            assertThat(v1.version()).isEqualTo(1);
            assertThat(v1.partition(2)).isEqualTo(new PartitionLeader(1, 2, broker.brokerEpoch()));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            TopicAssignment stored = store.assignments().get(orders.topicId());
            assertThat(stored.version()).isEqualTo(1);
            assertThat(stored.topic()).isEqualTo("orders");
            assertThat(stored.partitions()).hasSize(3).allMatch(p -> p.leader() == 1 && p.leaderEpoch() == 2);
        }
    }

    @Test
    void aStaleVersionAnyWhereInTheCallWritesNothing() throws IOException {
        TopicRecord a = new TopicRecord("a", UUID.randomUUID(), 1, Map.of());
        TopicRecord b = new TopicRecord("b", UUID.randomUUID(), 2, Map.of());
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(a);
            store.createTopic(b);
            LiveBroker broker = store.registerBroker(registration(1));
            ControllerTerm term = elect(store);
            store.updateAssignments(term, List.of(assignTo(unassigned(a), broker)));
            Map<UUID, TopicAssignment> before = store.assignments();

            // b is new, but a is written over NEW although version 0 is stored.
            assertThatThrownBy(() -> store.updateAssignments(term,
                    List.of(assignTo(unassigned(b), broker), assignTo(unassigned(a), broker))))
                    .isInstanceOf(VersionConflictException.class).hasMessageContaining("'a'");
            assertThat(store.assignments()).isEqualTo(before);
            TopicAssignment stale = store.assignments().get(a.topicId());
            store.updateAssignments(term, List.of(assignTo(stale, broker)));
            assertThatThrownBy(() -> store.updateAssignments(term, List.of(assignTo(stale, broker))))
                    .isInstanceOf(VersionConflictException.class);
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.assignments()).containsOnlyKeys(a.topicId());
            assertThat(store.assignments().get(a.topicId()).version()).isEqualTo(1);
        }
    }

    @Test
    void aTermThatEndedCannotWrite() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 1, Map.of());
        ControllerTerm old;
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            store.registerBroker(registration(1));
            old = elect(store);
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            LiveBroker broker = store.registerBroker(registration(1));
            TopicAssignment change = assignTo(unassigned(orders), broker);
            // Before this store's election, and with the term of the earlier one after it.
            assertThatThrownBy(() -> store.updateAssignments(old, List.of(change)))
                    .isInstanceOf(NotControllerException.class);
            ControllerTerm current = elect(store);
            assertThatThrownBy(() -> store.updateAssignments(old, List.of(change)))
                    .isInstanceOf(NotControllerException.class).hasMessageContaining(current.toString());
            assertThatThrownBy(() -> store.updateAssignments(new ControllerTerm(2, current.controllerEpoch()),
                    List.of(change))).isInstanceOf(NotControllerException.class);
            assertThat(store.assignments()).isEmpty();
            store.updateAssignments(current, List.of(change));
            assertThat(store.assignments()).containsOnlyKeys(orders.topicId());
        }
    }

    @Test
    void anAssignmentMustMatchAnExistingTopicAndNeverLowerAnEpoch() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 2, Map.of());
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            LiveBroker broker = store.registerBroker(registration(1));
            ControllerTerm term = elect(store);
            TopicRecord unknown = new TopicRecord("unknown", UUID.randomUUID(), 2, Map.of());
            assertThatThrownBy(() -> store.updateAssignments(term, List.of(assignTo(unassigned(unknown), broker))))
                    .isInstanceOf(VersionConflictException.class).hasMessageContaining("'unknown'");
            TopicRecord renamed = new TopicRecord("other-name", orders.topicId(), 2, Map.of());
            assertThatThrownBy(() -> store.updateAssignments(term, List.of(assignTo(unassigned(renamed), broker))))
                    .isInstanceOf(VersionConflictException.class);
            // The topic grew since the controller read it.
            store.updatePartitionCount("orders", 3);
            assertThatThrownBy(() -> store.updateAssignments(term, List.of(assignTo(unassigned(orders), broker))))
                    .isInstanceOf(VersionConflictException.class).hasMessageContaining("3 partitions");
            TopicRecord grown = store.topic("orders").orElseThrow();
            store.updateAssignments(term, List.of(assignTo(unassigned(grown), broker)));
            TopicAssignment stored = store.assignments().get(orders.topicId());
            assertThatThrownBy(() -> store.updateAssignments(term, List.of(stored.with(
                    List.of(PartitionLeader.none(0), stored.partition(1), stored.partition(2))))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("orders-0");
            assertThatThrownBy(() -> store.updateAssignments(term, List.of(stored, stored)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
            assertThat(store.assignments().get(orders.topicId())).isEqualTo(stored);
        }
    }

    @Test
    void deletingATopicRemovesItsAssignmentAndMoveRequests() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 2, Map.of());
        TopicRecord kept = new TopicRecord("kept", UUID.randomUUID(), 1, Map.of());
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            store.createTopic(kept);
            LiveBroker broker = store.registerBroker(registration(1));
            ControllerTerm term = elect(store);
            store.updateAssignments(term, List.of(assignTo(unassigned(orders), broker), assignTo(unassigned(kept), broker)));
            store.alterReassignmentRequests(Map.of(new TopicPartitionRef("orders", 1), 1,
                    new TopicPartitionRef("kept", 0), 1));

            store.deleteTopic("orders");
            assertThat(store.assignments()).containsOnlyKeys(kept.topicId());
            assertThat(store.reassignmentRequests()).containsOnlyKeys(new TopicPartitionRef("kept", 0));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.assignments()).containsOnlyKeys(kept.topicId());
            assertThat(store.reassignmentRequests()).containsOnlyKeys(new TopicPartitionRef("kept", 0));
        }
    }

    @Test
    void anAssignmentLeftByACrashDuringATopicDeletionIsDroppedAtOpen() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 1, Map.of());
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            LiveBroker broker = store.registerBroker(registration(1));
            store.updateAssignments(elect(store), List.of(assignTo(unassigned(orders), broker)));
        }
        // As if the broker died after removing the topic's file and before rewriting the assignments.
        Files.delete(dir.resolve("topics/orders.json"));
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.topics()).isEmpty();
            assertThat(store.assignments()).isEmpty();
        }
    }

    @Test
    void moveRequestsAreAddedReplacedAndRemovedDurably() throws IOException {
        TopicPartitionRef p0 = new TopicPartitionRef("orders", 0);
        TopicPartitionRef p1 = new TopicPartitionRef("orders", 1);
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.reassignmentRequests()).isEmpty();
            store.alterReassignmentRequests(Map.of(p0, 2, p1, 3));
            store.alterReassignmentRequests(Map.of(p0, -1, p1, 4));
            assertThat(store.reassignmentRequests()).containsExactly(Map.entry(p1, 4));
            Map<TopicPartitionRef, Integer> bad = new HashMap<>(Map.of(p0, 1, p1, -2));
            assertThatThrownBy(() -> store.alterReassignmentRequests(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("orders-1");
            assertThat(store.reassignmentRequests()).containsExactly(Map.entry(p1, 4));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.reassignmentRequests()).containsExactly(Map.entry(p1, 4));
        }
    }

    @Test
    void aDataDirectoryFromBeforeTheCoordinationFilesOpensWithNoneOfThem() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 2, Map.of());
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
        }
        // A pre-SPI-5 store had neither of these, and an old-style lock file.
        Files.writeString(dir.resolve(".lock"), "");
        for (String file : List.of(FileCoordination.EPOCHS, FileCoordination.ASSIGNMENTS, FileCoordination.REASSIGNMENTS)) {
            Files.deleteIfExists(dir.resolve(file));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.topics()).containsExactly(orders);
            assertThat(store.assignments()).isEmpty();
            assertThat(store.reassignmentRequests()).isEmpty();
            assertThat(store.registerBroker(registration(1)).brokerEpoch()).isEqualTo(1);
            assertThat(elect(store).controllerEpoch()).isEqualTo(1);
        }
    }

    @Test
    void damagedCoordinationFilesFailOpenNamingTheFile() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(new TopicRecord("orders", UUID.randomUUID(), 1, Map.of()));
        }
        Map<String, List<String>> damaged = Map.of(
                FileCoordination.EPOCHS, List.of("{\"brokerEpoch\": -1, \"controllerEpoch\": 0}",
                        "{\"brokerEpoch\": 1}", "{\"brokerEpoch\": 1, \"controllerEpoch\": \"2\"", ""),
                FileCoordination.ASSIGNMENTS, List.of("{\"assignments\": {}}",
                        "{\"assignments\": [{\"topic\": \"orders\", \"topicId\": \"short\", \"version\": 0, "
                                + "\"partitions\": []}]}",
                        "{\"assignments\": [{\"topic\": \"orders\", \"topicId\": \"" + KafkaUuids.toText(UUID.randomUUID())
                                + "\", \"version\": 0, \"partitions\": [[1, 1]]}]}",
                        "{\"assignments\": [{\"topic\": \"orders\", \"topicId\": \"" + KafkaUuids.toText(UUID.randomUUID())
                                + "\", \"version\": 0, \"partitions\": [[1, -3, 5]]}]}",
                        "{\"assignments\": [{\"topic\": \"orders\", \"topicId\": \"" + KafkaUuids.toText(UUID.randomUUID())
                                + "\", \"version\": -1, \"partitions\": []}]}"),
                FileCoordination.REASSIGNMENTS, List.of("{\"requests\": [{\"topic\": \"orders\", \"partition\": 0}]}",
                        "{\"requests\": [{\"topic\": \"orders\", \"partition\": -1, \"target\": 1}]}",
                        "{\"requests\": [{\"topic\": \"orders\", \"partition\": 0, \"target\": -1}]}", "[]"));
        damaged.forEach((file, contents) -> {
            for (String content : contents) {
                Path path = dir.resolve(file);
                try {
                    Files.writeString(path, content);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).as(file + ": " + content)
                        .isInstanceOf(ClusterStateException.class).hasMessageContaining(path.toString());
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
    }
}
