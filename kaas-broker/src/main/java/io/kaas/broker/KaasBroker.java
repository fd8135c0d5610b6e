package io.kaas.broker;

import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.broker.admin.AdminServer;
import io.kaas.broker.admin.Readiness;
import io.kaas.broker.auth.AccessGate;
import io.kaas.broker.auth.StoredScramCredentials;
import io.kaas.broker.cluster.ClusterMember;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.broker.config.ListenerConfig;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.config.Listener;
import io.kaas.broker.config.SaslKeys;
import io.kaas.broker.handler.Handlers;
import io.kaas.broker.handler.QuotaHandlers;
import io.kaas.broker.handler.acl.AclHandlers;
import io.kaas.broker.handler.group.GroupHandlers;
import io.kaas.broker.handler.sasl.FailedAuthentications;
import io.kaas.broker.handler.sasl.SaslHandlers;
import io.kaas.broker.handler.sasl.SaslMechanisms;
import io.kaas.broker.handler.txn.TxnHandlers;
import io.kaas.broker.interbroker.InterBroker;
import io.kaas.broker.metrics.BrokerMetrics;
import io.kaas.broker.metrics.BrokerSeries;
import io.kaas.broker.network.KafkaServer;
import io.kaas.broker.quota.ClientQuotaManager;
import io.kaas.broker.quota.ConnectionRateQuotas;
import io.kaas.broker.quota.QuotaStore;
import io.kaas.broker.quota.QuotaThrottle;
import io.kaas.broker.quota.StoredQuotas;
import io.kaas.broker.network.Listeners;
import io.kaas.broker.network.NetworkSettings;
import io.kaas.broker.network.ServedListener;
import io.kaas.broker.network.SlowRequestLog;
import io.kaas.broker.request.Features;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.request.ServedApi;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.coordinator.ConsumerOffsetsTopic;
import io.kaas.broker.handler.TransactionVerifier;
import io.kaas.broker.coordinator.CoordinatorPartitions;
import io.kaas.broker.coordinator.CoordinatorTopic;
import io.kaas.broker.transaction.LocalMarkerWriter;
import io.kaas.broker.transaction.MarkerAppender;
import io.kaas.broker.transaction.TransactionStateTopic;
import io.kaas.broker.transaction.VerificationGuards;
import io.kaas.coordinator.CoordinatorContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.transaction.ProducerIds;
import io.kaas.coordinator.transaction.TransactionConfig;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.plugins.BackendCatalog;
import io.kaas.plugins.BackendSelection;
import io.kaas.plugins.PluginsDirectory;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running broker: backends opened, listener bound, partitions open, requests served. Start with
 * {@link #start(BrokerConfig)}; {@link #close()} shuts down gracefully (stop accepting, drain
 * in-flight requests, close partitions with an fsync, then the engine and the cluster store) and is
 * idempotent. Thread-safe.
 */
