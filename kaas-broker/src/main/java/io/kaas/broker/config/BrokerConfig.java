package io.kaas.broker.config;

import static io.kaas.broker.config.BrokerConfigDef.*;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.coordinator.group.GroupCoordinatorConfig;
import io.kaas.coordinator.transaction.TransactionConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The broker's configuration: Kafka's config names and defaults, typed accessors, and every value
 * validated when constructed (a malformed value throws a {@link ConfigException} naming the key).
 * Immutable and thread-safe.
 */
public final class BrokerConfig {

    private final Map<String, String> explicit;
    private final Map<String, Object> parsed = new HashMap<>();
    private final List<Listener> listeners;
    private final List<Listener> advertisedListeners;
    private final GroupCoordinatorConfig groupCoordinator;
    private final ConnectionLimitsConfig connectionLimits;

    private BrokerConfig(Map<String, String> values) {
        this.explicit = Map.copyOf(values);
        for (ConfigKey key : KEYS.values()) {
            String raw = explicit.get(key.name());
            if (raw == null && key.name().equals(NODE_ID)) {
                raw = explicit.get(BROKER_ID);
            }
            String v = raw != null ? raw : key.defaultValue();
            if (v != null) {
                parsed.put(key.name(), key.parse(v));
            }
        }
        this.listeners = Listener.parseList(LISTENERS, string(LISTENERS));
        this.advertisedListeners = resolveAdvertised();
        validate();
        this.groupCoordinator = groupCoordinatorConfig();
        this.connectionLimits = ConnectionLimitsConfig.parse(integer(MAX_CONNECTIONS), integer(MAX_CONNECTIONS_PER_IP),
            string(MAX_CONNECTIONS_PER_IP_OVERRIDES), integer(QUEUED_MAX_REQUESTS), longValue(QUEUED_MAX_REQUEST_BYTES),
            listenerConfigs());
    }

    /** A config from explicit values; every absent key takes its default. */
    public static BrokerConfig of(Map<String, String> values) {
        return new BrokerConfig(values);
    }

    /** Every key at its default. */
    public static BrokerConfig defaults() {
        return of(Map.of());
    }

    /** A properties file (may be null for none) with {@code overrides} applied on top. */
    public static BrokerConfig load(Path file, Map<String, String> overrides) {
        return of(ConfigLoader.read(file, overrides));
    }

    /**
     * Parses kafka-server-start.sh style arguments, {@code [config-file] [--override key=value]...}.
     * Without a file, {@code config/server.properties} is used if it exists, else the defaults.
     */
    public static BrokerConfig fromArgs(String... args) {
        return of(ConfigLoader.fromArgs(args));
    }

    // ---- typed accessors ----

    public int nodeId() {
        return integer(NODE_ID);
    }

    /** The listeners to bind, controller listeners excluded. */
    public List<Listener> listeners() {
        Set<String> controller = controllerListenerNames();
        List<Listener> out = listeners.stream().filter(l -> !controller.contains(l.name())).toList();
        if (out.isEmpty()) {
            throw new ConfigException(LISTENERS, "no broker listener left after removing controller.listener.names");
        }
        return out;
    }

    /**
     * The listeners to bind with their security protocols and settings, in {@code listeners} order.
     *
     * @throws ConfigException if {@code listener.security.protocol.map} names no protocol for one of them
     */
    public List<ListenerConfig> listenerConfigs() {
        Map<String, SecurityProtocol> protocols = securityProtocolMap();
        List<ListenerConfig> out = new ArrayList<>();
        for (Listener l : listeners()) {
            SecurityProtocol protocol = protocols.get(l.name());
            if (protocol == null) {
                throw new ConfigException(LISTENER_SECURITY_PROTOCOL_MAP, "no security protocol for listener " + l.name()
                    + " (map it, e.g. " + l.name() + ":PLAINTEXT)");
            }
            out.add(new ListenerConfig(l, protocol, explicit));
        }
        return List.copyOf(out);
    }

    /** {@code listener.security.protocol.map}: listener name (upper case) to protocol. */
    public Map<String, SecurityProtocol> securityProtocolMap() {
        Map<String, SecurityProtocol> out = new TreeMap<>();
        for (String pair : string(LISTENER_SECURITY_PROTOCOL_MAP).split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int colon = pair.indexOf(':');
            if (colon <= 0) {
                throw new ConfigException(LISTENER_SECURITY_PROTOCOL_MAP, "'" + pair.trim() + "' is not NAME:PROTOCOL");
            }
            try {
                out.put(pair.substring(0, colon).trim().toUpperCase(java.util.Locale.ROOT),
                    SecurityProtocol.forName(pair.substring(colon + 1)));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(LISTENER_SECURITY_PROTOCOL_MAP, e.getMessage());
            }
        }
        return out;
    }

