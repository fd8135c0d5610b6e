package io.kaas.broker.cluster;

import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.NotControllerException;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.VersionConflictException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's work while this broker holds the term: on every change of brokers, topics or move requests, the
 * {@link AssignmentPlan} is computed and written with the term (compare-and-set on each topic's version). A conflict
 * reads the state again and computes anew; a refused term stops the work until the next election. Everything runs on
 * one thread ({@code kaas-controller}), passes debounced by a few milliseconds.
 */
public final class Controller implements ControllerListener, ClusterListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);
    /** How long a pass waits for more changes to arrive with the first one. */
    static final long DEBOUNCE_MS = 5;
    /** The pause before a pass that failed on the store is tried again. */
    static final long RETRY_MS = 500;

    private final ClusterStateStore store;
    private final int nodeId;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final CompletableFuture<Void> firstPass = new CompletableFuture<>();
    private volatile ControllerTerm term;
    /** The live node ids the last pass saw (controller thread only): a new one asks for a rebalance. */
    private Set<Integer> lastLive = Set.of();
    /**
     * When each released partition was first known released to this controller (controller thread only): written by
     * this term's pass, or found so (an earlier controller's hand-over, counted from when this one saw it).
     */
    private final Map<TopicPartitionRef, Long> releasedAt = new HashMap<>();
    private boolean rebalanceNext = true;

    public Controller(ClusterStateStore store, int nodeId) {
        this.store = store;
        this.nodeId = nodeId;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kaas-controller-" + nodeId);
            t.setDaemon(true);
            return t;
        });
    }

    /** The term this broker holds now, if it is the controller. */
    public java.util.Optional<ControllerTerm> term() {
        return java.util.Optional.ofNullable(term);
    }

    /** Completes after the first pass of a term that had nothing left to write. */
    public CompletableFuture<Void> firstPass() {
        return firstPass;
    }

    @Override
    public void elected(ControllerTerm term) {
        LOG.atInfo().addKeyValue("nodeId", nodeId).addKeyValue("controllerEpoch", term.controllerEpoch())
            .log("broker {} is the controller (controller epoch {})", nodeId, term.controllerEpoch());
        thread.execute(() -> rebalanceNext = true);
        this.term = term;
        schedule(0);
    }

    @Override
    public void resigned(ControllerTerm ended) {
        if (ended.equals(term)) {
            term = null;
        }
        LOG.atInfo().addKeyValue("nodeId", nodeId).addKeyValue("controllerEpoch", ended.controllerEpoch())
            .log("broker {} is no longer the controller (controller epoch {} ended)", nodeId, ended.controllerEpoch());
    }

    @Override
    public void brokersChanged() {
        schedule(DEBOUNCE_MS);
    }

    @Override
    public void topicsChanged() {
        schedule(DEBOUNCE_MS);
    }

    @Override
    public void assignmentsChanged() {
        schedule(DEBOUNCE_MS);
    }

    @Override
    public void reassignmentsChanged() {
        schedule(DEBOUNCE_MS);
    }

    @Override
    public void sessionChanged(SessionState state) {
        schedule(DEBOUNCE_MS);
    }

    /** Asks for a pass soon (now, if this broker is not the controller, nothing happens). */
    public void schedule(long delayMs) {
        if (term != null && scheduled.compareAndSet(false, true)) {
            try {
                thread.schedule(this::pass, delayMs, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                scheduled.set(false);
            }
        }
    }

    private void pass() {
        scheduled.set(false);
        ControllerTerm t = term;
        if (t == null) {
            return;
        }
        try {
            Map<Integer, LiveBroker> live = store.liveBrokers();
            boolean joined = !lastLive.containsAll(live.keySet());
            Map<java.util.UUID, TopicAssignment> stored = store.assignments();
            Set<TopicPartitionRef> held = held(stored);
            AssignmentPlan plan = AssignmentPlan.of(store.topics(), stored, live,
                store.reassignmentRequests(), rebalanceNext || joined, held);
            if (!plan.changes().isEmpty()) {
                store.updateAssignments(t, plan.changes());
                long now = System.nanoTime();
                for (TopicAssignment a : plan.changes()) {
                    for (int p = 0; p < a.partitions().size(); p++) {
                        if (AssignmentPlan.isReleased(a.partition(p))) {
                            releasedAt.putIfAbsent(new TopicPartitionRef(a.topic(), p), now);
                        }
                    }
                }
                logChanges(plan.changes(), live);
            }
            scheduleEndOfHandOvers();
            if (!plan.movesDone().isEmpty()) {
                Map<TopicPartitionRef, Integer> done = new HashMap<>();
                plan.movesDone().forEach(ref -> done.put(ref, -1));
                store.alterReassignmentRequests(done);
            }
            lastLive = Set.copyOf(live.keySet());
            rebalanceNext = false;
            if (plan.isEmpty()) {
                firstPass.complete(null);
            }
        } catch (VersionConflictException e) {
            LOG.atDebug().addKeyValue("reason", e.getMessage()).log("assignment write conflicted; computing again");
            schedule(0);
        } catch (NotControllerException e) {
            LOG.atInfo().addKeyValue("controllerEpoch", t.controllerEpoch())
                .log("assignment write refused: controller epoch {} ended", t.controllerEpoch());
            if (t.equals(term)) {
                term = null;
            }
        } catch (RuntimeException e) {
            LOG.atWarn().setCause(e).addKeyValue("controllerEpoch", t.controllerEpoch())
                .log("controller pass failed; trying again in {} ms", RETRY_MS);
            schedule(RETRY_MS);
        }
    }

    /**
     * How long a released partition stays without a leader before the controller names its next writer: the lease of
     * the broker that wrote it (every broker has the session timeout this one negotiated, give or take what its own
     * server negotiated), so that writer can no longer act on the assignment it read when the next one opens it.
     */
    private long handOverNanos() {
        return TimeUnit.MILLISECONDS.toNanos(store.session().sessionTimeoutMs());
    }

    /** The released partitions still in their hand-over; forgets those no longer released. */
    private Set<TopicPartitionRef> held(Map<java.util.UUID, TopicAssignment> stored) {
        long now = System.nanoTime();
        Set<TopicPartitionRef> released = new java.util.HashSet<>();
        for (TopicAssignment a : stored.values()) {
            for (int p = 0; p < a.partitions().size(); p++) {
                if (AssignmentPlan.isReleased(a.partition(p))) {
                    TopicPartitionRef ref = new TopicPartitionRef(a.topic(), p);
                    released.add(ref);
                    releasedAt.putIfAbsent(ref, now);
                }
            }
        }
        releasedAt.keySet().retainAll(released);
        long hold = handOverNanos();
        Set<TopicPartitionRef> held = new java.util.HashSet<>();
        releasedAt.forEach((ref, at) -> {
            if (now - at < hold) {
                held.add(ref);
            }
        });
        return held;
    }

    /** Asks for the pass that ends the earliest hand-over still running. */
    private void scheduleEndOfHandOvers() {
        if (releasedAt.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        long hold = handOverNanos();
        long next = Long.MAX_VALUE;
        for (long at : releasedAt.values()) {
            next = Math.min(next, Math.max(0, at + hold - now));
        }
        thread.schedule(() -> schedule(0), TimeUnit.NANOSECONDS.toMillis(next) + 1, TimeUnit.MILLISECONDS);
    }

    private void logChanges(List<TopicAssignment> changes, Map<Integer, LiveBroker> live) {
        Map<Integer, Integer> counts = new HashMap<>();
        Set<String> moved = new TreeSet<>();
        for (TopicAssignment a : changes) {
            for (int p = 0; p < a.partitions().size(); p++) {
                PartitionLeader l = a.partition(p);
                counts.merge(l.leader(), 1, Integer::sum);
                if (LOG.isDebugEnabled()) {
                    moved.add(a.topic() + "-" + p + "->" + l.leader() + "@" + l.leaderEpoch());
                }
            }
        }
        LOG.atInfo().addKeyValue("topics", changes.size()).addKeyValue("liveBrokers", live.keySet())
            .log("controller {} wrote the assignments of {} topic(s) over live brokers {}", nodeId, changes.size(),
                new TreeSet<>(live.keySet()));
        if (!moved.isEmpty()) {
            LOG.debug("assignments written: {}", moved);
        }
    }

    @Override
    public void close() {
        term = null;
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
