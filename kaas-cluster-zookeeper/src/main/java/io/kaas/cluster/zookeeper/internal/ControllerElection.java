package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.api.transaction.OperationType;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's part in the controller election: a Curator {@link LeaderLatch} under {@value ZkPaths#ELECTION}. On
 * winning it raises the controller epoch ({@value ZkPaths#CONTROLLER_EPOCH}) by compare-and-set and, in the same
 * multi, replaces the ephemeral {@value ZkPaths#CONTROLLER} node that names the controller; only then is the term
 * given to the listener. The term's writes check the epoch node's version: a later winner raises it, so an ended term
 * can never write again. Losing the latch (SUSPENDED, a lost session, close) ends the term at once.
 */
final class ControllerElection {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerElection.class);

    /** A term this broker holds, with the epoch node's version its writes check. */
    record ActiveTerm(ControllerTerm term, int epochVersion) {
    }

    private final CuratorFramework client;
    private final int nodeId;
    private final ExecutorService thread;
    private final Runnable controllerChanged;
    private ControllerListener listener;
    private LeaderLatch latch;
    private final java.util.concurrent.atomic.AtomicReference<ActiveTerm> active = new java.util.concurrent.atomic.AtomicReference<>();
    private volatile boolean closed;

    ControllerElection(CuratorFramework client, int nodeId, ExecutorService thread, Runnable controllerChanged) {
        this.client = client;
        this.nodeId = nodeId;
        this.thread = thread;
        this.controllerChanged = controllerChanged;
    }

    synchronized void start(ControllerListener listener) throws Exception {
        if (this.listener != null) {
            throw new IllegalStateException("electController is called once");
        }
        this.listener = listener;
        latch = new LeaderLatch(client, ZkPaths.ELECTION, Integer.toString(nodeId), LeaderLatch.CloseMode.NOTIFY_LEADER);
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                won();
            }

            @Override
            public void notLeader() {
                lost("the election latch was lost");
            }
        }, thread);
        latch.start();
    }

    /** The term this broker holds now, or null. */
    ActiveTerm active() {
        return active.get();
    }

    private void won() {
        for (int attempt = 0; !closed && latch.hasLeadership(); attempt++) {
            try {
                ActiveTerm term = raiseEpoch();
                if (!latch.hasLeadership() || closed) {
                    return;
                }
                active.set(term);
                LOG.info("Broker {} is the controller (controller epoch {})", nodeId, term.term().controllerEpoch());
                controllerChanged.run();
                listener.elected(term.term());
                return;
            } catch (Exception e) {
                LOG.warn("Broker {} won the controller election but could not raise the controller epoch (attempt {}): {}",
                        nodeId, attempt + 1, e.toString());
                sleep(Math.min(1000, 50L << Math.min(attempt, 5)));
            }
        }
    }

    private ActiveTerm raiseEpoch() throws Exception {
        Stat epochStat = new Stat();
        long epoch;
        try {
            epoch = Json.controllerEpoch(client.getData().storingStatIn(epochStat).forPath(ZkPaths.CONTROLLER_EPOCH));
        } catch (KeeperException.NoNodeException e) {
            try {
                client.create().forPath(ZkPaths.CONTROLLER_EPOCH, Json.controllerEpoch(0));
            } catch (KeeperException.NodeExistsException raced) {
                // another broker made it: read it again
            }
            return raiseEpoch();
        }
        ControllerTerm term = new ControllerTerm(nodeId, epoch + 1);
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(client.transactionOp().setData().withVersion(epochStat.getVersion())
                .forPath(ZkPaths.CONTROLLER_EPOCH, Json.controllerEpoch(term.controllerEpoch())));
        if (client.checkExists().forPath(ZkPaths.CONTROLLER) != null) {
            ops.add(client.transactionOp().delete().forPath(ZkPaths.CONTROLLER));
        }
        ops.add(client.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(ZkPaths.CONTROLLER, Json.controller(term)));
        List<CuratorTransactionResult> results = client.transaction().forOperations(ops);
        int version = results.stream().filter(r -> r.getType() == OperationType.SET_DATA).findFirst()
                .orElseThrow().getResultStat().getVersion();
        return new ActiveTerm(term, version);
    }

    private void lost(String why) {
        ActiveTerm ended = active.getAndSet(null);
        if (ended == null) {
            return;
        }
        LOG.info("Broker {} is no longer the controller (controller epoch {}): {}", nodeId, ended.term().controllerEpoch(), why);
        controllerChanged.run();
        listener.resigned(ended.term());
        if (!closed) {
            removeControllerNode(ended);
        }
    }

    /**
     * Deletes the controller node if it still names {@code ended} (best effort, in the background, so that a lost
     * connection does not hold up the election thread: the node is ephemeral anyway).
     */
    private void removeControllerNode(ActiveTerm ended) {
        try {
            client.getData().inBackground((c, event) -> {
                if (event.getResultCode() == KeeperException.Code.OK.intValue() && event.getData() != null
                        && Json.controller(event.getData()).equals(ended.term())) {
                    c.delete().withVersion(event.getStat().getVersion()).inBackground().forPath(ZkPaths.CONTROLLER);
                }
            }).forPath(ZkPaths.CONTROLLER);
        } catch (Exception e) {
            LOG.debug("Could not remove the controller node of epoch {}: {}", ended.term().controllerEpoch(), e.toString());
        }
    }

    /**
     * Leaves the election; the term, if any, ends: the listener is told on the election thread before this returns
     * (waiting at most {@code waitMs}).
     */
    void close(long waitMs) {
        closed = true;
        LeaderLatch l;
        synchronized (this) {
            l = latch;
        }
        if (l != null) {
            try {
                l.close();
            } catch (Exception e) {
                LOG.debug("Closing the election latch of broker {}: {}", nodeId, e.toString());
            }
        }
        try {
            thread.submit(() -> lost("the store is closing")).get(waitMs, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.debug("Leaving the controller election of broker {}: {}", nodeId, e.toString());
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
