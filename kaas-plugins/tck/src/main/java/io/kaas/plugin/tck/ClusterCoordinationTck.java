package io.kaas.plugin.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.BrokerIdInUseException;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClientQuotaEntity;
import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.NotControllerException;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.VersionConflictException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordination contract of SPI 5 every {@link ClusterStateStore} passes: the session and its lease, broker
 * registrations and their broker epochs, the controller election and its terms, partition assignments written by
 * compare-and-set under a term, partition move requests and the {@link ClusterListener} calls. Extend it and implement
 * {@link #openStore(int)} and {@link #supportsSeveralBrokers()}; a store whose sessions can be ended from outside
 * (ZooKeeper) implements {@link #expireSession} too, and the cases that need it run.
 *
 * <p>A store for one broker only (the {@code files} store) answers {@code false} to {@link #supportsSeveralBrokers()}:
 * the cases with a second live broker are skipped, the others run with one store at a time (a second store is opened
 * only after the first one closed). Waits for what another store sees are bounded ({@link #awaitTimeout()}).
 */
@Timeout(120)
public abstract class ClusterCoordinationTck {
    @TempDir
    protected Path dataDir;

    /** The first broker's store (node id 1); opened before each test, closed after it unless a test closed it. */
    protected ClusterStateStore store;

    private final List<ClusterStateStore> opened = new CopyOnWriteArrayList<>();

    /**
     * Opens a new store for broker {@code nodeId} on the same backend as every other store of this test (the same
     * {@link #dataDir}, the same ZooKeeper chroot...): a second broker of the same cluster, or the same broker after a
     * restart. Each test starts on an empty backend.
     */
    protected abstract ClusterStateStore openStore(int nodeId) throws IOException;

    /** Whether several stores may be open on one backend at once (several live brokers). */
    protected abstract boolean supportsSeveralBrokers();

    /**
     * Ends {@code target}'s session from outside, as the backend does when it stops hearing from a broker (for
     * ZooKeeper: the server expires it). Returns once the backend has ended it; the store notices by itself. A store
     * without sessions leaves the default, and the cases that need it are skipped.
     */
    protected void expireSession(ClusterStateStore target) throws Exception {
        Assumptions.abort("the store has no sessions that can be expired");
    }

    /** How long to wait for a change to show in another store or for a listener call. */
    protected Duration awaitTimeout() {
        return Duration.ofSeconds(20);
    }

    @BeforeEach
    final void openFirstStore() throws IOException {
        store = open(1);
    }

    @AfterEach
    final void closeEveryStore() {
        for (ClusterStateStore s : opened) {
            try {
                s.close();
            } catch (RuntimeException e) {
                // closed by the test already, or failing while closing: the next test starts on a new backend
            }
        }
        opened.clear();
    }

    /** Opens a store with {@link #openStore} and closes it after the test. */
    protected ClusterStateStore open(int nodeId) throws IOException {
        ClusterStateStore s = openStore(nodeId);
        opened.add(s);
        return s;
    }

    /** Closes {@code s} now (it is not closed again after the test). */
    protected void close(ClusterStateStore s) {
        opened.remove(s);
        s.close();
    }

    private void assumeSeveralBrokers() {
        Assumptions.assumeTrue(supportsSeveralBrokers(), "the store serves one broker at a time");
    }

    /**
     * Broker {@code nodeId}'s registration: an odd node registers its software version and start time, an even one
     * none (as a broker that did not record them): a store keeps both as they were registered.
     */
    protected static BrokerRegistration registration(int nodeId) {
        boolean even = nodeId % 2 == 0;
        return new BrokerRegistration(nodeId, List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT", "127.0.0.1",
                9000 + nodeId), new RegisteredEndpoint("INTERNAL", "SASL_SSL", "broker-" + nodeId + ".local", 19000 + nodeId)),
                even ? Optional.of("rack-b") : Optional.empty(), "host-" + nodeId, 4000L + nodeId,
                even ? Optional.empty() : Optional.of("1.2." + nodeId),
                even ? OptionalLong.empty() : OptionalLong.of(1_700_000_000_000L + nodeId));
    }

    private static TopicRecord topic(String name, int partitions) {
        return new TopicRecord(name, UUID.randomUUID(), partitions, Map.of());
    }

    private static TopicAssignment assignment(TopicRecord t, LiveBroker writer) {
        List<PartitionLeader> leaders = new ArrayList<>();
        for (int p = 0; p < t.partitions(); p++) {
            leaders.add(new PartitionLeader(writer.nodeId(), 1, writer.brokerEpoch()));
        }
        return new TopicAssignment(t.topicId(), t.name(), leaders, TopicAssignment.NEW);
    }

    private static TopicAssignment moved(TopicAssignment stored, LiveBroker to) {
        List<PartitionLeader> leaders = new ArrayList<>();
        for (PartitionLeader l : stored.partitions()) {
            leaders.add(l.handedTo(to));
        }
        return stored.with(leaders);
    }

    /** Elects {@code s} (the only candidate) and answers its term. */
    private ControllerTerm electAlone(ClusterStateStore s, RecordingController controller) {
        s.electController(controller);
        await().atMost(awaitTimeout()).until(() -> controller.current() != null);
        return controller.current();
    }

    // ---- the session and its lease ----

    @Test
    public void anOpenStoreIsConnectedAndItsLeaseHolds() {
        assertThat(store.session().state()).isEqualTo(SessionState.CONNECTED);
        assertThat(store.session().leaseValid()).isTrue();
        assertThat(store.session().sessionTimeoutMs()).isNotNegative();
        if (store.session().sessionTimeoutMs() > 0) {
            assertThat(System.nanoTime() - store.session().leaseDeadlineNanos()).isNegative();
        }
    }

    @Test
    public void aClosedStoreHoldsNoLease() {
        var session = store.session();
        close(store);
        assertThat(session.state()).isEqualTo(SessionState.CLOSED);
        assertThat(session.leaseValid()).isFalse();
    }

    // ---- broker registrations ----

    @Test
    public void aRegisteredBrokerIsLiveWithWhatItRegistered() {
        LiveBroker me = store.registerBroker(registration(1));
        assertThat(me.registration()).isEqualTo(registration(1));
        assertThat(me.brokerEpoch()).isNotNegative();
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(store.liveBrokers()).containsExactly(Map.entry(1, me)));
    }

    @Test
    public void aRestartedBrokerRegistersUnderAHigherBrokerEpoch() throws IOException {
        LiveBroker first = store.registerBroker(registration(1));
        close(store);
        ClusterStateStore restarted = open(1);
        LiveBroker second = restarted.registerBroker(registration(1));
        assertThat(second.brokerEpoch()).isGreaterThan(first.brokerEpoch());
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(restarted.liveBrokers()).containsExactly(Map.entry(1, second)));
    }

    @Test
    public void aSecondLiveRegistrationOfTheSameNodeIdIsBrokerIdInUse() throws IOException {
        assumeSeveralBrokers();
        LiveBroker first = store.registerBroker(registration(1));
        ClusterStateStore other = open(1);
        assertThatThrownBy(() -> other.registerBroker(registration(1))).isInstanceOf(BrokerIdInUseException.class)
                .hasMessageContaining("1");
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(other.liveBrokers()).containsExactly(Map.entry(1, first)));
        assertThat(store.liveBrokers()).containsExactly(Map.entry(1, first));
    }

    @Test
    public void everyBrokerSeesTheOthersRegisterAndLeave() throws IOException {
        assumeSeveralBrokers();
        ClusterStateStore two = open(2);
        RecordingListener listener = new RecordingListener();
        two.addListener(listener);
        LiveBroker b1 = store.registerBroker(registration(1));
        LiveBroker b2 = two.registerBroker(registration(2));
        await().atMost(awaitTimeout()).untilAsserted(() -> {
            assertThat(store.liveBrokers()).isEqualTo(Map.of(1, b1, 2, b2));
            assertThat(two.liveBrokers()).isEqualTo(Map.of(1, b1, 2, b2));
        });
        assertThat(b1.brokerEpoch()).isNotEqualTo(b2.brokerEpoch());
        int before = listener.count("brokers");
        close(store);
        await().atMost(awaitTimeout()).untilAsserted(() -> {
            assertThat(two.liveBrokers()).isEqualTo(Map.of(2, b2));
            assertThat(listener.count("brokers")).isGreaterThan(before);
        });
    }

    // ---- the controller election ----

    @Test
    public void theOnlyCandidateIsElectedAndKnownAsTheController() {
        RecordingController controller = new RecordingController();
        ControllerTerm term = electAlone(store, controller);
        assertThat(term.controllerId()).isEqualTo(1);
        assertThat(term.controllerEpoch()).isPositive();
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(store.controller()).contains(term));
    }

    @Test
    public void termsGrowAcrossRestartsAndClosingResignsTheTerm() throws IOException {
        RecordingController first = new RecordingController();
        ControllerTerm t1 = electAlone(store, first);
        close(store);
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(first.resigned).containsExactly(t1));
        ClusterStateStore restarted = open(1);
        RecordingController second = new RecordingController();
        ControllerTerm t2 = electAlone(restarted, second);
        assertThat(t2.controllerEpoch()).isGreaterThan(t1.controllerEpoch());
    }

    @Test
    public void exactlyOneOfTwoCandidatesIsElectedAndTheOtherTakesOverWhenItCloses() throws IOException {
        assumeSeveralBrokers();
        ClusterStateStore two = open(2);
        RecordingController c1 = new RecordingController();
        RecordingController c2 = new RecordingController();
        store.electController(c1);
        two.electController(c2);
        await().atMost(awaitTimeout()).until(() -> c1.current() != null || c2.current() != null);
        boolean oneWon = c1.current() != null;
        ClusterStateStore winner = oneWon ? store : two;
        ClusterStateStore loser = oneWon ? two : store;
        RecordingController winnerController = oneWon ? c1 : c2;
        RecordingController loserController = oneWon ? c2 : c1;
        ControllerTerm won = winnerController.current();
        await().atMost(awaitTimeout()).untilAsserted(() -> {
            assertThat(winner.controller()).contains(won);
            assertThat(loser.controller()).contains(won);
        });
        assertThat(loserController.elected).isEmpty();

        close(winner);
        await().atMost(awaitTimeout()).until(() -> loserController.current() != null);
        ControllerTerm next = loserController.current();
        assertThat(next.controllerId()).isEqualTo(oneWon ? 2 : 1);
        assertThat(next.controllerEpoch()).isGreaterThan(won.controllerEpoch());
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(loser.controller()).contains(next));
    }

    @Test
    public void aControllerWhoseSessionExpiresResignsAndAnotherIsElected() throws Exception {
        assumeSeveralBrokers();
        RecordingController c1 = new RecordingController();
        ControllerTerm t1 = electAlone(store, c1);
        ClusterStateStore two = open(2);
        RecordingController c2 = new RecordingController();
        two.electController(c2);

        expireSession(store);

        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(c1.resigned).contains(t1));
        await().atMost(awaitTimeout()).until(() -> c2.current() != null);
        assertThat(c2.current().controllerId()).isEqualTo(2);
        assertThat(c2.current().controllerEpoch()).isGreaterThan(t1.controllerEpoch());
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(store.controller()).contains(c2.current()));
        assertThat(c1.current()).isNull();
    }

    // ---- partition assignments ----

    @Test
    public void assignmentsAreCreatedThenReplacedOverTheirVersion() {
        LiveBroker me = store.registerBroker(registration(1));
        ControllerTerm term = electAlone(store, new RecordingController());
        TopicRecord orders = topic("orders", 3);
        store.createTopic(orders);
        assertThat(store.assignments()).doesNotContainKey(orders.topicId());

        store.updateAssignments(term, List.of(assignment(orders, me)));
        TopicAssignment stored = store.assignments().get(orders.topicId());
        assertThat(stored.version()).isNotEqualTo(TopicAssignment.NEW);
        assertThat(stored.topic()).isEqualTo("orders");
        assertThat(stored.partitions()).containsExactly(new PartitionLeader(1, 1, me.brokerEpoch()),
                new PartitionLeader(1, 1, me.brokerEpoch()), new PartitionLeader(1, 1, me.brokerEpoch()));

        TopicAssignment next = stored.with(List.of(stored.partition(0).handedTo(me), PartitionLeader.none(2),
                stored.partition(2)));
        store.updateAssignments(term, List.of(next));
        TopicAssignment again = store.assignments().get(orders.topicId());
        assertThat(again.version()).isNotEqualTo(stored.version());
        assertThat(again.partitions()).containsExactly(new PartitionLeader(1, 2, me.brokerEpoch()),
                PartitionLeader.none(2), new PartitionLeader(1, 1, me.brokerEpoch()));
    }

    @Test
    public void aStaleVersionIsAConflictAndNothingOfTheWriteIsStored() {
        LiveBroker me = store.registerBroker(registration(1));
        ControllerTerm term = electAlone(store, new RecordingController());
        TopicRecord a = topic("a", 1);
        TopicRecord b = topic("b", 2);
        store.createTopic(a);
        store.createTopic(b);
        store.updateAssignments(term, List.of(assignment(a, me)));
        TopicAssignment stale = store.assignments().get(a.topicId());
        store.updateAssignments(term, List.of(moved(stale, me)));
        TopicAssignment current = store.assignments().get(a.topicId());

        // a stale version of a, with a new b: neither is written
        assertThatThrownBy(() -> store.updateAssignments(term, List.of(moved(stale, me), assignment(b, me))))
                .isInstanceOf(VersionConflictException.class);
        // a NEW assignment of a topic that has one is a conflict too
        assertThatThrownBy(() -> store.updateAssignments(term, List.of(assignment(b, me), assignment(a, me))))
                .isInstanceOf(VersionConflictException.class);
        assertThat(store.assignments()).containsOnlyKeys(a.topicId());
        assertThat(store.assignments().get(a.topicId())).isEqualTo(current);
    }

    @Test
    public void aTermThatIsNotTheCurrentOneIsRefusedAndNothingIsStored() throws IOException {
        LiveBroker me = store.registerBroker(registration(1));
        ControllerTerm term = electAlone(store, new RecordingController());
        TopicRecord a = topic("a", 1);
        TopicRecord b = topic("b", 1);
        store.createTopic(a);
        store.createTopic(b);
        ControllerTerm never = new ControllerTerm(term.controllerId(), term.controllerEpoch() + 1);
        assertThatThrownBy(() -> store.updateAssignments(never, List.of(assignment(a, me), assignment(b, me))))
                .isInstanceOf(NotControllerException.class);
        ControllerTerm otherBroker = new ControllerTerm(term.controllerId() + 1, term.controllerEpoch());
        assertThatThrownBy(() -> store.updateAssignments(otherBroker, List.of(assignment(a, me))))
                .isInstanceOf(NotControllerException.class);
        assertThat(store.assignments()).isEmpty();

        // a term of an earlier run of the same broker is over
        close(store);
        ClusterStateStore restarted = open(1);
        LiveBroker again = restarted.registerBroker(registration(1));
        ControllerTerm newTerm = electAlone(restarted, new RecordingController());
        assertThatThrownBy(() -> restarted.updateAssignments(term, List.of(assignment(a, again))))
                .isInstanceOf(NotControllerException.class);
        assertThat(restarted.assignments()).isEmpty();
        restarted.updateAssignments(newTerm, List.of(assignment(a, again), assignment(b, again)));
        assertThat(restarted.assignments()).containsOnlyKeys(a.topicId(), b.topicId());
    }

    @Test
    public void theTermOfAControllerThatClosedIsRefusedToItsSuccessor() throws IOException {
        assumeSeveralBrokers();
        store.registerBroker(registration(1));
        ControllerTerm t1 = electAlone(store, new RecordingController());
        ClusterStateStore two = open(2);
        LiveBroker b2 = two.registerBroker(registration(2));
        RecordingController c2 = new RecordingController();
        two.electController(c2);
        TopicRecord a = topic("a", 2);
        two.createTopic(a);
        close(store);
        await().atMost(awaitTimeout()).until(() -> c2.current() != null);

        assertThatThrownBy(() -> two.updateAssignments(t1, List.of(assignment(a, b2))))
                .isInstanceOf(NotControllerException.class);
        assertThat(two.assignments()).isEmpty();
        two.updateAssignments(c2.current(), List.of(assignment(a, b2)));
        assertThat(two.assignments()).containsOnlyKeys(a.topicId());
    }

    @Test
    public void deletingATopicRemovesItsAssignmentAndAnAssignmentOfAnUnknownTopicIsAConflict() {
        LiveBroker me = store.registerBroker(registration(1));
        ControllerTerm term = electAlone(store, new RecordingController());
        TopicRecord gone = topic("gone", 2);
        TopicRecord kept = topic("kept", 1);
        store.createTopic(gone);
        store.createTopic(kept);
        store.updateAssignments(term, List.of(assignment(gone, me), assignment(kept, me)));
        store.deleteTopic("gone");
        assertThat(store.assignments()).containsOnlyKeys(kept.topicId());

        assertThatThrownBy(() -> store.updateAssignments(term, List.of(assignment(gone, me))))
                .isInstanceOf(VersionConflictException.class);
        TopicRecord never = topic("never-created", 1);
        assertThatThrownBy(() -> store.updateAssignments(term, List.of(assignment(never, me))))
                .isInstanceOf(VersionConflictException.class);
        assertThat(store.assignments()).containsOnlyKeys(kept.topicId());
    }

    @Test
    public void assignmentsSurviveARestartWithTheirVersions() throws IOException {
        LiveBroker me = store.registerBroker(registration(1));
        ControllerTerm term = electAlone(store, new RecordingController());
        TopicRecord a = topic("a", 2);
        store.createTopic(a);
        store.updateAssignments(term, List.of(assignment(a, me)));
        TopicAssignment stored = store.assignments().get(a.topicId());
        close(store);

        ClusterStateStore restarted = open(1);
        LiveBroker again = restarted.registerBroker(registration(1));
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(restarted.assignments()).containsEntry(a.topicId(), stored));
        ControllerTerm newTerm = electAlone(restarted, new RecordingController());
        restarted.updateAssignments(newTerm, List.of(moved(stored, again)));
        assertThat(restarted.assignments().get(a.topicId()).partitions())
                .containsOnly(new PartitionLeader(1, 2, again.brokerEpoch()));
    }

    @Test
    public void anotherBrokerSeesTheControllersAssignments() throws IOException {
        assumeSeveralBrokers();
        LiveBroker me = store.registerBroker(registration(1));
        ControllerTerm term = electAlone(store, new RecordingController());
        ClusterStateStore two = open(2);
        RecordingListener listener = new RecordingListener();
        two.addListener(listener);
        TopicRecord a = topic("a", 2);
        store.createTopic(a);
        store.updateAssignments(term, List.of(assignment(a, me)));
        TopicAssignment stored = store.assignments().get(a.topicId());
        await().atMost(awaitTimeout()).untilAsserted(() -> {
            assertThat(two.assignments()).containsEntry(a.topicId(), stored);
            assertThat(listener.count("assignments")).isPositive();
        });
    }

    // ---- partition move requests ----

    @Test
    public void moveRequestsAreSetReplacedAndRemoved() {
        TopicPartitionRef t0 = new TopicPartitionRef("t", 0);
        TopicPartitionRef t1 = new TopicPartitionRef("t", 1);
        TopicPartitionRef u0 = new TopicPartitionRef("u", 0);
        assertThat(store.reassignmentRequests()).isEmpty();
        store.alterReassignmentRequests(Map.of(t0, 2, t1, 3));
        assertThat(store.reassignmentRequests()).isEqualTo(Map.of(t0, 2, t1, 3));
        store.alterReassignmentRequests(Map.of(t0, 4, t1, -1, u0, 1));
        assertThat(store.reassignmentRequests()).isEqualTo(Map.of(t0, 4, u0, 1));
        var snapshot = store.reassignmentRequests();
        store.alterReassignmentRequests(Map.of(t0, -1, u0, -1, new TopicPartitionRef("never", 0), -1));
        assertThat(store.reassignmentRequests()).isEmpty();
        assertThat(snapshot).isEqualTo(Map.of(t0, 4, u0, 1));
    }

    @Test
    public void anotherBrokerSeesMoveRequests() throws IOException {
        assumeSeveralBrokers();
        ClusterStateStore two = open(2);
        RecordingListener listener = new RecordingListener();
        two.addListener(listener);
        TopicPartitionRef t0 = new TopicPartitionRef("t", 0);
        store.alterReassignmentRequests(Map.of(t0, 2));
        await().atMost(awaitTimeout()).untilAsserted(() -> {
            assertThat(two.reassignmentRequests()).isEqualTo(Map.of(t0, 2));
            assertThat(listener.count("reassignments")).isPositive();
        });
        two.alterReassignmentRequests(Map.of(t0, -1));
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(store.reassignmentRequests()).isEmpty());
    }

    // ---- listeners ----

    /** The store that sees the changes: another broker's where the store serves several, else the same one. */
    private ClusterStateStore observer() throws IOException {
        return supportsSeveralBrokers() ? open(2) : store;
    }

    @Test
    public void listenersAreToldOfEveryKindOfChange() throws IOException {
        ClusterStateStore observer = observer();
        RecordingListener listener = new RecordingListener();
        observer.addListener(listener);
        LiveBroker me = store.registerBroker(registration(1));
        awaitCall(listener, "brokers");

        TopicRecord a = topic("a", 1);
        store.createTopic(a);
        awaitCall(listener, "topics");
        int topicCalls = listener.count("topics");
        store.updateTopicConfigs("a", Map.of("retention.ms", "1000"));
        await().atMost(awaitTimeout()).until(() -> listener.count("topics") > topicCalls);
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.topic("a")).contains(a.withConfigs(Map.of("retention.ms", "1000"))));

        ControllerTerm term = electAlone(store, new RecordingController());
        store.updateAssignments(term, List.of(assignment(a, me)));
        awaitCall(listener, "assignments");

        store.alterReassignmentRequests(Map.of(new TopicPartitionRef("a", 0), 1));
        awaitCall(listener, "reassignments");

        AclBinding acl = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "a", PatternType.LITERAL),
                new AccessControlEntry(KafkaPrincipal.parse("User:alice"), "*", Operation.READ, AclPermissionType.ALLOW));
        store.addAcls(List.of(acl));
        awaitCall(listener, "acls");
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.acls()).containsExactly(acl));

        ScramCredentialRecord credential = new ScramCredentialRecord(new ScramCredentialRef("alice", "SCRAM-SHA-256"),
                new byte[] {1, 2}, new byte[] {3, 4}, new byte[] {5, 6}, 4096);
        store.alterScramCredentials(List.of(credential), List.of());
        awaitCall(listener, "scram");
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.scramCredentials("alice")).containsExactly(credential));

        store.updateGroupConfigs("g", Map.of("consumer.session.timeout.ms", "50000"));
        awaitCall(listener, "groupConfigs");
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.groupConfigs("g"))
                .isEqualTo(Map.of("consumer.session.timeout.ms", "50000")));

        ClientQuotaEntity bob = ClientQuotaEntity.of(ClientQuotaEntity.USER, "bob");
        store.alterClientQuotas(Map.of(bob, Map.of("producer_byte_rate", Optional.of(1024.0))));
        awaitCall(listener, "clientQuotas");
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.clientQuotas())
                .isEqualTo(Map.of(bob, Map.of("producer_byte_rate", 1024.0))));

        store.updateBrokerConfigs(OptionalInt.empty(), Map.of("log.retention.ms", "60000"));
        awaitCall(listener, "brokerConfigs");
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.brokerConfigs(OptionalInt.empty()))
                .isEqualTo(Map.of("log.retention.ms", "60000")));
        int brokerConfigCalls = listener.count("brokerConfigs");
        store.updateBrokerConfigs(OptionalInt.of(2), Map.of("message.max.bytes", "2000"));
        await().atMost(awaitTimeout()).until(() -> listener.count("brokerConfigs") > brokerConfigCalls);
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.brokerConfigs(OptionalInt.of(2)))
                .isEqualTo(Map.of("message.max.bytes", "2000")));

        int topics = listener.count("topics");
        store.deleteTopic("a");
        await().atMost(awaitTimeout()).until(() -> listener.count("topics") > topics);
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(observer.assignments()).doesNotContainKey(a.topicId()));
    }

    @Test
    public void aRemovedListenerIsNoLongerCalled() throws IOException {
        RecordingListener listener = new RecordingListener();
        store.addListener(listener);
        store.createTopic(topic("a", 1));
        awaitCall(listener, "topics");
        store.removeListener(listener);
        RecordingListener still = new RecordingListener();
        store.addListener(still);
        int before = listener.count("topics");
        store.createTopic(topic("b", 1));
        awaitCall(still, "topics");
        assertThat(listener.count("topics")).isEqualTo(before);
    }

    private void awaitCall(RecordingListener listener, String kind) {
        await().atMost(awaitTimeout()).until(() -> listener.count(kind) > 0);
    }

    // ---- sessions that end ----

    @Test
    public void anotherBrokerSeesAnExpiredRegistrationReplacedByTheNewOne() throws Exception {
        assumeSeveralBrokers();
        LiveBroker first = store.registerBroker(registration(1));
        ClusterStateStore two = open(2);
        await().atMost(awaitTimeout()).untilAsserted(() -> assertThat(two.liveBrokers()).containsEntry(1, first));

        expireSession(store);

        await().atMost(awaitTimeout()).untilAsserted(() -> {
            assertThat(two.liveBrokers()).containsKey(1);
            assertThat(two.liveBrokers().get(1).brokerEpoch()).isGreaterThan(first.brokerEpoch());
            assertThat(two.liveBrokers().get(1).registration()).isEqualTo(registration(1));
        });
    }

    @Test
    public void afterItsSessionExpiresAStoreRegistersAgainUnderAHigherBrokerEpoch() throws Exception {
        LiveBroker first = store.registerBroker(registration(1));
        RecordingListener listener = new RecordingListener();
        store.addListener(listener);

        expireSession(store);

        await().atMost(awaitTimeout()).untilAsserted(() -> {
            assertThat(listener.sessionStates).contains(SessionState.EXPIRED);
            assertThat(store.session().state()).isEqualTo(SessionState.CONNECTED);
            assertThat(store.liveBrokers()).containsKey(1);
            assertThat(store.liveBrokers().get(1).brokerEpoch()).isGreaterThan(first.brokerEpoch());
        });
        List<SessionState> states = List.copyOf(listener.sessionStates);
        assertThat(states.get(states.size() - 1)).isEqualTo(SessionState.CONNECTED);
        assertThat(states.indexOf(SessionState.EXPIRED)).isLessThan(states.lastIndexOf(SessionState.CONNECTED));
        assertThat(store.liveBrokers().get(1).registration()).isEqualTo(registration(1));
        assertThat(store.session().leaseValid()).isTrue();
    }

    /** Records the terms a store was given and ended. */
    protected static final class RecordingController implements ControllerListener {
        public final List<ControllerTerm> elected = new CopyOnWriteArrayList<>();
        public final List<ControllerTerm> resigned = new CopyOnWriteArrayList<>();

        @Override
        public void elected(ControllerTerm term) {
            elected.add(term);
        }

        @Override
        public void resigned(ControllerTerm term) {
            resigned.add(term);
        }

        /** The term that began and has not ended, or null. */
        public ControllerTerm current() {
            for (int i = elected.size() - 1; i >= 0; i--) {
                ControllerTerm t = elected.get(i);
                if (!resigned.contains(t)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** Counts the calls of each kind and records the session states reported. */
    protected static final class RecordingListener implements ClusterListener {
        private final Map<String, AtomicInteger> calls = Collections.synchronizedMap(new HashMap<>());
        public final List<SessionState> sessionStates = new CopyOnWriteArrayList<>();

        public int count(String kind) {
            AtomicInteger n = calls.get(kind);
            return n == null ? 0 : n.get();
        }

        private void called(String kind) {
            calls.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void brokersChanged() {
            called("brokers");
        }

        @Override
        public void topicsChanged() {
            called("topics");
        }

        @Override
        public void assignmentsChanged() {
            called("assignments");
        }

        @Override
        public void reassignmentsChanged() {
            called("reassignments");
        }

        @Override
        public void aclsChanged() {
            called("acls");
        }

        @Override
        public void scramCredentialsChanged() {
            called("scram");
        }

        @Override
        public void groupConfigsChanged() {
            called("groupConfigs");
        }

        @Override
        public void clientQuotasChanged() {
            called("clientQuotas");
        }

        @Override
        public void brokerConfigsChanged() {
            called("brokerConfigs");
        }

        @Override
        public void sessionChanged(SessionState state) {
            sessionStates.add(state);
            called("session");
        }
    }
}