public final class KaasBroker implements BrokerContext, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KaasBroker.class);
    /** How long start-up waits for the controller's first assignments and this broker's partitions to open. */
    private static final java.time.Duration READY_WAIT = java.time.Duration.ofSeconds(60);

    private final BrokerConfig config;
    private final Clock clock = Clock.systemUTC();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private ClusterStateStore clusterStore;
    private StorageEngine storageEngine;
    private Optional<AuthorizerProvider> authorizerProvider = Optional.empty();
    private AccessGate accessGate = AccessGate.ALLOW_ALL;
    private SaslMechanisms saslMechanisms;
    private ScheduledExecutorService scheduler;
    /** Completes the transactional offsets markers end, and writes those of remote transactions (both block). */
    private java.util.concurrent.ExecutorService txnOffsets;
    private KafkaServer server;
    private ConnectionRateQuotas connectionRates;
    /** How old the cached end offsets of partitions other brokers write may be when /metrics reports lag on them. */
    private static final long REMOTE_END_OFFSETS_MAX_AGE_MS = 5_000;
    private FutureTask<InetSocketAddress> bound;
    private TopicManager topics;
    private ClusterMember cluster;
    private GroupCoordinator groups;
    private TransactionCoordinator transactions;
    private InterBroker interBroker;
    private volatile List<ServedListener> listeners = List.of();
    private final io.kaas.broker.network.DynamicListenerTls listenerTls =
        new io.kaas.broker.network.DynamicListenerTls(() -> listeners);
    private Map<String, BrokerEndpoint> advertised = Map.of();
    private boolean closed;
    private volatile boolean serving;
    // ---- metrics: the admin endpoint (admin.listener) and the registry it serves ----
    /** Made on the admin endpoint's start-up thread ({@link #startAdminInBackground}); set by {@link #awaitAdmin}. */
    private volatile BrokerMetrics metrics;
    private io.kaas.broker.metrics.EngineMetrics engineMetrics;
    private AdminServer admin;
    /** The registry and admin endpoint being made ({@link #startAdminInBackground}), until {@link #awaitAdmin}. */
    private FutureTask<AdminStart> adminStarting;
    // ---- the web console's JSON API on the admin endpoint (admin.console.enabled) ----
    private HandlerRegistry consoleRegistry;
    private io.kaas.broker.console.Console console;
    private final long startedMs = System.currentTimeMillis();

    private KaasBroker(BrokerConfig config) {
        this.config = config;
    }

    /**
     * Starts a broker and returns once it serves requests.
     *
     * @throws ConfigException                          if the config cannot be used
     * @throws io.kaas.plugins.BackendSelectionException if a configured backend name is unknown or ambiguous
     * @throws IOException                              if the data directory, a backend or the listener fails
     */
    public static KaasBroker start(BrokerConfig config) throws IOException {
        StartupPhases phases = new StartupPhases();
        logConfigWarnings(config);
        Optional<io.kaas.broker.config.AdminListener> adminListener = config.adminListener();
        KaasBroker broker = new KaasBroker(config);
        StorageEngineProvider engine;
        ClusterStateStoreProvider store;
        BackendCatalog catalog;
        try {
            // Netty's set-up and the bind run while the plugins are found and the backends opened.
            broker.bindInBackground();
            phases.mark("listeners set up");
            // The metric registry is made and the admin endpoint bound on a thread of their own too.
            broker.startAdminInBackground(adminListener);
            catalog = BackendCatalog.discover(PluginsDirectory.resolve(config.originalValue("plugins.dir")),
                BackendSelection.of(Map.of("storage.engine", config.storageEngine(), "cluster.store", config.clusterStore(),
                    "authorizer", config.authorizer())));
            engine = catalog.select(StorageEngineProvider.class, "storage.engine", config.storageEngine());
            logKeysWithoutEffect(config, engine);
            store = catalog.select(ClusterStateStoreProvider.class, "cluster.store", config.clusterStore());
            checkEngineSharesVolume(engine, store);
            broker.authorizerProvider = catalog.selectOrNone(AuthorizerProvider.class, "authorizer",
                config.authorizer(), "none");
            phases.mark("plugins");
            broker.open(engine, store, phases);
            BrokerSeries.registerInfo(broker.metrics, catalog.all(), engine.name(), store.name());
        } catch (IOException | RuntimeException e) {
            broker.close();
            throw e;
        } catch (InterruptedException e) {
            broker.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting", e);
        }
        String listening = broker.listening();
        String controller = broker.cluster.controllerId().map(String::valueOf).orElse("none yet");
        LOG.atInfo()
            .addKeyValue("nodeId", config.nodeId())
            .addKeyValue("listeners", listening)
            .addKeyValue("engine", engine.name())
            .addKeyValue("store", store.name())
            .addKeyValue("controller", controller)
            .addKeyValue("dataDir", config.logDir().toAbsolutePath().normalize())
            .addKeyValue("startMs", phases.elapsedMs())
            .log("kaas broker {} started: listening on {}, storage engine '{}', cluster store '{}', controller {}, "
                    + "data in {}, transport {}, in {} ms",
                config.nodeId(), listening, engine.name(), store.name(), controller,
                config.logDir().toAbsolutePath().normalize(), broker.server.transportName(), phases.elapsedMs());
        try {
            // The console's API (and its charts' sampler) joins the admin endpoint once the broker serves Kafka clients;
            // this method returns with it in place.
            broker.startConsole(catalog, engine, store);
            phases.mark("console (after the start-up line)");
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        phases.log(config.nodeId());
        return broker;
    }

    private synchronized void open(StorageEngineProvider engineProvider, ClusterStateStoreProvider storeProvider,
                                   StartupPhases phases) throws IOException, InterruptedException {
        Path dataDir = config.logDir();
        Files.createDirectories(dataDir);
        clusterStore = storeProvider.open(new ClusterStoreContext(dataDir,
            config.clusterStoreConfig(storeProvider.name()), config.nodeId()));
        saslMechanisms = SaslMechanisms.of(config.listenerConfigs(), new StoredScramCredentials(clusterStore));
        accessGate = AccessGate.open(authorizerProvider, config, clusterStore);
        phases.mark("cluster store");
        awaitBound();
        phases.mark("listeners bound");
        awaitAdmin();
        phases.mark("admin endpoint bound");
        advertised = advertisedEndpoints();
        // Registered once the listeners (and the admin endpoint) are bound (the registration carries their ports): a
        // taken address fails start-up before this broker is seen in the cluster. A node id live elsewhere
        // fails start-up here, before any partition is opened.
        cluster = ClusterMember.join(clusterStore, registration());
        phases.mark("registration");
        storageEngine = engineProvider.open(new EngineContext(dataDir,
            config.engineConfig(engineProvider.name(), engineProvider.configKeys()), config.nodeId(), clock,
            config.producerExpiration(), cluster.fence(), engineMetrics));
        phases.mark("storage engine");
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kaas-scheduler");
            t.setDaemon(true);
            return t;
        });
        txnOffsets = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kaas-txn-offsets");
            t.setDaemon(true);
            return t;
        });
        watchTlsStores();
        topics = new TopicManager(this, TopicNames.reservedBy(engineProvider, storeProvider));
        CoordinatorContext coordinatorContext = CoordinatorContext.of(clusterStore, scheduler, clock);
        ConsumerOffsetsTopic offsetsTopic = new ConsumerOffsetsTopic(topics, config.offsetsTopicPartitions(),
            config.offsetsTopicSegmentBytes());
        groups = GroupCoordinator.create(coordinatorContext, config.groupCoordinator(), offsetsTopic);
        phases.mark("topic manager, group coordinator");
        TransactionConfig txnConfig = config.transactionCoordinator();
        TransactionStateTopic transactionState = new TransactionStateTopic(topics, txnConfig.stateLogPartitions(),
            config.transactionStateLogSegmentBytes());
        VerificationGuards guards = new VerificationGuards();
        MarkerAppender markers = new MarkerAppender(topics, guards, clock, this::markerWritten);
        ProducerIds producerIds = new ProducerIds(clusterStore);
        // Markers and verifications for partitions and coordinators on other brokers go over the inter-broker listener.
        ClusterView view = cluster.view();
        interBroker = InterBroker.open(config, view, scheduler);
        transactions = TransactionCoordinator.create(coordinatorContext, txnConfig, transactionState,
            interBroker.markers(new LocalMarkerWriter(markers)), producerIds, groups);
        TransactionVerifier verifier = interBroker.verifier(Handlers.localVerifier(transactions),
            transactions::partitionFor);
        phases.mark("inter-broker client, transaction coordinator");
        ClientQuotaManager quotaManager = new ClientQuotaManager(config.quotaWindowNum(),
            TimeUnit.SECONDS.toMillis(config.quotaWindowSizeSeconds()), config.controllerQuotaWindowNum(),
            TimeUnit.SECONDS.toMillis(config.controllerQuotaWindowSizeSeconds()), clock::millis);
        List<ServedApi<?, ?>> handlers = new ArrayList<>(Handlers.create(this, topics, producerIds, transactions,
            verifier, guards, groups, quotaManager));
        handlers.addAll(GroupHandlers.create(this, groups, view, offsetsTopic, transactionState, topics));
        handlers.addAll(TxnHandlers.create(topics, transactions, markers, groups.offsets(), verifier, txnOffsets));
        handlers.addAll(SaslHandlers.create(saslMechanisms,
            new FailedAuthentications(SaslKeys.failedAuthenticationDelayMs(config), scheduler)));
        handlers.addAll(AclHandlers.create(accessGate.aclAdmin()));
        handlers.addAll(QuotaHandlers.create(openQuotas(quotaManager)));
        // The epoch only grows: clients re-read the finalized levels when they see a higher one (after a restart
        // with another transaction.version, say).
        HandlerRegistry registry = HandlerRegistry.of(accessGate, handlers,
            Features.of(config.transactionVersion(), clock.millis()),
            new io.kaas.broker.request.BrokerIdentity(this::clusterId, config.nodeId()));
        phases.mark("handlers, quotas");
        // dynamic broker configs (kafka-configs --entity-type brokers): before the topics load, so they open with them
        new io.kaas.broker.topic.DynamicBrokerConfigApplier(clusterStore, config.nodeId(), topics, scheduler,
            merged -> applyDynamicServerConfigs(merged, engineProvider)).start();
        topics.open();
        phases.mark("topics");
        cluster.start(storageEngine, topics);
        if (!cluster.awaitReady(READY_WAIT, (topic, partition) -> topics.log(topic, partition) != null)) {
            LOG.atWarn().addKeyValue("nodeId", config.nodeId())
                .log("broker {}: not every partition assigned to it is open after {} s; serving meanwhile",
                    config.nodeId(), READY_WAIT.toSeconds());
        }
        phases.mark("assignments, partitions open");
        groups.start();
        transactions.start();
        // After the topics (the state log and the data partitions markers go to), before the first request.
        followCoordinatorPartitions(offsetsTopic, transactionState);
        phases.mark("coordinators");
        BrokerSeries.register(metrics, config.nodeId(), topics, cluster, groups, () -> serving,
            new io.kaas.broker.metrics.RemoteEndOffsets(view, interBroker.client(), REMOTE_END_OFFSETS_MAX_AGE_MS));
        server.observe(new io.kaas.broker.metrics.RequestMetrics(metrics.registry()));
        phases.mark("broker series");
        server.serve(registry);
        consoleRegistry = registry;
        serving = true;
        metrics.bindJvmMetrics(scheduler);
        phases.mark("serve");
    }

    /**
     * The metric registry, the storage engine's meters on it, and the admin endpoint serving it (null for {@code
     * admin.listener=none}).
     */
    private record AdminStart(BrokerMetrics metrics, io.kaas.broker.metrics.EngineMetrics engineMetrics,
                              AdminServer admin) {
    }

    /**
     * Makes the metric registry (and the engine's meters) and starts the admin endpoint on a thread of its own
     * ({@code kaas-admin-bind}), while the plugins are found and the cluster store opened; {@link #awaitAdmin} joins
     * it, before this broker registers. Just the registry for {@code admin.listener=none}.
     */
    private synchronized void startAdminInBackground(Optional<io.kaas.broker.config.AdminListener> listener) {
        adminStarting = new FutureTask<>(() -> {
            BrokerMetrics registry = new BrokerMetrics();
            try {
                // The engine's meters (the first histograms made) here too: the engine opens with them.
                io.kaas.broker.metrics.EngineMetrics engineMetrics = new io.kaas.broker.metrics.EngineMetrics(registry);
                return new AdminStart(registry, engineMetrics,
                    listener.isEmpty() ? null : startAdmin(listener.get(), registry));
            } catch (IOException | RuntimeException e) {
                registry.close();
                throw e;
            }
        });
        Thread binder = new Thread(adminStarting, "kaas-admin-bind");
        binder.setDaemon(true);
        binder.start();
    }

    /** Joins {@link #startAdminInBackground}: its failure (the address taken, say) fails start-up. */
    private void awaitAdmin() throws IOException, InterruptedException {
        FutureTask<AdminStart> starting;
        synchronized (this) {
            starting = adminStarting;
        }
        AdminStart started;
        try {
            started = starting.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException("cannot start the admin endpoint: " + cause, cause);
        }
        synchronized (this) {
            metrics = started.metrics();
            engineMetrics = started.engineMetrics();
            admin = started.admin();
        }
    }

    /** The admin endpoint, serving /health at once and /ready once this broker is ready. */
    private AdminServer startAdmin(io.kaas.broker.config.AdminListener listener, BrokerMetrics metrics)
            throws IOException {
        Readiness readiness = new Readiness(() -> serving,
            () -> cluster != null && topics != null
                && cluster.readyNow((topic, partition) -> topics.log(topic, partition) != null),
            () -> clusterStore == null ? null : clusterStore.session());
        AdminServer server = AdminServer.start(listener, metrics, readiness, config.adminConsoleEnabled());
        // The console's pages (/console/), built into this jar; served only when admin.console.enabled.
        server.assets(io.kaas.broker.admin.ConsoleAssets.load());
        return server;
    }

    /**
     * The console's JSON API on the admin endpoint, once the broker serves: its reads and actions run this broker's
     * handlers in-process as the console user (the first listener's view), signed in against the stored SCRAM
     * credentials when an authorizer is configured.
     */
    private void startConsole(BackendCatalog catalog, StorageEngineProvider engine, ClusterStateStoreProvider store) {
        if (admin == null || !config.adminConsoleEnabled()) {
            return;
        }
        ListenerConfig first = config.listenerConfigs().get(0);
        List<io.kaas.plugins.FoundBackend> found = catalog.all();
        String version = softwareVersion();
        io.kaas.broker.console.Console.Facts facts = new io.kaas.broker.console.Console.Facts(config.nodeId(), version,
            startedMs, backend(found, "storage engine", engine.name(), engine.version()),
            backend(found, "cluster-state store", store.name(), store.version()), accessGate.name(), found,
            config.logDir().toAbsolutePath().normalize(), cluster.view());
        console = io.kaas.broker.console.Console.start(new io.kaas.broker.console.Console.Pipeline(consoleRegistry,
                first.name(), first.securityProtocol().name(), interBroker == null ? null : interBroker.client()),
            accessGate.enabled(),
            new StoredScramCredentials(clusterStore), facts, metrics.registry(), groups, topics);
        admin.console(console.api());
    }

    private static io.kaas.plugins.FoundBackend backend(List<io.kaas.plugins.FoundBackend> found, String kind,
                                                       String name, String version) {
        return found.stream().filter(f -> f.kind().equals(kind) && f.name().equals(name)).findFirst()
            .orElseGet(() -> new io.kaas.plugins.FoundBackend(kind, name, version, "built in"));
    }

    /** The admin endpoint's bound port (the real one when {@code admin.listener} asked for port 0), or -1 for none. */
    public int adminPort() {
        return admin == null ? -1 : admin.port();
    }

    /** The broker's metric registry (what /metrics serves). */
    public BrokerMetrics metrics() {
        return metrics;
    }

    /** The stored client quotas, in force on this broker's listeners from now on and after every change. */
    private QuotaStore openQuotas(ClientQuotaManager quotaManager) {
        QuotaStore quotaStore = new StoredQuotas(clusterStore);
        connectionRates = new ConnectionRateQuotas(config.quotaWindowNum(),
            TimeUnit.SECONDS.toMillis(config.quotaWindowSizeSeconds()), config.maxConnectionCreationRate(),
            clock.millis());
        connectionRates.listenerRates(config.listenerConnectionCreationRates(Map.of()));
        connectionRates.protectListener(config.listenerConfigs().size() > 1 ? config.interBrokerListenerName() : null);
        quotaStore.onChange(() -> {
            quotaManager.update(quotaStore.clientQuotas());
            connectionRates.update(quotaStore.clientQuotas());
        });
        quotaManager.update(quotaStore.clientQuotas());
        connectionRates.update(quotaStore.clientQuotas());
        server.limitConnectionRatesWith(connectionRates);
        server.throttleWith(new QuotaThrottle(quotaManager));
        return quotaStore;
    }

    /**
     * The connection limits and rates, the request-handler and network threads and the storage engine's cleaner
     * settings of this broker's effective dynamic broker configs {@code merged}.
     */
    private void applyDynamicServerConfigs(Map<String, String> merged, StorageEngineProvider engineProvider) {
        server.reconfigureConnections(config.connectionLimits(merged));
        connectionRates.brokerRate(config.maxConnectionCreationRate(merged));
        connectionRates.listenerRates(config.listenerConnectionCreationRates(merged));
        server.resizeRequestHandlers(config.numIoThreads(merged));
        server.resizeNetworkThreads(config.numNetworkThreads(merged));
        storageEngine.reconfigure(config.engineConfig(engineProvider.name(), engineProvider.configKeys(), merged));
        listenerTls.apply(merged);
    }

    @Override
    public String listenerTlsProblem(Map<String, String> configs) {
        return listenerTls.problem(configs);
    }

    /**
     * The coordinators serve the groups and transactional ids of the partitions of their internal topics this broker
     * writes: the partition ownership tells them of each one gained (the coordinator loads it) and lost (it drops it),
     * those written here already first. The offsets first: completing a transaction found prepared commits offsets.
     * A data directory whose files store still holds committed offsets from before SPI 5 gets {@code
     * __consumer_offsets} at once, so the group coordinator moves them there as it loads its partitions.
     */
    private void followCoordinatorPartitions(CoordinatorTopic offsets, CoordinatorTopic transactionState)
            throws IOException {
        cluster.ownership().addListener(offsets.name(), CoordinatorPartitions.of(groups, cluster.fence()));
        cluster.ownership().addListener(transactionState.name(), CoordinatorPartitions.of(transactions,
            cluster.fence()));
        if (!offsets.exists() && storeHoldsOffsetsFromBeforeSpi5()) {
            offsets.ensureCreated();
        }
    }

    /** Whether the cluster store still holds committed offsets, as stores before SPI 5 kept them. */
    @SuppressWarnings("deprecation")
    private boolean storeHoldsOffsetsFromBeforeSpi5() {
        return !clusterStore.groupsWithOffsets().isEmpty();
    }

    /**
     * Creates the server of every listener (TLS stores read here: a bad one fails start-up) and binds them on a
     * thread of its own; {@link #awaitBound} joins it.
     */
    private synchronized void bindInBackground() {
        listeners = Listeners.of(config);
        server = new KafkaServer(listeners, config.connectionLimits());
        server.logSlowRequests(new SlowRequestLog(config.slowRequestLogThresholdMs()));
        server.protectListener(config.interBrokerListenerName());
        bound = new FutureTask<>(server::bind);
        Thread binder = new Thread(bound, "kaas-bind");
        binder.setDaemon(true);
        binder.start();
    }

    private InetSocketAddress awaitBound() throws IOException, InterruptedException {
        try {
            return bound.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            throw new IOException("cannot bind " + config.listeners() + ": " + cause, cause);
        }
    }

    /**
     * Each listener's advertised endpoint: its {@code advertised.listeners} entry (port 0, or the port asked in
     * {@code listeners}, standing for the bound port), else its own bound address (an empty or wildcard host
     * replaced by the canonical host name), as Kafka falls back to {@code listeners}.
     */
    private Map<String, BrokerEndpoint> advertisedEndpoints() {
        Map<String, BrokerEndpoint> out = new LinkedHashMap<>();
        for (Listener bound : config.listeners()) {
            int port = server.port(bound.name());
            Listener a = config.advertisedListeners().stream()
                .filter(l -> l.name().equals(bound.name()))
                .findFirst()
                .orElseGet(() -> new Listener(bound.name(), advertisableHost(bound.host()), bound.port()));
            out.put(bound.name(), new BrokerEndpoint(a.name(), a.host(),
                a.port() == 0 || a.port() == bound.port() ? port : a.port()));
        }
        return Map.copyOf(out);
    }

    private static String advertisableHost(String host) {
        if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")) {
            try {
                return java.net.InetAddress.getLocalHost().getCanonicalHostName();
            } catch (java.net.UnknownHostException e) {
                return "localhost";
            }
        }
        return host;
    }

    /** What this broker registers: every advertised listener (the first one first) with its security protocol. */
    private BrokerRegistration registration() {
        List<RegisteredEndpoint> endpoints = new ArrayList<>();
        for (ListenerConfig l : config.listenerConfigs()) {
            BrokerEndpoint e = advertised.get(l.name());
            endpoints.add(new RegisteredEndpoint(l.name(), l.securityProtocol().name(), e.host(), e.port()));
        }
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return new BrokerRegistration(config.nodeId(), endpoints, config.rack(), host, ProcessHandle.current().pid(),
            java.util.Optional.of(softwareVersion()), java.util.OptionalLong.of(startedMs));
    }

    /** kaas's version: the module's, else the jar manifest's, else "unknown". */
    private static String softwareVersion() {
        return java.util.Optional.ofNullable(KaasBroker.class.getModule().getDescriptor())
            .flatMap(java.lang.module.ModuleDescriptor::rawVersion)
            .orElseGet(() -> java.util.Objects.requireNonNullElse(KaasBroker.class.getPackage().getImplementationVersion(),
                "unknown"));
    }

    /**
     * A store shared by several brokers needs an engine whose files several brokers can open on one volume, each
     * writing its own partitions ({@link StorageEngineProvider#sharedVolume()}); the single-broker {@code files}
     * store takes any.
     */
    private static void checkEngineSharesVolume(StorageEngineProvider engine, ClusterStateStoreProvider store) {
        if (!store.name().equals("files") && !engine.sharedVolume()) {
            throw new ConfigException("storage.engine", "storage engine '" + engine.name()
                + "' cannot share its data directory with other brokers, which cluster store '" + store.name()
                + "' needs (use an engine that shares a volume, e.g. segments, or cluster.store=files)");
        }
    }

    /** Checks every TLS listener's store files on the scheduler; a changed one is reloaded for new connections. */
    private void watchTlsStores() {
        long every = config.tlsStoreCheckIntervalMs();
        for (ServedListener l : listeners) {
            if (l.tls() != null && !l.tls().watchedFiles().isEmpty()) {
                scheduler.scheduleWithFixedDelay(() -> {
                    try {
                        l.tls().reloadIfChanged();
                    } catch (RuntimeException e) {
                        LOG.atWarn().setCause(e).addKeyValue("listener", l.settings().listenerName())
                            .log("TLS listener {}: checking its store files failed", l.settings().listenerName());
                    }
                }, every, every, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The port the first listener is bound to (the real one when {@code listeners} asked for port 0). */
    public int boundPort() {
        return server.port();
    }

    /**
     * The port listener {@code listenerName} (upper case, as in {@code listeners}) is bound to.
     *
     * @throws IllegalArgumentException if the broker has no such listener
     */
    public int boundPort(String listenerName) {
        return server.port(listenerName.toUpperCase(java.util.Locale.ROOT));
    }

    /** Blocks until {@link #close()} has finished. */
    public void awaitShutdown() throws InterruptedException {
        stopped.await();
    }

    /**
     * Graceful shutdown: stop accepting, drain in-flight requests (bounded), close every partition
     * (fsync), then the engine and the cluster store. Idempotent; never throws.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        long began = System.nanoTime();
        quietly("console", console);
        quietly("network server", server);
        quietly("SASL mechanisms", saslMechanisms);
        quietly("transaction coordinator", transactions);
        quietly("inter-broker client", interBroker);
        quietly("group coordinator", groups);
        quietly("cluster membership", cluster);
        quietly("topic manager", topics);
        quietly("storage engine", storageEngine);
        quietly("authorizer", accessGate);
        quietly("cluster store", clusterStore);
        AdminStart adminStart = adminToClose();
        quietly("admin endpoint", adminStart == null ? null : adminStart.admin());
        quietly("metrics", adminStart == null ? null : adminStart.metrics());
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (txnOffsets != null) {
            txnOffsets.shutdownNow();
        }
        if (serving) {
            LOG.atInfo().addKeyValue("nodeId", config.nodeId())
                .log("kaas broker {} stopped in {} ms", config.nodeId(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
        }
        stopped.countDown();
    }

    /**
     * A marker is durable: one in {@code __consumer_offsets} ends the transactional offsets its producer wrote there
     * (a TxnOffsetCommit whose transaction coordinator was another broker), before the marker is answered.
     */
    private CompletableFuture<Short> markerWritten(String topic, int partition, long producerId, boolean commit) {
        if (!ConsumerOffsetsTopic.NAME.equals(topic) || groups == null) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                groups.offsets().onMarker(partition, producerId, commit);
                return Errors.NONE;
            } catch (RuntimeException e) {
                LOG.atWarn().addKeyValue("partition", topic + "-" + partition).addKeyValue("producerId", producerId)
                    .log("The {} marker of producer {} in {}-{} is written, its transactional offsets are not "
                        + "ended yet: {}; answered COORDINATOR_NOT_AVAILABLE so the coordinator sends it again",
                        commit ? "COMMIT" : "ABORT", producerId, topic, partition, e.toString());
                return Errors.COORDINATOR_NOT_AVAILABLE;
            }
        }, txnOffsets);
    }

    // ---- BrokerContext ----

    @Override
    public BrokerConfig config() {
        return config;
    }

    @Override
    public ClusterStateStore clusterStore() {
        return clusterStore;
    }

    @Override
    public StorageEngine storageEngine() {
        return storageEngine;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    @Override
    public ClusterMember cluster() {
        return cluster;
    }

    @Override
    public AccessGate accessGate() {
        return accessGate;
    }

    /** The first listener's advertised endpoint. */
    @Override
    public BrokerEndpoint advertisedEndpoint() {
        return advertised.get(config.listeners().get(0).name());
    }

    /** Listener {@code listenerName}'s advertised endpoint; the first listener's for an unknown name (or null). */
    @Override
    public BrokerEndpoint advertisedEndpoint(String listenerName) {
        BrokerEndpoint e = listenerName == null ? null : advertised.get(listenerName);
        return e != null ? e : advertisedEndpoint();
    }

    // ---- internals ----

    /** Every listener with its bound port, protocol and advertised address, for the start-up line. */
    private String listening() {
        List<String> out = new ArrayList<>();
        for (ServedListener served : listeners) {
            NetworkSettings s = served.settings();
            BrokerEndpoint a = advertised.get(s.listenerName());
            out.add(s.listenerName() + "://" + (s.host().isEmpty() ? "0.0.0.0" : s.host()) + ":"
                + server.port(s.listenerName()) + " (" + s.securityProtocol() + ", advertised " + a.host() + ":" + a.port()
                + ")");
        }
        return String.join(", ", out);
    }

    /**
     * The registry and admin endpoint, also ones still being made when start-up failed (waited for, bounded, so they
     * are closed too); null if there are none.
     */
    private AdminStart adminToClose() {
        FutureTask<AdminStart> starting;
        synchronized (this) {
            if (metrics != null || adminStarting == null) {
                return metrics == null ? null : new AdminStart(metrics, engineMetrics, admin);
            }
            starting = adminStarting;
        }
        try {
            return starting.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return null;
        }
    }

    private static void quietly(String what, AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.atError().setCause(e).log("failed to close the {}", what);
        }
    }

    /** One line, once: the Kafka keys set that change nothing here (with this engine), so none is dropped silently. */
    private static void logKeysWithoutEffect(BrokerConfig config, StorageEngineProvider engine) {
        Set<String> keys = config.keysWithoutEffect(engine.name(), engine.configKeys());
        if (!keys.isEmpty()) {
            LOG.atInfo().addKeyValue("keys", keys).addKeyValue("engine", engine.name())
                .log("Kafka config keys set but without effect in kaas (storage engine '{}'): {}", engine.name(),
                    String.join(", ", keys));
        }
    }

    private static void logConfigWarnings(BrokerConfig config) {
        if (!config.unknownKeys().isEmpty()) {
            LOG.atWarn().addKeyValue("keys", config.unknownKeys())
                .log("Unknown config keys (ignored): {}", String.join(", ", config.unknownKeys()));
        }
    }
}
