package io.kaas.broker.cluster;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterSession;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionFence;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's partitions. It follows the assignments on its own thread ({@code kaas-ownership-<id>}): each partition
 * given to this broker's current registration is opened (recovered) at the assignment's epoch and only then published
 * to the handlers; a partition moved away or deleted is unpublished first, then closed (or deleted).
 *
 * <p>While the session is not connected the broker cannot prove it owns anything: it unpublishes every partition at
 * once (no request is answered for them, so nothing written after a successor took over is served) but keeps the logs
 * open, and publishes them again if the session comes back with the assignments unchanged. Once the session has
 * certainly ended (EXPIRED, or lost for longer than the session timeout, after which the server has expired it) the
 * logs are closed: other brokers own them now.
 *
 * <p>It is also the {@link PartitionFence} of the engines and of Produce: a broker writes a partition at an epoch while
 * its lease holds and the assignment still names its registration at that epoch.
 */
public final class PartitionOwnership implements ClusterListener, PartitionFence, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionOwnership.class);
    /** The pause before a partition that failed to open is tried again. */
    static final long RETRY_MS = 1_000;

    /** Where owned partitions are served from: the topic manager. */
    public interface Host {
        /** Takes the store's topics (new, changed, deleted) before partitions are opened or closed. */
        void sync(Collection<TopicRecord> topics);

        /** The log settings of {@code topic}. */
        LogConfig logConfig(TopicRecord topic);

        /** Serves {@code log} as {@code key}, written at {@code leaderEpoch}. */
        void publish(PartitionKey key, PartitionLog log, int leaderEpoch);

        /** Stops serving {@code key}. */
        void unpublish(PartitionKey key);
    }

    /** An open log and the epoch it was opened at; served when published. */
    private static final class Owned {
        final PartitionLog log;
        final int epoch;
        boolean published;

        Owned(PartitionLog log, int epoch) {
            this.log = log;
            this.epoch = epoch;
        }
    }

    private final ClusterStateStore store;
    private final StoreClusterView view;
    private final BrokerRegistration registration;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Ownership thread only. */
    private final Map<PartitionKey, Owned> owned = new HashMap<>();
    private final Map<String, List<OwnershipListener>> listeners = new ConcurrentHashMap<>();
    private volatile StorageEngine engine;
    private volatile Host host;
    private volatile ClusterSession session;
    private volatile long brokerEpoch = -1;
    /** {@link System#nanoTime()} when the session was found not connected, 0 while it is. */
    private volatile long lostSince;
    /** Partitions assigned here that are not served yet (or failed to open): start-up waits for none. */
    private volatile int pending = -1;
    private volatile boolean closed;
    /** Whether a pass has opened partitions yet: the first one's end (the start-up) is always logged. */
    private boolean openedOnce;

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

    /** Tells {@code listener} of every partition of {@code topic} gained or lost, those served now first. */
    public void addListener(String topic, OwnershipListener listener) {
        thread.execute(() -> {
            listeners.computeIfAbsent(topic, t -> new CopyOnWriteArrayList<>()).add(listener);
            owned.forEach((key, o) -> {
                if (key.topic().equals(topic) && o.published) {
                    tell(listener, l -> l.gained(key, o.log, o.epoch));
                }
            });
        });
    }

    /** Whether every partition assigned to this broker's registration is served (and none failed to open). */
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
        if (state == SessionState.CONNECTED) {
            lostSince = 0;
        } else if (lostSince == 0) {
            lostSince = System.nanoTime();
        }
        schedule(0);
    }

    private void schedule(long delayMs) {
        if (closed || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            thread.schedule(() -> {
                scheduled.set(false);
                reconcile();
            }, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            scheduled.set(false);
        }
    }

    /** Serves what is assigned here; stops serving, and closes, what is not (or all of it while fenced). */
    private void reconcile() {
        if (host == null || closed) {
            return;
        }
        try {
            view.refresh();
            List<TopicRecord> topics = List.copyOf(store.topics());
            host.sync(topics);
            brokerEpoch = currentBrokerEpoch();
            Map<UUID, TopicRecord> byId = new HashMap<>();
            topics.forEach(t -> byId.put(t.topicId(), t));
            if (fenced()) {
                return;
            }
            Map<PartitionKey, Integer> wanted = wanted(topics);
            for (Map.Entry<PartitionKey, Owned> e : new ArrayList<>(owned.entrySet())) {
                Integer epoch = wanted.get(e.getKey());
                if (epoch == null || epoch != e.getValue().epoch) {
                    giveUp(e.getKey(), e.getValue(), !byId.containsKey(e.getKey().topicId()));
                }
            }
            int failed = 0;
            int toOpen = (int) wanted.keySet().stream().filter(k -> !owned.containsKey(k)).count();
            OpeningProgress progress = new OpeningProgress(toOpen, !openedOnce, System::nanoTime,
                    OpeningProgress.INTERVAL_MS);
            for (Map.Entry<PartitionKey, Integer> e : wanted.entrySet()) {
                Owned o = owned.get(e.getKey());
                if (o != null) {
                    if (!o.published) {
                        publish(e.getKey(), o, "serving partition {} again at leader epoch {}: the session is back");
                    }
                } else {
                    long began = System.nanoTime();
                    boolean ok = takeOver(e.getKey(), byId.get(e.getKey().topicId()), e.getValue());
                    progress.partitionDone(e.getKey(), ok, System.nanoTime() - began);
                    if (!ok) {
                        failed++;
                    }
                }
            }
            progress.finished();
            openedOnce |= toOpen > 0;
            pending = failed;
            if (failed > 0) {
                schedule(RETRY_MS);
            }
        } catch (RuntimeException e) {
            LOG.atWarn().setCause(e).log("following the partition assignments failed; trying again in {} ms", RETRY_MS);
            schedule(RETRY_MS);
        }
    }

    /**
     * Whether the session is lost: then nothing is served, and once the session has certainly ended (expired, or lost
     * for longer than its timeout) every log is closed. Schedules the check of that moment.
     */
    private boolean fenced() {
        ClusterSession s = session;
        SessionState state = s.state();
        if (state == SessionState.CONNECTED && brokerEpoch >= 0) {
            return false;
        }
        for (Map.Entry<PartitionKey, Owned> e : owned.entrySet()) {
            if (e.getValue().published) {
                unpublish(e.getKey(), e.getValue(), "stopped serving partition {} (leader epoch {}): session " + state);
            }
        }
        if (lostSince == 0) {
            lostSince = System.nanoTime();
        }
        long since = lostSince;
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(s.sessionTimeoutMs());
        boolean ended = state == SessionState.EXPIRED || state == SessionState.CLOSED || brokerEpoch < 0
            || since != 0 && System.nanoTime() - since > timeoutNanos;
        if (ended) {
            for (Map.Entry<PartitionKey, Owned> e : new ArrayList<>(owned.entrySet())) {
                giveUp(e.getKey(), e.getValue(), false);
            }
        } else if (since != 0) {
            schedule(TimeUnit.NANOSECONDS.toMillis(since + timeoutNanos - System.nanoTime()) + 10);
        }
        pending = 0;
        return true;
    }

    private long currentBrokerEpoch() {
        LiveBroker me = view.liveBrokers().get(registration.nodeId());
        return me != null && me.registration().equals(registration) ? me.brokerEpoch() : -1;
    }

    /** Every partition assigned to this broker's current registration, with its epoch. */
    private Map<PartitionKey, Integer> wanted(List<TopicRecord> topics) {
        Map<PartitionKey, Integer> out = new HashMap<>();
        Map<UUID, TopicAssignment> assignments = view.assignments();
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
        Owned o = new Owned(log, epoch);
        owned.put(key, o);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", epoch).addKeyValue("recoveryMs", ms)
            .log("took over partition {} at leader epoch {} (recovered in {} ms)", key, epoch, ms);
        publish(key, o, null);
        return true;
    }

    private void publish(PartitionKey key, Owned o, String logLine) {
        host.publish(key, o.log, o.epoch);
        o.published = true;
        if (logLine != null) {
            LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", o.epoch).log(logLine, key, o.epoch);
        }
        for (OwnershipListener l : listeners.getOrDefault(key.topic(), List.of())) {
            tell(l, x -> x.gained(key, o.log, o.epoch));
        }
    }

    private void unpublish(PartitionKey key, Owned o, String logLine) {
        host.unpublish(key);
        o.published = false;
        if (logLine != null) {
            LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", o.epoch).log(logLine, key, o.epoch);
        }
        for (OwnershipListener l : listeners.getOrDefault(key.topic(), List.of())) {
            tell(l, x -> x.lost(key, o.epoch));
        }
    }

    private void giveUp(PartitionKey key, Owned o, boolean deleted) {
        if (o.published) {
            unpublish(key, o, null);
        }
        owned.remove(key);
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
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", o.epoch).addKeyValue("deleted", deleted)
            .log(deleted ? "deleted partition {} (leader epoch {}): its topic is gone"
                : "gave up partition {} (leader epoch {})", key, o.epoch);
    }

    /** Follows the assignments now and waits (at most {@code timeoutMs}) until done: a topic deleted here is gone. */
    public void reconcileNow(long timeoutMs) {
        try {
            thread.submit(this::reconcile).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            LOG.atWarn().log("following the partition assignments did not finish in {} ms: {}", timeoutMs, e.toString());
        }
    }

    private static void tell(OwnershipListener listener, Consumer<OwnershipListener> call) {
        try {
            call.accept(listener);
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).log("an ownership listener failed");
        }
    }

    /** Stops following assignments and serving; the engine closes the logs. Listeners are told they lost. */
    @Override
    public void close() {
        closed = true;
        try {
            thread.submit(() -> owned.forEach((key, o) -> {
                if (o.published && host != null) {
                    unpublish(key, o, null);
                }
            })).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            LOG.atWarn().log("ownership: telling listeners of the shutdown did not finish: {}", e.toString());
        }
        thread.shutdownNow();
    }
}