    /**
     * The listener brokers talk to each other on (kept for a multi-broker kaas): {@code inter.broker.listener.name},
     * else the listener named as {@code security.inter.broker.protocol} when that is set, else the first listener.
     */
    public String interBrokerListenerName() {
        String name = string(INTER_BROKER_LISTENER_NAME);
        if (name != null && !name.isBlank()) {
            return name.trim().toUpperCase(java.util.Locale.ROOT);
        }
        if (explicit.containsKey(INTER_BROKER_SECURITY_PROTOCOL)) {
            return SecurityProtocol.forName(string(INTER_BROKER_SECURITY_PROTOCOL)).name();
        }
        return listeners().get(0).name();
    }

    /** How often a TLS listener's store files are checked for changes ({@code tls.store.check.interval.ms}). */
    public long tlsStoreCheckIntervalMs() {
        return longValue(TLS_STORE_CHECK_INTERVAL_MS);
    }

    /** {@code slow.request.log.threshold.ms} (kaas only): requests slower than this are logged; 0: none. */
    public long slowRequestLogThresholdMs() {
        return longValue(SLOW_REQUEST_LOG_THRESHOLD_MS);
    }

    /** {@code request.timeout.ms}: how long an inter-broker request waits for its answer. */
    public int requestTimeoutMs() {
        return integer(REQUEST_TIMEOUT_MS);
    }

    /** {@code socket.connection.setup.timeout.ms}: how long a connection to another broker may take to set up. */
    public long connectionSetupTimeoutMs() {
        return longValue(SOCKET_CONNECTION_SETUP_TIMEOUT_MS);
    }

    /** The advertised listeners, every host resolved (never empty, never a wildcard address). */
    public List<Listener> advertisedListeners() {
        return advertisedListeners;
    }

    /** The data directory: the first entry of {@code log.dirs}, else {@code log.dir}. */
    public Path logDir() {
        String dirs = string(LOG_DIRS);
        String dir = dirs != null && !dirs.isBlank() ? dirs.split(",")[0].trim() : string(LOG_DIR);
        return Path.of(dir);
    }

    public boolean autoCreateTopicsEnable() {
        return bool(AUTO_CREATE_TOPICS_ENABLE);
    }

    public int numPartitions() {
        return integer(NUM_PARTITIONS);
    }

    public short defaultReplicationFactor() {
        return (short) integer(DEFAULT_REPLICATION_FACTOR);
    }

    public boolean deleteTopicEnable() {
        return bool(DELETE_TOPIC_ENABLE);
    }

    public int messageMaxBytes() {
        return integer(MESSAGE_MAX_BYTES);
    }

    public int logSegmentBytes() {
        return integer(LOG_SEGMENT_BYTES);
    }

    public long logRollMs() {
        Object ms = parsed.get(LOG_ROLL_MS);
        return ms != null ? (Long) ms : TimeUnit.HOURS.toMillis(integer(LOG_ROLL_HOURS));
    }

    /** Retention time in ms; -1 means unlimited (any negative value is reported as -1). */
    public long logRetentionMs() {
        Long ms = (Long) parsed.get(LOG_RETENTION_MS);
        if (ms == null && parsed.get(LOG_RETENTION_MINUTES) != null) {
            ms = TimeUnit.MINUTES.toMillis(integer(LOG_RETENTION_MINUTES));
        }
        if (ms == null) {
            ms = TimeUnit.HOURS.toMillis(integer(LOG_RETENTION_HOURS));
        }
        return ms < 0 ? -1 : ms;
    }

    public long logRetentionBytes() {
        return longValue(LOG_RETENTION_BYTES);
    }

    public long logFlushIntervalMessages() {
        return longValue(LOG_FLUSH_INTERVAL_MESSAGES);
    }

    public long logFlushIntervalMs() {
        return longValue(LOG_FLUSH_INTERVAL_MS);
    }

    public long logRetentionCheckIntervalMs() {
        return longValue(LOG_RETENTION_CHECK_INTERVAL_MS);
    }

    /** The incremental fetch sessions kept at once; 0: none (every fetch is a full one). */
    public int maxIncrementalFetchSessionCacheSlots() {
        return integer(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS);
    }

