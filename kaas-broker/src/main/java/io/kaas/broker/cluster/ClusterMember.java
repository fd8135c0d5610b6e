package io.kaas.broker.cluster;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.storage.PartitionFence;
import io.kaas.api.storage.StorageEngine;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker as a member of the cluster: its registration, its view of the cluster, its partitions and, while it
 * is elected, the controller. {@link #join} registers (and so can fail start-up with
 * {@link io.kaas.api.cluster.BrokerIdInUseException}); {@link #start} follows the assignments and enters the election.
 */
public final class ClusterMember implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMember.class);

    private final ClusterStateStore store;
    private final LiveBroker registered;
    private final StoreClusterView view;
    private final PartitionOwnership ownership;
    private final Controller controller;
    private boolean started;

    private ClusterMember(ClusterStateStore store, LiveBroker registered) {
        this.store = store;
        this.registered = registered;
        this.view = new StoreClusterView(store, registered.nodeId());
        this.ownership = new PartitionOwnership(store, view, registered.registration());
        this.controller = new Controller(store, registered.nodeId());
    }

    /**
     * Registers this broker with the store.
     *
     * @throws io.kaas.api.cluster.BrokerIdInUseException if a live broker holds the node id
     */
    public static ClusterMember join(ClusterStateStore store, BrokerRegistration registration) {
        LiveBroker registered = store.registerBroker(registration);
        ClusterMember member = new ClusterMember(store, registered);
        store.addListener(member.view);
        store.addListener(member.ownership);
        store.addListener(member.controller);
        member.view.refresh();
        LOG.atInfo().addKeyValue("nodeId", registered.nodeId()).addKeyValue("brokerEpoch", registered.brokerEpoch())
            .log("broker {} registered (broker epoch {})", registered.nodeId(), registered.brokerEpoch());
        return member;
    }

    /** Follows the assignments (opening partitions with {@code engine}, serving them through {@code host}) and
     * enters the controller election. */
    public synchronized void start(StorageEngine engine, PartitionOwnership.Host host) {
        ownership.start(engine, host, store.session());
        store.electController(controller);
        started = true;
    }

    /**
     * Waits, at most {@code timeout}, until a controller is elected (and, if it is this broker, its first pass is
     * written), and every partition of every topic has a live writer, those written here being served
     * ({@code servedHere}). @return whether it got there in time
     */
    public boolean awaitReady(Duration timeout, BiPredicate<String, Integer> servedHere) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (ready(servedHere)) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    /** Whether, now, a controller is elected and every partition has a live writer, those written here served. */
    public boolean readyNow(BiPredicate<String, Integer> servedHere) {
        return ready(servedHere);
    }

    private boolean ready(BiPredicate<String, Integer> servedHere) {
        Optional<io.kaas.api.cluster.ControllerTerm> elected = store.controller();
        if (elected.isEmpty() || elected.get().controllerId() == nodeId()
                && (controller.term().isEmpty() || !controller.firstPass().isDone())) {
            return false;
        }
        view.refresh();
        for (io.kaas.api.cluster.TopicRecord t : store.topics()) {
            for (int p = 0; p < t.partitions(); p++) {
                Optional<io.kaas.api.cluster.PartitionLeader> l = view.liveLeader(t.name(), p);
                if (l.isEmpty() || !l.get().hasLeader()
                        || l.get().leader() == nodeId() && !servedHere.test(t.name(), p)) {
                    return false;
                }
            }
        }
        return true;
    }

    public StoreClusterView view() {
        return view;
    }

    public PartitionOwnership ownership() {
        return ownership;
    }

    /** What engines ask before destructive file changes, and Produce before it acknowledges. */
    public PartitionFence fence() {
        return ownership;
    }

    public int nodeId() {
        return registered.nodeId();
    }

    /** The controller's node id, if one is elected. */
    public Optional<Integer> controllerId() {
        return view.controllerId();
    }

    /** Stops following assignments and leaves the election (the store's close ends the registration). */
    @Override
    public synchronized void close() {
        controller.close();
        ownership.close();
        try {
            store.removeListener(controller);
            store.removeListener(ownership);
            store.removeListener(view);
        } catch (RuntimeException e) {
            LOG.atDebug().log("removing the cluster listeners failed: {}", e.toString());
        }
    }
}
