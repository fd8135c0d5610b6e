package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.NotControllerException;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.VersionConflictException;
import io.kaas.cluster.files.internal.CoordinationJson.Epochs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordination state of a files store, which has one broker: its registration, its terms as the controller (it is
 * elected at once), the partition assignments and the partition move requests. Durable in three files of
 * {@code __cluster/} ({@link CoordinationJson}): the epoch counters (a broker epoch and a controller epoch raised by
 * every registration and every election, so both grow across restarts), the assignments with a version per topic, and
 * the move requests. A missing file is an empty state (a data directory of a store before SPI 5). Mutations run under
 * the store's {@link StoreLock} and replace memory only once their file is durable; listeners are told after.
 */
final class FileCoordination {
    static final String EPOCHS = "epochs.json";
    static final String ASSIGNMENTS = "assignments.json";
    static final String REASSIGNMENTS = "reassignments.json";
    private static final Logger LOG = LoggerFactory.getLogger(FileCoordination.class);

    private final Path dir;
    private final int nodeId;
    private final StoreLock lock;
    private final ListenerDispatch events;
    /** The store's topics by id, current (the store's own map). */
    private final Map<UUID, TopicRecord> topics;
    private final SingleBrokerSession session = new SingleBrokerSession();
    private Epochs epochs; // guarded by lock
    private ControllerListener controllerListener; // guarded by lock
    private volatile LiveBroker registered;
    private volatile ControllerTerm term;
    /** Immutable; replaced under the lock. */
    private volatile Map<UUID, TopicAssignment> assignments;
    /** Immutable; replaced under the lock. */
    private volatile Map<TopicPartitionRef, Integer> reassignments;

    private FileCoordination(Path dir, int nodeId, StoreLock lock, ListenerDispatch events,
                             Map<UUID, TopicRecord> topics, Epochs epochs,
                             Map<UUID, TopicAssignment> assignments, Map<TopicPartitionRef, Integer> reassignments) {
        this.dir = dir;
        this.nodeId = nodeId;
        this.lock = lock;
        this.events = events;
        this.topics = topics;
        this.epochs = epochs;
        this.assignments = Map.copyOf(assignments);
        this.reassignments = Map.copyOf(reassignments);
    }

    /**
     * Loads the coordination files of {@code dir}. An assignment of a topic that is not in {@code topicsById} is
     * dropped (a crash came between the removal of a topic's file and the rewrite of the assignments).
     *
     * @param topicsById the store's topics by id, kept current by the store as they change
     * @throws ClusterStateException naming the file if one is unreadable or damaged
     */
    static FileCoordination load(Path dir, int nodeId, StoreLock lock, ListenerDispatch events,
                                 Map<UUID, TopicRecord> topicsById) throws IOException {
        Epochs epochs = read(dir.resolve(EPOCHS), "the broker and controller epochs", CoordinationJson::readEpochs,
                Epochs.NONE);
        Map<UUID, TopicAssignment> assignments = new HashMap<>(read(dir.resolve(ASSIGNMENTS),
                "the partition assignments", CoordinationJson::readAssignments, Map.of()));
        assignments.values().removeIf(a -> {
            TopicRecord topic = topicsById.get(a.topicId());
            boolean orphan = topic == null || !topic.name().equals(a.topic());
            if (orphan) {
                LOG.atInfo().setMessage("Dropping the assignment of topic '{}' ({}) in {}: the topic was deleted")
                        .addArgument(a.topic()).addArgument(KafkaUuids.toText(a.topicId())).addArgument(dir)
                        .addKeyValue("topic", a.topic()).log();
            }
            return orphan;
        });
        Map<TopicPartitionRef, Integer> reassignments = read(dir.resolve(REASSIGNMENTS), "the partition move requests",
                CoordinationJson::readReassignments, Map.of());
        return new FileCoordination(dir, nodeId, lock, events, topicsById, epochs, assignments, reassignments);
    }

    SingleBrokerSession session() {
        return session;
    }