    /** {@code CreateTime} or {@code LogAppendTime}. */
    public String logMessageTimestampType() {
        return string(LOG_MESSAGE_TIMESTAMP_TYPE);
    }

    /** {@code delete}, {@code compact} or {@code compact,delete} (Kafka's list syntax). */
    public String logCleanupPolicy() {
        return string(LOG_CLEANUP_POLICY);
    }

    public int socketRequestMaxBytes() {
        return integer(SOCKET_REQUEST_MAX_BYTES);
    }

    public int socketSendBufferBytes() {
        return integer(SOCKET_SEND_BUFFER_BYTES);
    }

    public int socketReceiveBufferBytes() {
        return integer(SOCKET_RECEIVE_BUFFER_BYTES);
    }

    public int numIoThreads() {
        return integer(NUM_IO_THREADS);
    }

    /** {@code num.network.threads} with the dynamic value of {@code dynamic} over the static one. */
    public int numNetworkThreads(Map<String, String> dynamic) {
        return dynamicInt(dynamic, NUM_NETWORK_THREADS);
    }

    /** {@code num.io.threads} with the dynamic value of {@code dynamic} over the static one. */
    public int numIoThreads(Map<String, String> dynamic) {
        return dynamicInt(dynamic, NUM_IO_THREADS);
    }

    /** {@code log.cleaner.threads} with the dynamic value of {@code dynamic} over the static one. */
    public int logCleanerThreads(Map<String, String> dynamic) {
        return dynamicInt(dynamic, LOG_CLEANER_THREADS);
    }

    public int numNetworkThreads() {
        return integer(NUM_NETWORK_THREADS);
    }

    /** {@code quota.window.num}: the samples of a client quota's rate. */
    public int quotaWindowNum() {
        return integer(QUOTA_WINDOW_NUM);
    }

    /** {@code quota.window.size.seconds}: one sample's span. */
    public int quotaWindowSizeSeconds() {
        return integer(QUOTA_WINDOW_SIZE_SECONDS);
    }

    /** {@code controller.quota.window.num}: the samples of a controller mutation quota (its burst). */
    public int controllerQuotaWindowNum() {
        return integer(CONTROLLER_QUOTA_WINDOW_NUM);
    }

    /** {@code controller.quota.window.size.seconds}: one controller mutation sample's span. */
    public int controllerQuotaWindowSizeSeconds() {
        return integer(CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS);
    }

    public long connectionsMaxIdleMs() {
        return longValue(CONNECTIONS_MAX_IDLE_MS);
    }

    /**
     * {@code max.connections} (per listener too), {@code max.connections.per.ip[.overrides]}, {@code queued.max.requests}
     * and {@code queued.max.request.bytes}.
     */
    public ConnectionLimitsConfig connectionLimits() {
        return connectionLimits;
    }

    /**
     * The connection limits with this broker's effective dynamic broker configs {@code dynamic} over the static
     * {@code max.connections}, {@code max.connections.per.ip} and {@code max.connections.per.ip.overrides}.
     *
     * @throws ConfigException naming the key whose value is malformed
     */
    public ConnectionLimitsConfig connectionLimits(Map<String, String> dynamic) {
        return ConnectionLimitsConfig.parse(dynamicInt(dynamic, MAX_CONNECTIONS),
            dynamicInt(dynamic, MAX_CONNECTIONS_PER_IP),
            dynamic.getOrDefault(MAX_CONNECTIONS_PER_IP_OVERRIDES, string(MAX_CONNECTIONS_PER_IP_OVERRIDES)),
            integer(QUEUED_MAX_REQUESTS), longValue(QUEUED_MAX_REQUEST_BYTES), listenerConfigs());
    }

    /** {@code max.connection.creation.rate}: new connections per second, broker-wide. */
    public int maxConnectionCreationRate() {
        return integer(MAX_CONNECTION_CREATION_RATE);
    }

    /** {@code max.connection.creation.rate} with the dynamic value of {@code dynamic} over the static one. */
    public int maxConnectionCreationRate(Map<String, String> dynamic) {
        return dynamicInt(dynamic, MAX_CONNECTION_CREATION_RATE);
    }

