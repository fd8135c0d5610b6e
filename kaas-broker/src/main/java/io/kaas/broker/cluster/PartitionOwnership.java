package io.kaas.broker.cluster;

import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterSession;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.storage.PartitionFence;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's partitions: it follows the assignments and opens (recovers) each partition given to its current
 * registration at the assignment's epoch, on its own thread ({@code kaas-ownership}), and only then publishes it to the
 * handlers; a partition moved away, deleted, or held by a fenced broker (session lost past its lease) is unpublished
 * first, then closed (or deleted). It is also the engines' {@link PartitionFence}: a broker writes a partition at an
 * epoch while its lease holds and the assignment still names its registration at that epoch.
 */
public final class PartitionOwnership implements ClusterListener, PartitionFence, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionOwnership.class);
    /** The pause before a partition that failed to open is tried again. */
    static final long RETRY_MS = 1_000;

    /** Where owned partitions are served from: the topic manager. */
    public interface Host {
        /** Takes the store's topics (new, changed, deleted) before partitions are opened or closed. */
        void sync(java.util.Collection<TopicRecord> topics);

        /** The log settings of {@code topic}. */
        io.kaas.api.storage.LogConfig logConfig(TopicRecord topic);

        /** Serves {@code log} as {@code key}, written at {@code leaderEpoch}. */
        void publish(PartitionKey key, PartitionLog log, int leaderEpoch);

        /** Stops serving {@code key}. */
        void unpublish(PartitionKey key);
    }

    private record Owned(PartitionLog log, int epoch) {
    }

    private final ClusterStateStore store;
    private final StoreClusterView view;
    private volatile StorageEngine engine;
    private final BrokerRegistration registration;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Map<PartitionKey, Owned> owned = new HashMap<>();
    private final Map<String, List<OwnershipListener>> listeners = new ConcurrentHashMap<>();
    private volatile Host host;
    private volatile ClusterSession session;
    private volatile long brokerEpoch = -1;
    /** Partitions assigned here that are not open yet (or failed to open): start-up waits for none. */
    private volatile int pending = -1;
    private volatile boolean closed;

    public PartitionOwnership(ClusterStateStore store, StoreClusterView view, BrokerRegistration registration) {
        this.store = store;
        this.view = view;
        this.registration = registration;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kaas-ownership-" + registration.nodeId());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts following the assignments, opening partitions with {@code engine} and serving them through {@code host}. */
    public void start(StorageEngine engine, Host host, ClusterSession session) {
        this.engine = engine;
        this.host = host;
        this.session = session;
        schedule(0);
    }

    /** Tells {@code listener} of every partition of {@code topic} gained or lost, those owned now first. */
    public void addListener(String topic, OwnershipListener listener) {
        thread.execute(() -> {
            listeners.computeIfAbsent(topic, t -> new CopyOnWriteArrayList<>()).add(listener);
            owned.forEach((key, o) -> {
                if (key.topic().equals(topic)) {
                    tell(listener, l -> l.gained(key, o.log(), o.epoch()));
                }
            });
        });
    }

    /** Whether every partition assigned to this broker's registration is open (and none failed to open). */
    public boolean settled() {
        return pending == 0;
    }

    /** The broker epoch of this broker's registration as the store shows it now, -1 while it has none. */
    public long brokerEpoch() {
        return brokerEpoch;
    }

    @Override
    public boolean mayWrite(PartitionKey key, int leaderEpoch) {
        ClusterSession s = session;
        if (s == null || !s.leaseValid()) {
            return false;
        }
        PartitionLeader l = view.assigned(key);
        return l != null && l.leader() == registration.nodeId() && l.leaderEpoch() == leaderEpoch
            && l.leaderBrokerEpoch() == brokerEpoch;
    }

    @Override
    public void brokersChanged() {
        schedule(0);
    }

    @Override
    public void topicsChanged() {
        schedule(0);
    }

    @Override
    public void assignmentsChanged() {
        schedule(0);
    }

    @Override
    public void sessionChanged(SessionState state) {
        schedule(0);
        if (state == SessionState.SUSPENDED) {
            // The lease ends at its deadline at the latest: give the partitions up then if the session is still lost.
            ClusterSession s = session;
            long waitNanos = s == null ? 0 : s.leaseDeadlineNanos() - System.nanoTime();
            schedule(Math.max(0, TimeUnit.NANOSECONDS.toMillis(waitNanos)) + 10, true);
        }
    }

    private void schedule(long delayMs) {
        schedule(delayMs, false);
    }

    private void schedule(long delayMs, boolean extra) {
        if (closed || !extra && !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            thread.schedule(() -> {
                if (!extra) {
                    scheduled.set(false);
                }
                reconcile();
            }, delayMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            scheduled.set(false);
        }
    }

    /** Opens what is assigned here and not open; gives up what is open and no longer assigned here. */
    private void reconcile() {
        Host h = host;
        if (h == null || closed) {
            return;
        }
        try {
            view.refresh();
            List<TopicRecord> topics = List.copyOf(store.topics());
            h.sync(topics);
            brokerEpoch = currentBrokerEpoch();
            Map<PartitionKey, Integer> wanted = wanted(topics);
            Map<java.util.UUID, TopicRecord> byId = new HashMap<>();
            topics.forEach(t -> byId.put(t.topicId(), t));
            for (Map.Entry<PartitionKey, Owned> e : new ArrayList<>(owned.entrySet())) {
                Integer epoch = wanted.get(e.getKey());
                if (epoch == null || epoch != e.getValue().epoch()) {
                    giveUp(e.getKey(), e.getValue(), !byId.containsKey(e.getKey().topicId()));
                }
            }
            int failed = 0;
            for (Map.Entry<PartitionKey, Integer> e : wanted.entrySet()) {
                if (!owned.containsKey(e.getKey()) && !takeOver(e.getKey(), byId.get(e.getKey().topicId()), e.getValue())) {
                    failed++;
                }
            }
            pending = failed;
            if (failed > 0) {
                schedule(RETRY_MS);
            }
        } catch (RuntimeException e) {
            LOG.atWarn().setCause(e).log("following the partition assignments failed; trying again in {} ms", RETRY_MS);
            schedule(RETRY_MS);
        }
    }

    private long currentBrokerEpoch() {
        LiveBroker me = view.liveBrokers().get(registration.nodeId());
        return me != null && me.registration().equals(registration) ? me.brokerEpoch() : -1;
    }

    /** Every partition assigned to this broker's current registration, with its epoch; none while fenced. */
    private Map<PartitionKey, Integer> wanted(List<TopicRecord> topics) {
        Map<PartitionKey, Integer> out = new HashMap<>();
        ClusterSession s = session;
        if (brokerEpoch < 0 || s.state() != SessionState.CONNECTED && !s.leaseValid()) {
            return out;
        }
        Map<java.util.UUID, TopicAssignment> assignments = view.assignments();
        for (TopicRecord t : topics) {
            TopicAssignment a = assignments.get(t.topicId());
            if (a == null) {
                continue;
            }
            for (int p = 0; p < Math.min(t.partitions(), a.partitions().size()); p++) {
                PartitionLeader l = a.partition(p);
                if (l.leader() == registration.nodeId() && l.leaderBrokerEpoch() == brokerEpoch) {
                    out.put(new PartitionKey(t.name(), t.topicId(), p), l.leaderEpoch());
                }
            }
        }
        return out;
    }

    private boolean takeOver(PartitionKey key, TopicRecord topic, int epoch) {
        long began = System.nanoTime();
        PartitionLog log;
        try {
            log = engine.openPartition(key, host.logConfig(topic), epoch);
        } catch (IOException | RuntimeException e) {
            LOG.atWarn().setCause(e).addKeyValue("partition", key).addKeyValue("leaderEpoch", epoch)
                .log("cannot take over partition {} at leader epoch {}: {}; trying again in {} ms", key, epoch,
                    e.getMessage(), RETRY_MS);
            return false;
        }
        owned.put(key, new Owned(log, epoch));
        host.publish(key, log, epoch);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", epoch).addKeyValue("recoveryMs", ms)
            .log("took over partition {} at leader epoch {} (recovered in {} ms)", key, epoch, ms);
        for (OwnershipListener l : listeners.getOrDefault(key.topic(), List.of())) {
            tell(l, x -> x.gained(key, log, epoch));
        }
        return true;
    }

    private void giveUp(PartitionKey key, Owned o, boolean deleted) {
        host.unpublish(key);
        owned.remove(key);
        for (OwnershipListener l : listeners.getOrDefault(key.topic(), List.of())) {
            tell(l, x -> x.lost(key, o.epoch()));
        }
        try {
            if (deleted) {
                engine.deletePartition(key);
            } else {
                engine.closePartition(key);
            }
        } catch (IOException | RuntimeException e) {
            LOG.atWarn().setCause(e).addKeyValue("partition", key)
                .log("giving up partition {}: closing it failed: {}", key, e.getMessage());
        }
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", o.epoch()).addKeyValue("deleted", deleted)
            .log(deleted ? "deleted partition {} (leader epoch {}): its topic is gone"
                : "gave up partition {} (leader epoch {})", key, o.epoch());
    }

    /** Follows the assignments now and waits (at most {@code timeoutMs}) until done: a topic deleted here is gone. */
    public void reconcileNow(long timeoutMs) {
        try {
            thread.submit(this::reconcile).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                 | java.util.concurrent.RejectedExecutionException e) {
            LOG.atWarn().log("following the partition assignments did not finish in {} ms: {}", timeoutMs, e.toString());
        }
    }

    /** Forgets a partition the broker itself closed and deleted (a topic deleted here). Ownership thread or lock. */
    public void forget(PartitionKey key) {
        thread.execute(() -> {
            Owned o = owned.remove(key);
            if (o != null) {
                for (OwnershipListener l : listeners.getOrDefault(key.topic(), List.of())) {
                    tell(l, x -> x.lost(key, o.epoch()));
                }
            }
        });
    }

    private static void tell(OwnershipListener listener, java.util.function.Consumer<OwnershipListener> call) {
        try {
            call.accept(listener);
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).log("an ownership listener failed");
        }
    }

    /** Stops following assignments; the partitions stay open for the engine to close. Listeners are told they lost. */
    @Override
    public void close() {
        closed = true;
        try {
            thread.submit(() -> owned.forEach((key, o) -> {
                if (host != null) {
                    host.unpublish(key);
                }
                for (OwnershipListener l : listeners.getOrDefault(key.topic(), List.of())) {
                    tell(l, x -> x.lost(key, o.epoch()));
                }
            })).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.atWarn().log("ownership: telling listeners of the shutdown did not finish: {}", e.toString());
        }
        thread.shutdownNow();
    }
}