    /** @throws IllegalStateException if a broker is registered already (the store has one) */
    LiveBroker registerBroker(BrokerRegistration registration) {
        LiveBroker broker = lock.mutate("register broker " + registration.nodeId(), () -> {
            if (registered != null) {
                throw new IllegalStateException("broker " + registered.nodeId()
                        + " is registered already; the files store has one broker");
            }
            Epochs next = new Epochs(epochs.brokerEpoch() + 1, epochs.controllerEpoch());
            writeEpochs(next);
            registered = new LiveBroker(registration, next.brokerEpoch());
            return registered;
        });
        LOG.atInfo().setMessage("Registered broker {} with broker epoch {} in the files cluster store {}")
                .addArgument(broker.nodeId()).addArgument(broker.brokerEpoch()).addArgument(dir)
                .addKeyValue("nodeId", broker.nodeId()).addKeyValue("brokerEpoch", broker.brokerEpoch()).log();
        events.tell("brokersChanged", ClusterListener::brokersChanged);
        return broker;
    }

    Map<Integer, LiveBroker> liveBrokers() {
        LiveBroker broker = registered;
        return broker == null ? Map.of() : Map.of(broker.nodeId(), broker);
    }

    /** Elects this broker at once, under a new controller epoch. @throws IllegalStateException if called twice */
    void electController(ControllerListener listener) {
        ControllerTerm won = lock.mutate("elect the controller", () -> {
            if (controllerListener != null) {
                throw new IllegalStateException("this broker takes part in the controller election already");
            }
            Epochs next = new Epochs(epochs.brokerEpoch(), epochs.controllerEpoch() + 1);
            writeEpochs(next);
            LiveBroker broker = registered;
            controllerListener = listener;
            term = new ControllerTerm(broker != null ? broker.nodeId() : nodeId, next.controllerEpoch());
            return term;
        });
        LOG.atInfo().setMessage("Broker {} is the controller with controller epoch {} (the files cluster store has one "
                        + "broker)").addArgument(won.controllerId()).addArgument(won.controllerEpoch())
                .addKeyValue("controllerId", won.controllerId()).addKeyValue("controllerEpoch", won.controllerEpoch())
                .log();
        events.run("elected", () -> listener.elected(won));
    }

    Optional<ControllerTerm> controller() {
        return Optional.ofNullable(term);
    }

    Map<UUID, TopicAssignment> assignments() {
        return assignments;
    }

    /**
     * Checks the term, then every change against the stored version and topic, then writes them all at once.
     *
     * @throws IllegalArgumentException if a topic is named twice or a change lowers a partition's leader epoch
     */
    void updateAssignments(ControllerTerm writer, Collection<TopicAssignment> changes) {
        List<TopicAssignment> list = List.copyOf(changes);
        lock.mutate("update the assignments of " + list.size() + " topics", () -> {
            ControllerTerm current = term;
            if (!writer.equals(current)) {
                throw new NotControllerException("The controller term " + writer + " has ended; the current term is "
                        + (current == null ? "none (the store is closing)" : current));
            }
            Map<UUID, TopicAssignment> next = new HashMap<>(assignments);
            Set<UUID> seen = new HashSet<>();
            for (TopicAssignment change : list) {
                if (!seen.add(change.topicId())) {
                    throw new IllegalArgumentException("topic '" + change.topic() + "' is named twice");
                }
                TopicAssignment stored = checked(change);
                next.put(change.topicId(), new TopicAssignment(change.topicId(), change.topic(), change.partitions(),
                        stored == null ? 0 : stored.version() + 1));
            }
            if (!list.isEmpty()) {
                AtomicFiles.write(dir.resolve(ASSIGNMENTS), CoordinationJson.assignments(next));
                assignments = Map.copyOf(next);
            }
            return null;
        });
        if (!list.isEmpty()) {
            events.tell("assignmentsChanged", ClusterListener::assignmentsChanged);
        }
    }

    Map<TopicPartitionRef, Integer> reassignmentRequests() {
        return reassignments;
    }

    /** @throws IllegalArgumentException if a target is below -1 */
    void alterReassignmentRequests(Map<TopicPartitionRef, Integer> targets) {
        Map<TopicPartitionRef, Integer> copy = Map.copyOf(targets);
        copy.forEach((partition, target) -> {
            if (target < -1) {
                throw new IllegalArgumentException("the target of a move of " + partition + " is not a node id: "
                        + target);
            }
        });
        boolean changed = lock.mutate("alter " + copy.size() + " partition move requests", () -> {
            Map<TopicPartitionRef, Integer> next = new HashMap<>(reassignments);
            copy.forEach((partition, target) -> {
                if (target == -1) {
                    next.remove(partition);
                } else {
                    next.put(partition, target);
                }
            });
            return writeReassignments(next);
        });
        if (changed) {
            events.tell("reassignmentsChanged", ClusterListener::reassignmentsChanged);
        }
    }