    /**
     * Each listener's own {@code listener.name.<listener>.max.connection.creation.rate} (KIP-612), the listener's name in
     * lower case in the key as Kafka's, with the dynamic value of {@code dynamic} over the static one; listeners without
     * one are left out. Keyed by the listener's name as {@code listeners} spells it.
     *
     * @throws ConfigException naming the key if a value is not a number of at least 0
     */
    public Map<String, Integer> listenerConnectionCreationRates(Map<String, String> dynamic) {
        Map<String, Integer> out = new java.util.LinkedHashMap<>();
        for (ListenerConfig l : listenerConfigs()) {
            String name = l.bind().name();
            String key = listenerKey(name, MAX_CONNECTION_CREATION_RATE);
            String raw = dynamic.containsKey(key) ? dynamic.get(key) : explicit.get(key);
            if (raw != null) {
                try {
                    out.put(name, ((Number) KEYS.get(MAX_CONNECTION_CREATION_RATE).parse(raw)).intValue());
                } catch (ConfigException e) {
                    throw new ConfigException(key, "expected a number of at least 0, got '" + raw + "'");
                }
            }
        }
        return out;
    }

    /** {@code listener.name.<listener in lower case>.<key>}, as Kafka's listener prefix. */
    static String listenerKey(String listenerName, String key) {
        return "listener.name." + listenerName.toLowerCase(java.util.Locale.ROOT) + "." + key;
    }

    private int dynamicInt(Map<String, String> dynamic, String key) {
        String raw = dynamic.get(key);
        return raw == null ? integer(key) : ((Number) KEYS.get(key).parse(raw)).intValue();
    }

    /**
     * {@code admin.listener}: where the admin HTTP endpoint listens, empty for {@code none}.
     *
     * @throws ConfigException if the value is neither {@code none} nor {@code http://HOST:PORT}
     */
    public java.util.Optional<AdminListener> adminListener() {
        return AdminListener.parse(string(AdminListener.KEY));
    }

    /** {@code admin.console.enabled}: whether the admin endpoint serves the web console and its JSON API. */
    public boolean adminConsoleEnabled() {
        return bool(BrokerConfigDef.ADMIN_CONSOLE_ENABLED);
    }

    public String storageEngine() {
        return string(STORAGE_ENGINE);
    }

    public String clusterStore() {
        return string(CLUSTER_STORE);
    }

    /** {@code broker.rack}, if set. */
    public java.util.Optional<String> rack() {
        String rack = string(BROKER_RACK);
        return rack == null || rack.isBlank() ? java.util.Optional.empty() : java.util.Optional.of(rack);
    }

    /**
     * The settings of cluster-state store {@code store}: {@code cluster.<store>.*} with the prefix removed, and every
     * {@code zookeeper.*} key under its full name (Kafka's ZooKeeper client keys: {@code zookeeper.connect},
     * {@code zookeeper.session.timeout.ms}, {@code zookeeper.ssl.*}, ...); a {@code cluster.<store>.} key wins.
     */
    public PluginConfig clusterStoreConfig(String store) {
        Map<String, String> settings = new HashMap<>();
        explicit.forEach((k, v) -> {
            if (k.startsWith(ZOOKEEPER_PREFIX)) {
                settings.put(k, v);
            }
        });
        settings.putAll(backendConfig("cluster." + store + ".").asMap());
        return PluginConfig.of(settings);
    }

    /**
     * The authorizer's name: {@code authorizer}, or {@code acl} when {@code authorizer.class.name} names one of
     * Kafka's ACL authorizers ({@link AuthorizerSelection}).
     */
    public String authorizer() {
        return AuthorizerSelection.resolve(originalValue(AUTHORIZER), originalValue(AuthorizerSelection.KEY));
    }

    /** The group coordinator's settings: the {@code group.*} and {@code offsets.*} keys, typed and validated. */
    public GroupCoordinatorConfig groupCoordinator() {
        return groupCoordinator;
    }

    /** The transaction coordinator's settings: the {@code transaction.*} and {@code transactional.*} keys, typed. */
    public TransactionConfig transactionCoordinator() {
        return new TransactionConfig(integer(TRANSACTION_MAX_TIMEOUT_MS), integer(TRANSACTION_STATE_LOG_NUM_PARTITIONS),
            longValue(TRANSACTIONAL_ID_EXPIRATION_MS), longValue(TRANSACTION_ABORT_TIMED_OUT_INTERVAL_MS),
            longValue(TRANSACTION_REMOVE_EXPIRED_INTERVAL_MS));
    }

    /**
     * {@code producer.id.expiration.ms} and {@code producer.id.expiration.check.interval.ms}, as the storage engine
     * receives them in its {@link io.kaas.api.storage.EngineContext}.
     */
    public ProducerExpiration producerExpiration() {
        return new ProducerExpiration(longValue(PRODUCER_ID_EXPIRATION_MS), longValue(PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS));
    }

