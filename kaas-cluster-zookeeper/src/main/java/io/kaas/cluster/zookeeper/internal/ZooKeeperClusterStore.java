package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.cluster.BrokerIdInUseException;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClientQuotaEntity;
import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterSession;
import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.NotControllerException;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicExistsException;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.UnknownTopicException;
import io.kaas.api.cluster.VersionConflictException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster state in ZooKeeper, through Curator. Every node is JSON with {@code "version": 1}; the layout, under the
 * chroot of {@code zookeeper.connect}:
 *
 * <pre>
 * /cluster/id                     the cluster id, created once ({"version":"1","id":...}, Kafka's node)
 * /brokers/ids/&lt;node id&gt;          EPHEMERAL: a live broker's registration; broker epoch = the node's czxid
 * /controller_election/...        Curator LeaderLatch nodes of the controller election
 * /controller_epoch               the last controller epoch; raised by compare-and-set when a broker wins; assignment
 *                                 writes check its version in the same multi
 * /controller                     EPHEMERAL: the controller's {brokerid, epoch}, replaced in the winner's multi
 * /topics/&lt;name&gt;                  a topic: {id, partitions, configs}
 * /assignments/&lt;topic id&gt;         the writer of each partition with its leader epoch and broker epoch; the znode version
 *                                 is the TopicAssignment's version; deleted with its topic in one multi
 * /reassign_partitions            requested partition moves (Kafka's shape: topic, partition, replicas=[target])
 * /latest_producer_id_block       the last producer-id block handed out (Kafka's node), raised by compare-and-set
 * /config/groups/&lt;group&gt;          a group's config overrides
 * /config/users/&lt;user&gt;            a user's SCRAM credentials (salt, StoredKey, ServerKey, iterations per mechanism)
 * /acls/&lt;TYPE:PATTERN:name&gt;       the ACL entries of one resource pattern
 * </pre>
 *
 * Group, user and resource names are written {@link NodeNames encoded}. Getters answer from {@link WatchedChildren}
 * caches kept by persistent watches; a writer re-reads what it wrote before it returns. Listener calls come from one
 * store thread. With {@code zookeeper.set.acl=true} nodes are created with CREATOR_ALL and world read, except the
 * SCRAM credentials (CREATOR_ALL only), as Kafka does.
 */
public final class ZooKeeperClusterStore implements ClusterStateStore {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperClusterStore.class);
    private static final int MAX_ATTEMPTS = 1000;

    private final ZkConfig config;
    private final int brokerId;
    private final CuratorFramework client;
    private final ZkSession session;
    private final ExecutorService events;
    private final ExecutorService listenerThread;
    private final ExecutorService electionThread;
    private final ScheduledExecutorService leaseThread;
    private final List<ClusterListener> listeners = new CopyOnWriteArrayList<>();
    private final Set<Long> previousSessions = ConcurrentHashMap.newKeySet();
    private final Object producerIdLock = new Object();
    private final WatchedChildren<TopicRecord> topics;
    private final WatchedChildren<TopicAssignment> assignments;
    private final WatchedChildren<LiveBroker> brokers;
    private final WatchedChildren<Map<String, String>> groupConfigs;
    private final WatchedChildren<Map<String, ScramCredentialRecord>> scram;
    private final WatchedChildren<List<AclBinding>> acls;
    private final WatchedChildren<Map<String, String>> brokerConfigs;
    private final WatchedQuotas quotas;
    private final WatchedNode<ControllerTerm> controllerNode;
    private final WatchedNode<Map<TopicPartitionRef, Integer>> reassignments;
    private final ControllerElection election;
    private volatile String clusterId;
    private volatile long knownSessionId;
    private volatile BrokerRegistration registration;
    private volatile boolean closed;

    private ZooKeeperClusterStore(ZkConfig config, int brokerId, CuratorFramework client) {
        this.config = config;
        this.brokerId = brokerId;
        this.client = client;
        this.session = new ZkSession(config.sessionTimeoutMs);
        this.events = Executors.newSingleThreadExecutor(daemon("kaas-zk-events-" + brokerId));
        this.listenerThread = Executors.newSingleThreadExecutor(daemon("kaas-zk-listeners-" + brokerId));
        this.electionThread = Executors.newSingleThreadExecutor(daemon("kaas-zk-election-" + brokerId));
        this.leaseThread = Executors.newSingleThreadScheduledExecutor(daemon("kaas-zk-lease-" + brokerId));
        this.topics = new WatchedChildren<>(client, ZkPaths.TOPICS, (name, data, stat) -> Json.topic(name, data),
                () -> fire(ClusterListener::topicsChanged), events);
        this.assignments = new WatchedChildren<>(client, ZkPaths.ASSIGNMENTS,
                (id, data, stat) -> Json.assignment(id, data, stat.getVersion()), () -> fire(ClusterListener::assignmentsChanged), events);
        this.brokers = new WatchedChildren<>(client, ZkPaths.BROKERS, ZooKeeperClusterStore::liveBroker,
                () -> fire(ClusterListener::brokersChanged), events);
        this.groupConfigs = new WatchedChildren<>(client, ZkPaths.GROUP_CONFIGS, (name, data, stat) -> Json.configs(data),
                () -> fire(ClusterListener::groupConfigsChanged), events);
        this.scram = new WatchedChildren<>(client, ZkPaths.SCRAM, (name, data, stat) -> Json.scram(NodeNames.decode(name), data),
                () -> fire(ClusterListener::scramCredentialsChanged), events);
        this.acls = new WatchedChildren<>(client, ZkPaths.ACLS, (name, data, stat) -> Json.acls(data),
                () -> fire(ClusterListener::aclsChanged), events);
        this.brokerConfigs = new WatchedChildren<>(client, ZkPaths.BROKER_CONFIGS,
                (name, data, stat) -> Json.configs(data), () -> fire(ClusterListener::brokerConfigsChanged), events);
        this.quotas = new WatchedQuotas(client, () -> fire(ClusterListener::clientQuotasChanged), events);
        this.controllerNode = new WatchedNode<>(client, ZkPaths.CONTROLLER, (path, data, stat) -> Json.controller(data),
                () -> fire(l -> { }), events);
        this.reassignments = new WatchedNode<>(client, ZkPaths.REASSIGNMENTS, (path, data, stat) -> Json.reassignments(data),
                () -> fire(ClusterListener::reassignmentsChanged), events);
        this.election = new ControllerElection(client, brokerId, electionThread, () -> refreshQuietly(controllerNode));
    }

    /** The settings the store reads (Kafka's full names). */
    public static Set<String> configKeys() {
        return ZkConfig.KEYS;
    }

    private static LiveBroker liveBroker(String child, byte[] data, Stat stat) {
        BrokerRegistration r = Json.registration(data);
        if (!Integer.toString(r.nodeId()).equals(child)) {
            throw new IllegalArgumentException("it registers node id " + r.nodeId());
        }
        return new LiveBroker(r, stat.getCzxid());
    }

    /**
     * Connects to the ensemble (creating the chroot if it is missing), creates the layout and the cluster id on first
     * use and loads every cache.
     *
     * @throws io.kaas.api.plugin.PluginConfigException naming the key of a malformed setting
     * @throws ClusterStateException if the ensemble cannot be reached within {@code zookeeper.connection.timeout.ms}
     */
    public static ZooKeeperClusterStore open(ClusterStoreContext context) {
        ZkConfig config = ZkConfig.of(context.config());
        ZkClients.ensureChroot(config);
        CuratorFramework client = ZkClients.connect(config, config.connect.full());
        ZooKeeperClusterStore store = new ZooKeeperClusterStore(config, context.brokerId(), client);
        try {
            store.start();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        LOG.info("Broker {} uses the zookeeper cluster store at {} (session timeout {} ms, cluster id {})",
                context.brokerId(), config.connect, store.session.sessionTimeoutMs(), store.clusterId);
        return store;
    }

    private void start() {
        call("create the store's layout", () -> {
            for (String dir : ZkPaths.DIRECTORIES) {
                try {
                    client.create().creatingParentsIfNeeded().forPath(dir);
                } catch (KeeperException.NodeExistsException e) {
                    // made before
                }
            }
            knownSessionId = zooKeeper().getSessionId();
            clusterId = readOrCreateClusterId();
            watchAndLoadAll();
            return null;
        });
        session.connected();
        try {
            renewLeaseAndWait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.getConnectionStateListenable().addListener((c, state) -> connectionStateChanged(state));
        if (!client.getZookeeperClient().isConnected()) {
            session.end(SessionState.SUSPENDED);
        }
        scheduleRenewal();
    }

    /**
     * Renews the lease every fifth of the negotiated session timeout (a server's maxSessionTimeout may make it shorter
     * than the configured one), for as long as the store is open.
     */
    private void scheduleRenewal() {
        if (closed) {
            return;
        }
        long interval = Math.max(20, session.sessionTimeoutMs() / 5);
        try {
            leaseThread.schedule(() -> {
                renewLease();
                scheduleRenewal();
            }, interval, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the store is closing
        }
    }

    private void watchAndLoadAll() throws Exception {
        for (WatchedChildren<?> cache : caches()) {
            cache.watchAndLoad();
        }
        quotas.watchAndLoad();
        controllerNode.watchAndLoad();
        reassignments.watchAndLoad();
    }

    private void reloadAll() throws Exception {
        for (WatchedChildren<?> cache : caches()) {
            cache.refreshAll();
        }
        quotas.refresh();
        controllerNode.refresh();
        reassignments.refresh();
    }

    private List<WatchedChildren<?>> caches() {
        return List.of(topics, assignments, brokers, groupConfigs, scram, acls, brokerConfigs);
    }

    private String readOrCreateClusterId() throws Exception {
        try {
            return Json.clusterId(client.getData().forPath(ZkPaths.CLUSTER_ID));
        } catch (KeeperException.NoNodeException e) {
            String id = randomClusterId();
            try {
                client.create().forPath(ZkPaths.CLUSTER_ID, Json.clusterId(id));
                LOG.info("Created cluster id {} in ZooKeeper at {}", id, config.connect);
                return id;
            } catch (KeeperException.NodeExistsException raced) {
                return Json.clusterId(client.getData().forPath(ZkPaths.CLUSTER_ID));
            }
        }
    }

    private static String randomClusterId() {
        while (true) {
            UUID id = UUID.randomUUID();
            ByteBuffer buf = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
            String text = Base64.getUrlEncoder().withoutPadding().encodeToString(buf.array());
            if (!text.startsWith("-")) {
                return text;
            }
        }
    }

    ZooKeeper zooKeeper() throws Exception {
        return client.getZookeeperClient().getZooKeeper();
    }

    /** The connect string with its chroot, for tests that reach the same session from outside. */
    String connectString() {
        return config.connect.full();
    }

    // ---- the session and its lease ----

    /**
     * Sends the round trip that renews the lease; an unanswered one leaves the lease to run out. The round trip is a
     * {@code sync}: the server answers it only once it has applied every change committed before it was sent, and
     * after it has sent this session the notifications of those changes, which reach the watchers (and queue their
     * reads on {@link #events}) before the answer's callback runs. The renewal is applied behind those reads and
     * behind the listener calls they make ({@link #listenerThread}), so a lease renewed from a round trip sent at time
     * t is only ever held by a broker that has seen every assignment change committed before t: a broker can act on
     * an assignment the controller replaced at time c at most until c + the lease (the controller's hand-over waits
     * that long before it names the next writer).
     *
     * @return completes once the renewal is applied or known to have failed
     */
    private java.util.concurrent.CompletableFuture<Void> renewLease() {
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        if (closed) {
            done.complete(null);
            return done;
        }
        long gen = session.generation();
        try {
            ZooKeeper zk = zooKeeper();
            if (zk.getSessionId() != knownSessionId) {
                done.complete(null);
                return done;
            }
            long sent = System.nanoTime();
            zk.sync("/", (rc, path, ctx) -> {
                if (rc != KeeperException.Code.OK.intValue()) {
                    LOG.debug("Lease renewal of broker {} got no answer from ZooKeeper: {}", brokerId,
                            KeeperException.Code.get(rc));
                    done.complete(null);
                    return;
                }
                int negotiated = zk.getSessionTimeout();
                try {
                    events.execute(() -> afterListenerCalls(() -> {
                        session.renewed(gen, sent, negotiated);
                        done.complete(null);
                    }, done));
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    done.complete(null);
                }
            }, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.complete(null);
        } catch (Exception e) {
            LOG.debug("Lease renewal of broker {} got no answer from ZooKeeper: {}", brokerId, e.toString());
            done.complete(null);
        }
        return done;
    }

    private void afterListenerCalls(Runnable task, java.util.concurrent.CompletableFuture<Void> done) {
        try {
            listenerThread.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            done.complete(null);
        }
    }

    /** Renews the lease and waits (at most the connection timeout) for the renewal to be applied. */
    private void renewLeaseAndWait() throws InterruptedException {
        try {
            renewLease().get(config.connectionTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.debug("Lease renewal of broker {} not applied in time: {}", brokerId, e.toString());
        }
    }

    private void connectionStateChanged(ConnectionState state) {
        if (closed) {
            return;
        }
        switch (state) {
            case SUSPENDED, READ_ONLY -> {
                session.end(SessionState.SUSPENDED);
                LOG.warn("Broker {} lost its connection to ZooKeeper at {}: it acknowledges no writes until it is back",
                        brokerId, config.connect);
                fire(l -> l.sessionChanged(SessionState.SUSPENDED));
            }
            case LOST -> {
                session.end(SessionState.EXPIRED);
                LOG.warn("Broker {}'s ZooKeeper session 0x{} at {} expired: its registration is gone and it gives up "
                        + "every partition", brokerId, Long.toHexString(knownSessionId), config.connect);
                fire(l -> l.sessionChanged(SessionState.EXPIRED));
            }
            case CONNECTED, RECONNECTED -> events.execute(this::reconnected);
        }
    }

    private void reconnected() {
        if (closed) {
            return;
        }
        try {
            long sid = zooKeeper().getSessionId();
            if (sid == knownSessionId && session.state() != SessionState.EXPIRED) {
                renewLease();
                session.connected();
                LOG.info("Broker {} is connected to ZooKeeper at {} again, in the same session", brokerId, config.connect);
                fire(l -> l.sessionChanged(SessionState.CONNECTED));
                // the server restores persistent watches without the events missed meanwhile: read everything again
                reloadAll();
                return;
            }
            if (session.state() != SessionState.EXPIRED) {
                session.end(SessionState.EXPIRED);
                fire(l -> l.sessionChanged(SessionState.EXPIRED));
            }
            previousSessions.add(knownSessionId);
            knownSessionId = sid;
            sync();
            BrokerRegistration r = registration;
            if (r != null) {
                try {
                    registerNode(r);
                } catch (BrokerIdInUseException e) {
                    LOG.error("Broker {} could not register again after its session expired: {}", brokerId, e.getMessage());
                }
            }
            watchAndLoadAll();
            renewLease();
            session.connected();
            LOG.info("Broker {} has a new ZooKeeper session 0x{} at {}", brokerId, Long.toHexString(sid), config.connect);
            fire(l -> l.sessionChanged(SessionState.CONNECTED));
            fire(ClusterListener::brokersChanged);
            fire(ClusterListener::topicsChanged);
            fire(ClusterListener::assignmentsChanged);
            fire(ClusterListener::reassignmentsChanged);
            fire(ClusterListener::aclsChanged);
            fire(ClusterListener::scramCredentialsChanged);
            fire(ClusterListener::groupConfigsChanged);
            fire(ClusterListener::clientQuotasChanged);
            fire(ClusterListener::brokerConfigsChanged);
        } catch (Exception e) {
            if (closed) {
                return;
            }
            LOG.warn("Broker {} could not restore its state in ZooKeeper after reconnecting, retrying: {}", brokerId, e.toString());
            leaseThread.schedule(() -> events.execute(this::reconnected), 500, TimeUnit.MILLISECONDS);
        }
    }

    /** Lets the server this session reached catch up with the leader, so that nothing older than before is read. */
    private void sync() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        zooKeeper().sync("/", (rc, path, ctx) -> done.countDown(), null);
        done.await(config.sessionTimeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public ClusterSession session() {
        return session;
    }

    // ---- registrations ----

    @Override
    public LiveBroker registerBroker(BrokerRegistration r) {
        if (r.nodeId() != brokerId) {
            throw new IllegalArgumentException("this store belongs to broker " + brokerId + ", not " + r.nodeId());
        }
        synchronized (this) {
            if (registration != null) {
                throw new IllegalStateException("registerBroker is called once");
            }
            LiveBroker live = registerNode(r);
            registration = r;
            return live;
        }
    }

    private LiveBroker registerNode(BrokerRegistration r) {
        String path = ZkPaths.broker(r.nodeId());
        byte[] data = Json.registration(r);
        long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2L * config.sessionTimeoutMs);
        return call("register broker " + r.nodeId(), () -> {
            while (true) {
                Stat stat = new Stat();
                try {
                    client.create().storingStatIn(stat).withMode(CreateMode.EPHEMERAL).forPath(path, data);
                    brokers.refresh(Integer.toString(r.nodeId()));
                    LOG.info("Broker {} registered in ZooKeeper at {} (broker epoch {})", r.nodeId(), config.connect, stat.getCzxid());
                    return new LiveBroker(r, stat.getCzxid());
                } catch (KeeperException.NodeExistsException e) {
                    Stat existing = client.checkExists().forPath(path);
                    if (existing == null) {
                        continue;
                    }
                    long owner = existing.getEphemeralOwner();
                    if (owner == zooKeeper().getSessionId()) {
                        brokers.refresh(Integer.toString(r.nodeId())); // our own create, retried after a lost connection
                        return new LiveBroker(r, existing.getCzxid());
                    }
                    if (previousSessions.contains(owner) && System.nanoTime() - giveUp < 0) {
                        Thread.sleep(100); // our previous session's node: the server removes it when it expires
                        continue;
                    }
                    throw new BrokerIdInUseException("Broker id " + r.nodeId() + " is already registered in ZooKeeper at "
                            + config.connect + " by a live broker (" + holder(path) + "): a broker with this node.id is running");
                }
            }
        });
    }

    private String holder(String path) {
        try {
            BrokerRegistration other = Json.registration(client.getData().forPath(path));
            return "host " + other.host() + ", pid " + other.pid();
        } catch (Exception e) {
            return "its registration could not be read: " + e.getMessage();
        }
    }

    @Override
    public Map<Integer, LiveBroker> liveBrokers() {
        Map<Integer, LiveBroker> out = new TreeMap<>();
        brokers.entries().values().forEach(e -> out.put(e.value().nodeId(), e.value()));
        return out;
    }

    // ---- the controller ----

    @Override
    public void electController(ControllerListener listener) {
        call("enter the controller election", () -> {
            election.start(listener);
            return null;
        });
    }

    @Override
    public Optional<ControllerTerm> controller() {
        return controllerNode.get().map(WatchedChildren.Entry::value);
    }

    @Override
    public Map<UUID, TopicAssignment> assignments() {
        Map<UUID, TopicAssignment> out = new HashMap<>();
        assignments.entries().values().forEach(e -> out.put(e.value().topicId(), e.value()));
        return out;
    }

    @Override
    public void updateAssignments(ControllerTerm term, Collection<TopicAssignment> changes) {
        ControllerElection.ActiveTerm active = election.active();
        if (active == null || !active.term().equals(term)) {
            throw new NotControllerException("Controller term " + term + " has ended: broker " + brokerId + " holds "
                    + (active == null ? "no term" : active.term()));
        }
        if (changes.isEmpty()) {
            return;
        }
        List<CuratorOp> ops = new ArrayList<>();
        List<String> what = new ArrayList<>();
        call("write partition assignments", () -> {
            ops.add(client.transactionOp().check().withVersion(active.epochVersion()).forPath(ZkPaths.CONTROLLER_EPOCH));
            what.add("the controller epoch");
            Map<UUID, WatchedChildren.Entry<TopicRecord>> byId = new HashMap<>();
            topics.entries().values().forEach(e -> byId.put(e.value().topicId(), e));
            for (TopicAssignment a : changes) {
                WatchedChildren.Entry<TopicRecord> t = Optional.ofNullable(byId.get(a.topicId())).orElseThrow(() -> new VersionConflictException(
                        "Topic " + a.topic() + " (id " + Json.uuidText(a.topicId()) + ") does not exist"));
                ops.add(client.transactionOp().check().withVersion(t.version()).forPath(ZkPaths.topic(t.value().name())));
                what.add("topic " + t.value().name());
                String path = ZkPaths.assignment(a.topicId());
                ops.add(a.version() == TopicAssignment.NEW
                        ? client.transactionOp().create().forPath(path, Json.assignment(a))
                        : client.transactionOp().setData().withVersion((int) a.version()).forPath(path, Json.assignment(a)));
                what.add("the assignment of topic " + a.topic() + " at version " + a.version());
            }
            try {
                client.transaction().forOperations(ops);
            } catch (KeeperException e) {
                int failed = failedOp(e);
                if (failed == 0) {
                    throw new NotControllerException("Controller term " + term + " has ended: another controller raised "
                            + "the controller epoch");
                }
                throw new VersionConflictException("Partition assignments not written: "
                        + (failed > 0 ? what.get(failed) : "a record") + " changed (" + e.code() + ")");
            }
            for (TopicAssignment a : changes) {
                assignments.refresh(Json.uuidText(a.topicId()));
            }
            return null;
        });
    }

    private static int failedOp(KeeperException e) {
        List<OpResult> results = e.getResults();
        if (results != null) {
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) instanceof OpResult.ErrorResult err && err.getErr() != KeeperException.Code.OK.intValue()
                        && err.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
                    return i;
                }
            }
        }
        return -1;
    }

    private Optional<WatchedChildren.Entry<TopicRecord>> topicById(UUID id) {
        return topics.entries().values().stream().filter(e -> e.value().topicId().equals(id)).findFirst();
    }

    @Override
    public Map<TopicPartitionRef, Integer> reassignmentRequests() {
        return reassignments.get().map(e -> Map.copyOf(e.value())).orElse(Map.of());
    }

    @Override
    public void alterReassignmentRequests(Map<TopicPartitionRef, Integer> targets) {
        if (targets.isEmpty()) {
            return;
        }
        casNode(ZkPaths.REASSIGNMENTS, current -> {
            Map<TopicPartitionRef, Integer> next = new HashMap<>(current == null ? Map.of() : Json.reassignments(current));
            targets.forEach((partition, target) -> {
                if (target < 0) {
                    next.remove(partition);
                } else {
                    next.put(partition, target);
                }
            });
            return next.isEmpty() ? null : Json.reassignments(next);
        });
        refreshQuietly(reassignments);
    }

    // ---- topics ----

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public Collection<TopicRecord> topics() {
        return topics.entries().values().stream().map(WatchedChildren.Entry::value).toList();
    }

    @Override
    public Optional<TopicRecord> topic(String name) {
        return topics.get(name).map(WatchedChildren.Entry::value);
    }

    @Override
    public Optional<TopicRecord> topic(UUID topicId) {
        return topicById(topicId).map(WatchedChildren.Entry::value);
    }

    @Override
    public void createTopic(TopicRecord topic) {
        call("create topic " + topic.name(), () -> {
            try {
                client.create().forPath(ZkPaths.topic(topic.name()), Json.topic(topic));
            } catch (KeeperException.NodeExistsException e) {
                TopicRecord stored = Json.topic(topic.name(), client.getData().forPath(ZkPaths.topic(topic.name())));
                if (!stored.topicId().equals(topic.topicId())) {
                    throw new TopicExistsException(topic.name());
                }
            }
            topics.refresh(topic.name());
            return null;
        });
    }

    @Override
    public void deleteTopic(String name) {
        String path = ZkPaths.topic(name);
        call("delete topic " + name, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stat stat = new Stat();
                TopicRecord record;
                try {
                    record = Json.topic(name, client.getData().storingStatIn(stat).forPath(path));
                } catch (KeeperException.NoNodeException e) {
                    throw new UnknownTopicException(name);
                }
                String assignment = ZkPaths.assignment(record.topicId());
                List<CuratorOp> ops = new ArrayList<>();
                ops.add(client.transactionOp().delete().withVersion(stat.getVersion()).forPath(path));
                Stat assigned = client.checkExists().forPath(assignment);
                if (assigned != null) {
                    ops.add(client.transactionOp().delete().withVersion(assigned.getVersion()).forPath(assignment));
                }
                try {
                    client.transaction().forOperations(ops);
                } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
                    continue;
                }
                topics.refresh(name);
                assignments.refresh(Json.uuidText(record.topicId()));
                dropMoveRequests(name);
                return null;
            }
            throw new ClusterStateException("Topic " + name + " kept changing while it was being deleted");
        });
    }

    private void dropMoveRequests(String topic) {
        Map<TopicPartitionRef, Integer> drop = new HashMap<>();
        reassignmentRequests().keySet().stream().filter(p -> p.topic().equals(topic)).forEach(p -> drop.put(p, -1));
        if (!drop.isEmpty()) {
            alterReassignmentRequests(drop);
        }
    }

    @Override
    public TopicRecord updateTopicConfigs(String name, Map<String, String> configs) {
        return updateTopic(name, t -> t.withConfigs(configs));
    }

    @Override
    public TopicRecord updatePartitionCount(String name, int partitions) {
        return updateTopic(name, t -> t.withPartitions(partitions));
    }

    private TopicRecord updateTopic(String name, UnaryOperator<TopicRecord> change) {
        byte[] written = casNode(ZkPaths.topic(name), current -> {
            if (current == null) {
                throw new UnknownTopicException(name);
            }
            return Json.topic(change.apply(Json.topic(name, current)));
        });
        call("read topic " + name, () -> {
            topics.refresh(name);
            return null;
        });
        return Json.topic(name, written);
    }

    @Override
    public long allocateProducerIdBlock(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("a producer-id block has at least one id, not " + size);
        }
        long[] start = new long[1];
        synchronized (producerIdLock) {
            casNode(ZkPaths.PRODUCER_IDS, current -> {
                start[0] = current == null ? 0 : Json.producerIdBlockEnd(current) + 1;
                return Json.producerIdBlock(brokerId, start[0], start[0] + size - 1);
            });
        }
        return start[0];
    }

    // ---- group configs ----

    @Override
    public Map<String, String> groupConfigs(String groupId) {
        return groupConfigs.get(NodeNames.encode(groupId)).map(e -> Map.copyOf(e.value())).orElse(Map.of());
    }

    @Override
    public void updateGroupConfigs(String groupId, Map<String, String> configs) {
        if (groupId.isEmpty()) {
            throw new IllegalArgumentException("the default group has no configs of its own");
        }
        String child = NodeNames.encode(groupId);
        casNode(ZkPaths.child(ZkPaths.GROUP_CONFIGS, child), current -> configs.isEmpty() ? null : Json.configs(configs));
        refreshQuietly(groupConfigs, child);
    }

    @Override
    public Collection<String> groupsWithConfigs() {
        return groupConfigs.entries().keySet().stream().map(NodeNames::decode).toList();
    }

    // ---- client quotas (Kafka's /config/clients, /config/users, /config/ips) ----

    @Override
    public Map<ClientQuotaEntity, Map<String, Double>> clientQuotas() {
        return quotas.quotas();
    }

    /**
     * Writes every entity's node in one multi with compare-and-set, reading again after a conflict. A user node keeps
     * its SCRAM credentials and its clients' nodes; it is removed only when nothing is left in it.
     */
    @Override
    public void alterClientQuotas(Map<ClientQuotaEntity, Map<String, Optional<Double>>> changes) {
        Map<ClientQuotaEntity, Map<String, Optional<Double>>> copy = Map.copyOf(changes);
        if (copy.isEmpty()) {
            return;
        }
        call("alter the client quotas of " + copy.size() + " entities", () -> {
            for (ClientQuotaEntity entity : copy.keySet()) {
                createQuotaParents(entity);
            }
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                List<CuratorOp> ops = new ArrayList<>();
                for (Map.Entry<ClientQuotaEntity, Map<String, Optional<Double>>> c : copy.entrySet()) {
                    quotaOp(WatchedQuotas.path(c.getKey()), c.getValue()).ifPresent(ops::add);
                }
                if (ops.isEmpty()) {
                    return null;
                }
                try {
                    client.transaction().forOperations(ops);
                } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                         | KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
                    continue;
                }
                quotas.refresh();
                return null;
            }
            throw new ClusterStateException("ZooKeeper client-quota nodes kept changing: gave up after " + MAX_ATTEMPTS
                    + " attempts");
        });
    }

    private Optional<CuratorOp> quotaOp(String path, Map<String, Optional<Double>> change) throws Exception {
        Stat stat = new Stat();
        byte[] current;
        try {
            current = client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            current = null;
        }
        Map<String, String> config = new TreeMap<>(Json.configOrEmpty(current));
        change.forEach((key, value) -> {
            if (value.isPresent()) {
                config.put(key, Double.toString(value.get()));
            } else {
                config.remove(key);
            }
        });
        if (current == null) {
            return config.isEmpty() ? Optional.empty()
                    : Optional.of(client.transactionOp().create().forPath(path, Json.withConfig(null, config)));
        }
        if (config.isEmpty() && !Json.hasCredentials(current) && stat.getNumChildren() == 0) {
            return Optional.of(client.transactionOp().delete().withVersion(stat.getVersion()).forPath(path));
        }
        byte[] next = Json.withConfig(current, config);
        return Arrays.equals(current, next) ? Optional.empty()
                : Optional.of(client.transactionOp().setData().withVersion(stat.getVersion()).forPath(path, next));
    }

    /** A user's client node needs the user's node (with a {@code config}, so SCRAM keeps it) and its clients node. */
    private void createQuotaParents(ClientQuotaEntity entity) throws Exception {
        String user = entity.name(ClientQuotaEntity.USER);
        if (user == null || entity.name(ClientQuotaEntity.CLIENT_ID) == null) {
            return;
        }
        String userPath = ZkPaths.child(ZkPaths.SCRAM, QuotaNames.encode(user));
        casNode(userPath, current -> current != null && Json.hasField(current, "config") ? current
                : Json.withConfig(current, Map.of()));
        try {
            client.create().forPath(userPath + "/clients", new byte[0]);
        } catch (KeeperException.NodeExistsException e) {
            // made before
        }
    }

    // ---- dynamic broker configs (Kafka's /config/brokers/<id> and /config/brokers/<default>) ----

    @Override
    public Map<String, String> brokerConfigs(OptionalInt brokerId) {
        return brokerConfigs.get(brokerConfigNode(brokerId)).map(e -> Map.copyOf(e.value())).orElse(Map.of());
    }

    @Override
    public void updateBrokerConfigs(OptionalInt brokerId, Map<String, String> configs) {
        Map<String, String> copy = Map.copyOf(configs);
        String child = brokerConfigNode(brokerId);
        casNode(ZkPaths.child(ZkPaths.BROKER_CONFIGS, child), current -> copy.isEmpty() ? null : Json.configs(copy));
        refreshQuietly(brokerConfigs, child);
    }

    private static String brokerConfigNode(OptionalInt brokerId) {
        return brokerId.isPresent() ? Integer.toString(brokerId.getAsInt()) : QuotaNames.DEFAULT;
    }

    // ---- SCRAM credentials ----

    @Override
    public Collection<ScramCredentialRecord> scramCredentials() {
        return scram.entries().values().stream().flatMap(e -> e.value().values().stream()).toList();
    }

    @Override
    public Collection<ScramCredentialRecord> scramCredentials(String user) {
        return scram.get(NodeNames.encode(user)).map(e -> List.copyOf(e.value().values())).orElse(List.of());
    }

    @Override
    public void alterScramCredentials(Collection<ScramCredentialRecord> upserts, Collection<ScramCredentialRef> deletions) {
        Set<ScramCredentialRef> named = new HashSet<>();
        Map<String, Map<String, Optional<ScramCredentialRecord>>> byUser = new LinkedHashMap<>();
        for (ScramCredentialRecord r : upserts) {
            if (!named.add(r.ref())) {
                throw new IllegalArgumentException("SCRAM credential " + r.user() + "/" + r.mechanism() + " is named twice");
            }
            byUser.computeIfAbsent(r.user(), u -> new LinkedHashMap<>()).put(r.mechanism(), Optional.of(r));
        }
        for (ScramCredentialRef ref : deletions) {
            if (!named.add(ref)) {
                throw new IllegalArgumentException("SCRAM credential " + ref.user() + "/" + ref.mechanism() + " is named twice");
            }
            byUser.computeIfAbsent(ref.user(), u -> new LinkedHashMap<>()).put(ref.mechanism(), Optional.empty());
        }
        Map<String, UnaryOperator<byte[]>> changes = new LinkedHashMap<>();
        byUser.forEach((user, mechanisms) -> changes.put(NodeNames.encode(user), current -> {
            Map<String, ScramCredentialRecord> next = new TreeMap<>(current == null ? Map.of() : Json.scram(user, current));
            mechanisms.forEach((mechanism, r) -> {
                if (r.isPresent()) {
                    next.put(mechanism, r.get());
                } else {
                    next.remove(mechanism);
                }
            });
            return Json.scramKeepingConfig(current, next);
        }));
        casChildren(scram, changes);
    }

    // ---- ACLs ----

    @Override
    public Collection<AclBinding> acls() {
        return acls.entries().values().stream().flatMap(e -> e.value().stream()).toList();
    }

    @Override
    public void addAcls(Collection<AclBinding> bindings) {
        alterAcls(bindings, true);
    }

    @Override
    public void removeAcls(Collection<AclBinding> bindings) {
        alterAcls(bindings, false);
    }

    private void alterAcls(Collection<AclBinding> bindings, boolean add) {
        Map<ResourcePattern, List<AccessControlEntry>> byPattern = new LinkedHashMap<>();
        for (AclBinding b : bindings) {
            byPattern.computeIfAbsent(b.pattern(), p -> new ArrayList<>()).add(b.entry());
        }
        Map<String, UnaryOperator<byte[]>> changes = new LinkedHashMap<>();
        byPattern.forEach((pattern, entries) -> changes.put(Json.aclNodeName(pattern), current -> {
            Set<AccessControlEntry> next = new LinkedHashSet<>();
            if (current != null) {
                Json.acls(current).forEach(b -> next.add(b.entry()));
            }
            if (add) {
                next.addAll(entries);
            } else {
                entries.forEach(next::remove);
            }
            return next.isEmpty() ? null : Json.acls(pattern, List.copyOf(next));
        }));
        casChildren(acls, changes);
    }

    // ---- listeners ----

    @Override
    public void addListener(ClusterListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(ClusterListener listener) {
        listeners.remove(listener);
    }

    private void fire(Consumer<ClusterListener> call) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            listenerThread.execute(() -> {
                for (ClusterListener l : listeners) {
                    try {
                        call.accept(l);
                    } catch (RuntimeException e) {
                        LOG.warn("A cluster listener of broker {} failed: {}", brokerId, e.toString());
                    }
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the store is closed
        }
    }

    // ---- compare-and-set helpers ----

    /**
     * Replaces one node by {@code change} (given its current data, or null if absent; answering null deletes it) with
     * compare-and-set, reading again after a conflict. @return what was written (null: deleted or left absent)
     */
    private byte[] casNode(String path, UnaryOperator<byte[]> change) {
        return call("write " + path, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stat stat = new Stat();
                byte[] current;
                try {
                    current = client.getData().storingStatIn(stat).forPath(path);
                } catch (KeeperException.NoNodeException e) {
                    current = null;
                }
                byte[] next = change.apply(current);
                try {
                    if (current == null) {
                        if (next != null) {
                            client.create().forPath(path, next);
                        }
                    } else if (next == null) {
                        client.delete().withVersion(stat.getVersion()).forPath(path);
                    } else if (!Arrays.equals(current, next)) {
                        client.setData().withVersion(stat.getVersion()).forPath(path, next);
                    }
                    return next;
                } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                         | KeeperException.NoNodeException e) {
                    // changed meanwhile: read again
                }
            }
            throw new ClusterStateException("ZooKeeper node " + path + " kept changing: gave up after " + MAX_ATTEMPTS + " attempts");
        });
    }

    /** Like {@link #casNode} for several children of {@code cache}'s directory, all or nothing in one multi. */
    private <T> void casChildren(WatchedChildren<T> cache, Map<String, UnaryOperator<byte[]>> changes) {
        if (changes.isEmpty()) {
            return;
        }
        call("write " + cache.dir(), () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                List<CuratorOp> ops = new ArrayList<>();
                for (Map.Entry<String, UnaryOperator<byte[]>> c : changes.entrySet()) {
                    String path = ZkPaths.child(cache.dir(), c.getKey());
                    Stat stat = new Stat();
                    byte[] current;
                    try {
                        current = client.getData().storingStatIn(stat).forPath(path);
                    } catch (KeeperException.NoNodeException e) {
                        current = null;
                    }
                    byte[] next = c.getValue().apply(current);
                    if (current == null && next != null) {
                        ops.add(client.transactionOp().create().forPath(path, next));
                    } else if (current != null && next == null) {
                        ops.add(client.transactionOp().delete().withVersion(stat.getVersion()).forPath(path));
                    } else if (current != null && !Arrays.equals(current, next)) {
                        ops.add(client.transactionOp().setData().withVersion(stat.getVersion()).forPath(path, next));
                    }
                }
                if (ops.isEmpty()) {
                    return null;
                }
                try {
                    client.transaction().forOperations(ops);
                } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                         | KeeperException.NoNodeException e) {
                    continue;
                }
                for (String child : changes.keySet()) {
                    cache.refresh(child);
                }
                return null;
            }
            throw new ClusterStateException("ZooKeeper nodes under " + cache.dir() + " kept changing: gave up after "
                    + MAX_ATTEMPTS + " attempts");
        });
    }

    private void refreshQuietly(WatchedNode<?> node) {
        try {
            node.refresh();
        } catch (Exception e) {
            LOG.debug("Could not re-read a ZooKeeper node: {}", e.toString());
        }
    }

    private void refreshQuietly(WatchedChildren<?> cache, String child) {
        call("read " + cache.dir() + "/" + child, () -> {
            cache.refresh(child);
            return null;
        });
    }

    /** Runs a ZooKeeper operation; our own runtime exceptions pass, ZooKeeper's failures become ClusterStateException. */
    private <T> T call(String what, Callable<T> op) {
        try {
            return op.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterStateException("Interrupted while trying to " + what + " in ZooKeeper at " + config.connect, e);
        } catch (Exception e) {
            throw new ClusterStateException("Could not " + what + " in ZooKeeper at " + config.connect + ": " + e, e);
        }
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    // ---- close ----

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        election.close(config.sessionTimeoutMs);
        leaseThread.shutdownNow();
        session.end(SessionState.CLOSED);
        fire(l -> l.sessionChanged(SessionState.CLOSED));
        caches().forEach(WatchedChildren::close);
        quotas.close();
        controllerNode.close();
        reassignments.close();
        client.close();
        events.shutdownNow();
        electionThread.shutdownNow();
        listenerThread.shutdown();
        try {
            listenerThread.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("Broker {} closed its ZooKeeper session at {}", brokerId, config.connect);
    }
}