    /**
     * Called under the lock once {@code topic}'s file is removed: removes its assignment, then its move requests, and
     * tells the listeners of what changed (after the store's own {@code topicsChanged}).
     */
    void topicDeleted(TopicRecord topic) throws IOException {
        boolean assigned = assignments.containsKey(topic.topicId());
        if (assigned) {
            Map<UUID, TopicAssignment> next = new HashMap<>(assignments);
            next.remove(topic.topicId());
            AtomicFiles.write(dir.resolve(ASSIGNMENTS), CoordinationJson.assignments(next));
            assignments = Map.copyOf(next);
            events.tell("assignmentsChanged", ClusterListener::assignmentsChanged);
        }
        Map<TopicPartitionRef, Integer> next = new HashMap<>(reassignments);
        next.keySet().removeIf(p -> p.topic().equals(topic.name()));
        if (writeReassignments(next)) {
            events.tell("reassignmentsChanged", ClusterListener::reassignmentsChanged);
        }
    }

    /** Called once the store's lock is closed: the registration and the term end; listeners are told. Idempotent. */
    void close() {
        if (!session.leaseValid()) {
            return;
        }
        session.close();
        LiveBroker broker = registered;
        ControllerTerm ended = term;
        ControllerListener elected = controllerListener;
        registered = null;
        term = null;
        if (ended != null && elected != null) {
            events.run("resigned", () -> elected.resigned(ended));
        }
        if (broker != null) {
            events.tell("brokersChanged", ClusterListener::brokersChanged);
        }
        events.tell("sessionChanged", l -> l.sessionChanged(SessionState.CLOSED));
    }

    /** The stored assignment {@code change} replaces (null if none). @throws VersionConflictException if stale */
    private TopicAssignment checked(TopicAssignment change) {
        TopicRecord topic = topics.get(change.topicId());
        if (topic == null || !topic.name().equals(change.topic())) {
            throw new VersionConflictException("Topic '" + change.topic() + "' (" + KafkaUuids.toText(change.topicId())
                    + ") does not exist");
        }
        if (change.partitions().size() != topic.partitions()) {
            throw new VersionConflictException("Topic '" + change.topic() + "' has " + topic.partitions()
                    + " partitions, the assignment names " + change.partitions().size());
        }
        TopicAssignment stored = assignments.get(change.topicId());
        long version = stored == null ? TopicAssignment.NEW : stored.version();
        if (change.version() != version) {
            throw new VersionConflictException("The assignment of topic '" + change.topic() + "' is at version "
                    + version + ", not " + change.version());
        }
        if (stored != null) {
            for (int i = 0; i < stored.partitions().size(); i++) {
                PartitionLeader before = stored.partition(i);
                PartitionLeader after = change.partition(i);
                if (after.leaderEpoch() < before.leaderEpoch()) {
                    throw new IllegalArgumentException("The assignment of " + change.topic() + "-" + i
                            + " would lower its leader epoch from " + before.leaderEpoch() + " to "
                            + after.leaderEpoch());
                }
            }
        }
        return stored;
    }

    /** Writes {@code next} if it differs from the stored requests. @return whether it did */
    private boolean writeReassignments(Map<TopicPartitionRef, Integer> next) throws IOException {
        if (next.equals(reassignments)) {
            return false;
        }
        AtomicFiles.write(dir.resolve(REASSIGNMENTS), CoordinationJson.reassignments(next));
        reassignments = Map.copyOf(next);
        return true;
    }

    private void writeEpochs(Epochs next) throws IOException {
        AtomicFiles.write(dir.resolve(EPOCHS), CoordinationJson.epochs(next));
        epochs = next;
    }

    private interface Reader<T> {
        T read(byte[] bytes) throws IOException;
    }

    private static <T> T read(Path file, String what, Reader<T> reader, T absent) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return absent;
        }
        try {
            return reader.read(bytes);
        } catch (IOException e) {
            throw new ClusterStateException("Cannot read " + what + " from " + file + " (damaged; restore it from a "
                    + "backup): " + e.getMessage(), e);
        }
    }
}