    /**
     * {@code add.partitions.to.txn.retry.backoff.ms} and {@code add.partitions.to.txn.retry.backoff.max.ms}: how a
     * Produce v12+ implicit add that met CONCURRENT_TRANSACTIONS is retried by the broker, as Kafka 4.x does.
     */
    public ImplicitAddRetry implicitAddRetry() {
        return new ImplicitAddRetry(longValue(ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MS),
            longValue(ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS));
    }

    /**
     * The broker's retries of an implicit add to a transaction.
     *
     * @param backoffMs pause before each retry
     * @param maxMs     how long retries go on after the first answer; 0: none
     */
    public record ImplicitAddRetry(long backoffMs, long maxMs) {
    }

    /** {@code offsets.topic.num.partitions}: the partitions {@code __consumer_offsets} is created with. */
    public int offsetsTopicPartitions() {
        return integer(OFFSETS_TOPIC_NUM_PARTITIONS);
    }

    /** {@code offsets.topic.segment.bytes}: the {@code segment.bytes} of {@code __consumer_offsets}. */
    public int offsetsTopicSegmentBytes() {
        return integer(OFFSETS_TOPIC_SEGMENT_BYTES);
    }

    /** {@code transaction.state.log.segment.bytes}: the {@code segment.bytes} of {@code __transaction_state}. */
    public int transactionStateLogSegmentBytes() {
        return integer(TRANSACTION_STATE_LOG_SEGMENT_BYTES);
    }

    /**
     * {@code transaction.version} (kaas only; 1 or 2): the finalized level of Kafka's {@code transaction.version}
     * feature that ApiVersions advertises. 2 (the default, as a freshly formatted Kafka 4.x cluster) lets 4.x Java
     * clients use transactions V2 (KIP-890 part 2); 1 keeps every client on V1.
     */
    public short transactionVersion() {
        return (short) integer(TRANSACTION_VERSION);
    }

    /**
     * The explicit settings whose key starts with {@code prefix} (e.g. {@code storage.segments.}),
     * prefix removed, for a backend.
     */
    public PluginConfig backendConfig(String prefix) {
        return PluginConfig.of(explicit).withPrefix(prefix);
    }

    /**
     * The settings of storage engine {@code engine} ({@code storage.<engine>.*}, prefix removed), plus the Kafka keys
     * that stand for one of the settings it reads ({@code engineKeys}) when that setting is not set itself:
     * {@code log.retention.check.interval.ms} for {@code retention.check.interval.ms}, {@code log.flush.interval.ms}
     * for {@code flush.interval.ms} (0, "at once", as the least interval an engine takes: 1 ms), and the cleaner's
     * {@code log.cleaner.threads}, {@code log.cleaner.io.max.bytes.per.second}, {@code log.cleaner.backoff.ms} for
     * {@code cleaner.threads}, {@code cleaner.io.max.bytes.per.second}, {@code cleaner.backoff.ms}.
     */
    public PluginConfig engineConfig(String engine, Set<String> engineKeys) {
        return engineConfig(engine, engineKeys, Map.of());
    }

    /**
     * As {@link #engineConfig(String, Set)} with this broker's effective dynamic broker configs {@code dynamic} (already
     * validated) over the explicit Kafka keys: what a running engine is reconfigured with after a dynamic change.
     */
    public PluginConfig engineConfig(String engine, Set<String> engineKeys, Map<String, String> dynamic) {
        Map<String, String> settings = new HashMap<>(backendConfig(enginePrefix(engine)).asMap());
        ENGINE_FALLBACKS.forEach((kafkaKey, engineKey) -> {
            boolean set = explicit.containsKey(kafkaKey) || dynamic.containsKey(kafkaKey);
            if (set && engineKeys.contains(engineKey) && !settings.containsKey(engineKey)) {
                Object v = dynamic.containsKey(kafkaKey) ? KEYS.get(kafkaKey).parse(dynamic.get(kafkaKey))
                    : parsed.get(kafkaKey);
                if (kafkaKey.equals(LOG_FLUSH_INTERVAL_MS)) {
                    v = Math.max(1, (Long) v);
                }
                settings.put(engineKey, String.valueOf(v));
            }
        });
        return PluginConfig.of(settings);
    }

    /**
     * Every Kafka key set explicitly that changes nothing with storage engine {@code engine} (which reads
     * {@code engineKeys}): the accepted-unused ones ({@link #ignoredKeys()}), the defined ones without effect
     * (none today), and a Kafka key standing for an engine setting the engine does not read or
     * that is set itself.
     */
    public Set<String> keysWithoutEffect(String engine, Set<String> engineKeys) {
        Set<String> out = new TreeSet<>(ignoredKeys());
        for (String k : DEFINED_WITHOUT_EFFECT) {
            if (explicit.containsKey(k)) {
                out.add(k);
            }
        }
        ENGINE_FALLBACKS.forEach((kafkaKey, engineKey) -> {
            if (explicit.containsKey(kafkaKey) && (!engineKeys.contains(engineKey)
                    || explicit.containsKey(enginePrefix(engine) + engineKey))) {
                out.add(kafkaKey);
            }
        });
        return out;
    }

    private static String enginePrefix(String engine) {
        return "storage." + engine + ".";
    }

    /** The raw explicit value of any key (known or not), or null. */
    public String originalValue(String key) {
        return explicit.get(key);
    }

    /** Every explicit setting, sorted by key. */
    public Map<String, String> originals() {
        return new TreeMap<>(explicit);
    }

    /**
     * This config with {@code dynamic} (the broker's dynamic configs, already validated) over its explicit values:
     * what the broker runs with after a dynamic change.
     */
    public BrokerConfig withDynamic(Map<String, String> dynamic) {
        if (dynamic.isEmpty()) {
            return this;
        }
        Map<String, String> values = new java.util.HashMap<>(explicit);
        values.putAll(dynamic);
        return of(values);
    }

    /** Whether {@code key} was set in the file or an override (not its default). */
    public boolean isExplicit(String key) {
        return explicit.containsKey(key);
    }

    /** Every known key with its effective value, for DescribeConfigs on the broker resource. */
    public List<ConfigEntry> entries() {
        List<ConfigEntry> out = new ArrayList<>();
        for (ConfigKey key : KEYS.values()) {
            Object v = parsed.get(key.name());
            String value = key.sensitive() || v == null ? null : String.valueOf(v);
            if (key.name().equals(ADVERTISED_LISTENERS)) {
                value = String.join(",", advertisedListeners.stream().map(Listener::toString).toList());
            }
            boolean isDefault = !explicit.containsKey(key.name());
            out.add(new ConfigEntry(key.name(), value, isDefault, key.sensitive(), key.typeName(), key.doc()));
        }
        return List.copyOf(out);
    }

    /** Explicit keys that are neither known, accepted-unused Kafka keys, nor backend settings. */
    public Set<String> unknownKeys() {
        Set<String> out = new TreeSet<>();
        for (String k : explicit.keySet()) {
            if (!KEYS.containsKey(k) && !isListenerOverride(k) && !isAcceptedUnused(k) && !isBackendSetting(k)
                    && !SaslKeys.isRead(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /** Explicit Kafka keys that kaas accepts but does not use (e.g. {@code process.roles}). */
    public Set<String> ignoredKeys() {
        Set<String> out = new TreeSet<>();
        for (String k : explicit.keySet()) {
            if (!KEYS.containsKey(k) && !isListenerOverride(k) && isAcceptedUnused(k) && !SaslKeys.isRead(k)) {
                out.add(k);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        explicit.forEach((k, v) -> shown.put(k, isSensitive(k) ? "[hidden]" : v));
        return "BrokerConfig" + shown;
    }

    // ---- internals ----

    private List<Listener> resolveAdvertised() {
        String raw = string(ADVERTISED_LISTENERS);
        List<Listener> base = raw == null || raw.isBlank() ? listeners() : Listener.parseList(ADVERTISED_LISTENERS, raw);
        List<Listener> out = new ArrayList<>();
        for (Listener l : base) {
            if (controllerListenerNames().contains(l.name())) {
                continue;
            }
            String host = l.host();
            if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")) {
                host = canonicalHostName();
            }
            out.add(new Listener(l.name(), host, l.port()));
        }
        return List.copyOf(out);
    }

    private Set<String> controllerListenerNames() {
        String raw = string(CONTROLLER_LISTENER_NAMES);
        Set<String> names = new TreeSet<>();
        if (raw != null) {
            for (String n : raw.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.trim().toUpperCase(java.util.Locale.ROOT));
                }
            }
        }
        return names;
    }

    private void validate() {
        authorizer();
        String ts = logMessageTimestampType();
        if (!ts.equals("CreateTime") && !ts.equals("LogAppendTime")) {
            throw new ConfigException(LOG_MESSAGE_TIMESTAMP_TYPE, "expected CreateTime or LogAppendTime, got '" + ts + "'");
        }
        String policyProblem = CleanupPolicies.problem(LOG_CLEANUP_POLICY, logCleanupPolicy());
        if (policyProblem != null) {
            throw new ConfigException(LOG_CLEANUP_POLICY, policyProblem);
        }
        validateListeners();
        String dirs = string(LOG_DIRS);
        if (dirs != null && dirs.isBlank()) {
            throw new ConfigException(LOG_DIRS, "must name at least one directory");
        }
        if (storageEngine().isBlank()) {
            throw new ConfigException(STORAGE_ENGINE, "must name a storage engine");
        }
        if (clusterStore().isBlank()) {
            throw new ConfigException(CLUSTER_STORE, "must name a cluster-state store");
        }
        short tv = transactionVersion();
        if (tv != 1 && tv != 2) {
            throw new ConfigException(TRANSACTION_VERSION, "expected 1 or 2 (the finalized transaction.version feature), got "
                + tv);
        }
    }

    /**
     * Kafka's listener rules: distinct names, each with a protocol, advertised names a subset of the bound ones, and
     * the inter-broker listener ({@code inter.broker.listener.name} or the listener named by
     * {@code security.inter.broker.protocol}, not both) an advertised one.
     */
    private void validateListeners() {
        List<ListenerConfig> bound = listenerConfigs();
        Set<String> names = new TreeSet<>();
        for (ListenerConfig l : bound) {
            if (!names.add(l.name())) {
                throw new ConfigException(LISTENERS, "Each listener must have a different name, " + l.name()
                    + " is given twice");
            }
        }
        Set<String> advertisedNames = new TreeSet<>();
        advertisedListeners.forEach(a -> advertisedNames.add(a.name()));
        if (!names.containsAll(advertisedNames)) {
            throw new ConfigException(ADVERTISED_LISTENERS, "advertised.listeners listener names must be equal to or a "
                + "subset of the ones defined in listeners. Found " + String.join(",", advertisedNames)
                + ". The valid options based on the current configuration are " + String.join(",", names));
        }
        boolean nameSet = explicit.containsKey(INTER_BROKER_LISTENER_NAME);
        boolean protocolSet = explicit.containsKey(INTER_BROKER_SECURITY_PROTOCOL);
        if (nameSet && protocolSet) {
            throw new ConfigException(INTER_BROKER_LISTENER_NAME, "Only one of inter.broker.listener.name and "
                + "security.inter.broker.protocol should be set.");
        }
        if (protocolSet) {
            try {
                SecurityProtocol.forName(string(INTER_BROKER_SECURITY_PROTOCOL));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(INTER_BROKER_SECURITY_PROTOCOL, e.getMessage());
            }
        }
        if (nameSet || protocolSet) {
            String inter = interBrokerListenerName();
            if (!securityProtocolMap().containsKey(inter) && nameSet) {
                throw new ConfigException(INTER_BROKER_LISTENER_NAME, "Listener with name " + inter + " defined in "
                    + "inter.broker.listener.name not found in listener.security.protocol.map.");
            }
            if (!advertisedNames.contains(inter)) {
                throw new ConfigException(nameSet ? INTER_BROKER_LISTENER_NAME : INTER_BROKER_SECURITY_PROTOCOL,
                    "inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid "
                        + "options based on currently configured listeners are " + String.join(",", advertisedNames));
            }
        }
    }

    private GroupCoordinatorConfig groupCoordinatorConfig() {
        int sessionTimeoutMs = integer(GROUP_CONSUMER_SESSION_TIMEOUT_MS);
        int heartbeatIntervalMs = integer(GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS);
        GroupCoordinatorConfig.ConsumerBounds bounds = consumerBounds();
        // Kafka 4.4's checks (GroupCoordinatorConfig), in its order and with its messages: the defaults lie within
        // their bounds and the heartbeat is shorter than the session.
        requireConsumer(heartbeatIntervalMs >= bounds.minHeartbeatIntervalMs(), GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
            "%s must be greater than or equal to %s", GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS);
        requireConsumer(heartbeatIntervalMs <= bounds.maxHeartbeatIntervalMs(), GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
            "%s must be less than or equal to %s", GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS);
        requireConsumer(sessionTimeoutMs >= bounds.minSessionTimeoutMs(), GROUP_CONSUMER_SESSION_TIMEOUT_MS,
            "%s must be greater than or equal to %s", GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS);
        requireConsumer(sessionTimeoutMs <= bounds.maxSessionTimeoutMs(), GROUP_CONSUMER_SESSION_TIMEOUT_MS,
            "%s must be less than or equal to %s", GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS);
        requireConsumer(heartbeatIntervalMs < sessionTimeoutMs, GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
            "%s must be less than %s", GROUP_CONSUMER_SESSION_TIMEOUT_MS);
        int assignmentIntervalMs = consumerAssignmentIntervalMs();
        return new GroupCoordinatorConfig(integer(GROUP_MIN_SESSION_TIMEOUT_MS), integer(GROUP_MAX_SESSION_TIMEOUT_MS),
            integer(GROUP_INITIAL_REBALANCE_DELAY_MS), integer(GROUP_MAX_SIZE),
            TimeUnit.MINUTES.toMillis(integer(OFFSETS_RETENTION_MINUTES)), longValue(OFFSETS_RETENTION_CHECK_INTERVAL_MS),
            integer(OFFSET_METADATA_MAX_BYTES), sessionTimeoutMs, heartbeatIntervalMs, integer(GROUP_CONSUMER_MAX_SIZE),
            groupConsumerAssignors(), bounds, assignmentIntervalMs, integer(GROUP_CONSUMER_REGEX_REFRESH_INTERVAL_MS));
    }

    /**
     * {@code group.consumer.assignment.interval.ms}, checked as Kafka 4.4 checks it after the session and heartbeat
     * keys: the maximum at least the minimum, the interval between them.
     */
    private int consumerAssignmentIntervalMs() {
        int intervalMs = integer(GROUP_CONSUMER_ASSIGNMENT_INTERVAL_MS);
        int min = integer(GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS);
        int max = integer(GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS);
        requireConsumer(max >= min, GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS,
            "%s must be greater than or equal to %s", GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS);
        requireConsumer(intervalMs >= min, GROUP_CONSUMER_ASSIGNMENT_INTERVAL_MS,
            "%s must be greater than or equal to %s", GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS);
        requireConsumer(intervalMs <= max, GROUP_CONSUMER_ASSIGNMENT_INTERVAL_MS,
            "%s must be less than or equal to %s", GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS);
        return intervalMs;
    }

    /** Refuses the configuration with Kafka's message ({@code format} over {@code key} and {@code other}). */
    private static void requireConsumer(boolean ok, String key, String format, String other) {
        if (!ok) {
            throw new ConfigException(key, String.format(format, key, other));
        }
    }

    /** The bounds of the consumer group configs, each minimum at most its maximum (as Kafka requires). */
    private GroupCoordinatorConfig.ConsumerBounds consumerBounds() {
        int minSession = integer(GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS);
        int maxSession = integer(GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS);
        int minHeartbeat = integer(GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS);
        int maxHeartbeat = integer(GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS);
        // As Kafka 4.4, the heartbeat bounds first.
        requireConsumer(maxHeartbeat >= minHeartbeat, GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS,
            "%s must be greater than or equal to %s", GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS);
        requireConsumer(maxSession >= minSession, GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS,
            "%s must be greater than or equal to %s", GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS);
        return new GroupCoordinatorConfig.ConsumerBounds(minSession, maxSession, minHeartbeat, maxHeartbeat,
            integer(GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS), integer(GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS));
    }

    /**
     * {@code group.consumer.assignors}: the short names, in order and once each, of the entries (short names or
     * Kafka's class names of the two built-in assignors); a blank value is the default.
     */
    private List<String> groupConsumerAssignors() {
        String raw = string(GROUP_CONSUMER_ASSIGNORS);
        if (raw == null || raw.isBlank()) {
            return GroupCoordinatorConfig.assignorNames();
        }
        List<String> out = new ArrayList<>();
        for (String part : raw.split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            String shortName = GroupCoordinatorConfig.assignorName(name);
            if (shortName == null) {
                throw new ConfigException(GROUP_CONSUMER_ASSIGNORS, "unknown assignor '" + name
                    + "'; known assignors: " + String.join(", ", GroupCoordinatorConfig.assignorNames()));
            }
            if (!out.contains(shortName)) {
                out.add(shortName);
            }
        }
        if (out.isEmpty()) {
            throw new ConfigException(GROUP_CONSUMER_ASSIGNORS, "at least one assignor is needed");
        }
        return out;
    }

    private static String canonicalHostName() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private String string(String key) {
        Object v = parsed.get(key);
        return v == null ? null : v.toString();
    }

    private int integer(String key) {
        return ((Long) parsed.get(key)).intValue();
    }

    private long longValue(String key) {
        return (Long) parsed.get(key);
    }

    private boolean bool(String key) {
        return (Boolean) parsed.get(key);
    }
}
