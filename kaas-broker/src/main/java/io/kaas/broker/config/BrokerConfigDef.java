package io.kaas.broker.config;

import static io.kaas.broker.config.ConfigType.BOOLEAN;
import static io.kaas.broker.config.ConfigType.INT;
import static io.kaas.broker.config.ConfigType.LIST;
import static io.kaas.broker.config.ConfigType.LONG;
import static io.kaas.broker.config.ConfigType.SHORT;
import static io.kaas.broker.config.ConfigType.STRING;

import io.kaas.security.tls.SslKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Every config key the broker knows, with Kafka's names, types and defaults, and the keys it accepts unused. */
final class BrokerConfigDef {

    static final String NODE_ID = "node.id";
    static final String BROKER_ID = "broker.id";
    static final String LISTENERS = "listeners";
    static final String ADVERTISED_LISTENERS = "advertised.listeners";
    static final String CONTROLLER_LISTENER_NAMES = "controller.listener.names";
    static final String LISTENER_SECURITY_PROTOCOL_MAP = "listener.security.protocol.map";
    static final String INTER_BROKER_LISTENER_NAME = "inter.broker.listener.name";
    static final String INTER_BROKER_SECURITY_PROTOCOL = "security.inter.broker.protocol";
    static final String TLS_STORE_CHECK_INTERVAL_MS = "tls.store.check.interval.ms";
    static final String REQUEST_TIMEOUT_MS = "request.timeout.ms";
    static final String SLOW_REQUEST_LOG_THRESHOLD_MS = "slow.request.log.threshold.ms";
    static final String ADMIN_CONSOLE_ENABLED = "admin.console.enabled";
    static final String SOCKET_CONNECTION_SETUP_TIMEOUT_MS = "socket.connection.setup.timeout.ms";
    static final String LOG_DIRS = "log.dirs";
    static final String LOG_DIR = "log.dir";
    static final String AUTO_CREATE_TOPICS_ENABLE = "auto.create.topics.enable";
    static final String NUM_PARTITIONS = "num.partitions";
    static final String DEFAULT_REPLICATION_FACTOR = "default.replication.factor";
    static final String DELETE_TOPIC_ENABLE = "delete.topic.enable";
    static final String MESSAGE_MAX_BYTES = "message.max.bytes";
    static final String LOG_SEGMENT_BYTES = "log.segment.bytes";
    static final String LOG_ROLL_MS = "log.roll.ms";
    static final String LOG_ROLL_HOURS = "log.roll.hours";
    static final String LOG_RETENTION_MS = "log.retention.ms";
    static final String LOG_RETENTION_MINUTES = "log.retention.minutes";
    static final String LOG_RETENTION_HOURS = "log.retention.hours";
    static final String LOG_RETENTION_BYTES = "log.retention.bytes";
    static final String LOG_FLUSH_INTERVAL_MESSAGES = "log.flush.interval.messages";
    static final String LOG_FLUSH_INTERVAL_MS = "log.flush.interval.ms";
    static final String LOG_RETENTION_CHECK_INTERVAL_MS = "log.retention.check.interval.ms";
    static final String MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS = "max.incremental.fetch.session.cache.slots";
    static final String LOG_MESSAGE_TIMESTAMP_TYPE = "log.message.timestamp.type";
    static final String LOG_CLEANUP_POLICY = "log.cleanup.policy";
    static final String LOG_CLEANER_DELETE_RETENTION_MS = "log.cleaner.delete.retention.ms";
    static final String LOG_CLEANER_MIN_CLEANABLE_RATIO = "log.cleaner.min.cleanable.ratio";
    static final String LOG_CLEANER_MIN_COMPACTION_LAG_MS = "log.cleaner.min.compaction.lag.ms";
    static final String LOG_CLEANER_MAX_COMPACTION_LAG_MS = "log.cleaner.max.compaction.lag.ms";
    static final String LOG_CLEANER_THREADS = "log.cleaner.threads";
    static final String LOG_CLEANER_IO_MAX_BYTES_PER_SECOND = "log.cleaner.io.max.bytes.per.second";
    static final String LOG_CLEANER_BACKOFF_MS = "log.cleaner.backoff.ms";
    static final String SOCKET_REQUEST_MAX_BYTES = "socket.request.max.bytes";
    static final String SOCKET_SEND_BUFFER_BYTES = "socket.send.buffer.bytes";
    static final String SOCKET_RECEIVE_BUFFER_BYTES = "socket.receive.buffer.bytes";
    static final String NUM_NETWORK_THREADS = "num.network.threads";
    static final String NUM_IO_THREADS = "num.io.threads";
    static final String QUEUED_MAX_REQUESTS = "queued.max.requests";
    static final String QUEUED_MAX_REQUEST_BYTES = "queued.max.request.bytes";
    static final String CONNECTIONS_MAX_IDLE_MS = "connections.max.idle.ms";
    static final String MAX_CONNECTIONS = "max.connections";
    static final String MAX_CONNECTIONS_PER_IP = "max.connections.per.ip";
    static final String MAX_CONNECTIONS_PER_IP_OVERRIDES = "max.connections.per.ip.overrides";
    static final String STORAGE_ENGINE = "storage.engine";
    static final String CLUSTER_STORE = "cluster.store";
    static final String BROKER_RACK = "broker.rack";
    /** The prefix of the keys handed to the cluster-state store under their full names (Kafka's ZooKeeper keys). */
    static final String ZOOKEEPER_PREFIX = "zookeeper.";
    static final String AUTHORIZER = "authorizer";
    static final String SUPER_USERS = "super.users";
    static final String ALLOW_EVERYONE_IF_NO_ACL_FOUND = "allow.everyone.if.no.acl.found";
    static final String PLUGINS_DIR = "plugins.dir";
    static final String GROUP_INITIAL_REBALANCE_DELAY_MS = "group.initial.rebalance.delay.ms";
    static final String GROUP_MIN_SESSION_TIMEOUT_MS = "group.min.session.timeout.ms";
    static final String GROUP_MAX_SESSION_TIMEOUT_MS = "group.max.session.timeout.ms";
    static final String GROUP_MAX_SIZE = "group.max.size";
    static final String GROUP_CONSUMER_SESSION_TIMEOUT_MS = "group.consumer.session.timeout.ms";
    static final String GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS = "group.consumer.heartbeat.interval.ms";
    static final String GROUP_CONSUMER_ASSIGNORS = "group.consumer.assignors";
    static final String GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS = "group.consumer.min.session.timeout.ms";
    static final String GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS = "group.consumer.max.session.timeout.ms";
    static final String GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS = "group.consumer.min.heartbeat.interval.ms";
    static final String GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS = "group.consumer.max.heartbeat.interval.ms";
    static final String GROUP_CONSUMER_MAX_SIZE = "group.consumer.max.size";
    static final String GROUP_CONSUMER_ASSIGNMENT_INTERVAL_MS = "group.consumer.assignment.interval.ms";
    static final String GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS = "group.consumer.min.assignment.interval.ms";
    static final String GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS = "group.consumer.max.assignment.interval.ms";
    static final String GROUP_CONSUMER_REGEX_REFRESH_INTERVAL_MS = "group.consumer.regex.refresh.interval.ms";
    static final String OFFSETS_RETENTION_MINUTES = "offsets.retention.minutes";
    static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS = "offsets.retention.check.interval.ms";
    static final String OFFSET_METADATA_MAX_BYTES = "offset.metadata.max.bytes";
    static final String TRANSACTION_MAX_TIMEOUT_MS = "transaction.max.timeout.ms";
    static final String OFFSETS_TOPIC_NUM_PARTITIONS = "offsets.topic.num.partitions";
    static final String OFFSETS_TOPIC_SEGMENT_BYTES = "offsets.topic.segment.bytes";
    static final String TRANSACTION_STATE_LOG_NUM_PARTITIONS = "transaction.state.log.num.partitions";
    static final String TRANSACTION_STATE_LOG_SEGMENT_BYTES = "transaction.state.log.segment.bytes";
    static final String TRANSACTIONAL_ID_EXPIRATION_MS = "transactional.id.expiration.ms";
    static final String TRANSACTION_ABORT_TIMED_OUT_INTERVAL_MS = "transaction.abort.timed.out.transaction.cleanup.interval.ms";
    static final String TRANSACTION_REMOVE_EXPIRED_INTERVAL_MS = "transaction.remove.expired.transaction.cleanup.interval.ms";
    static final String TRANSACTION_VERSION = "transaction.version";
    static final String ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MS = "add.partitions.to.txn.retry.backoff.ms";
    static final String ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS = "add.partitions.to.txn.retry.backoff.max.ms";
    static final String PRODUCER_ID_EXPIRATION_MS = "producer.id.expiration.ms";
    static final String PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = "producer.id.expiration.check.interval.ms";
    // client quotas
    static final String QUOTA_WINDOW_NUM = "quota.window.num";
    static final String QUOTA_WINDOW_SIZE_SECONDS = "quota.window.size.seconds";
    // controller mutation and connection creation quotas (KIP-599, KIP-612)
    static final String CONTROLLER_QUOTA_WINDOW_NUM = "controller.quota.window.num";
    static final String CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS = "controller.quota.window.size.seconds";
    static final String MAX_CONNECTION_CREATION_RATE = "max.connection.creation.rate";

    /** Known keys in the order DescribeConfigs lists them. */
    static final Map<String, ConfigKey> KEYS = build(SaslKeys.KEYS, List.of(
        ConfigKey.atLeast(NODE_ID, INT, 1, 0, "The node id of this broker."),
        ConfigKey.of(LISTENERS, STRING, "PLAINTEXT://:9092",
            "Comma-separated listeners NAME://host:port; an empty host binds every interface."),
        ConfigKey.of(ADVERTISED_LISTENERS, STRING, null,
            "Listeners clients are told to use; defaults to listeners, with an empty host replaced by the canonical host name."),
        ConfigKey.of(CONTROLLER_LISTENER_NAMES, STRING, null,
            "Listener names reserved for a KRaft controller; kaas does not bind them."),
        ConfigKey.of(LISTENER_SECURITY_PROTOCOL_MAP, STRING,
            "SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT",
            "The security protocol of each listener name, NAME:PROTOCOL pairs separated by commas."),
        ConfigKey.of(INTER_BROKER_LISTENER_NAME, STRING, null,
            "The listener brokers use between themselves; must be an advertised listener. Only one of it and "
                + "security.inter.broker.protocol may be set."),
        ConfigKey.of(INTER_BROKER_SECURITY_PROTOCOL, STRING, "PLAINTEXT",
            "The security protocol brokers use between themselves: the listener of that name."),
        ConfigKey.of(SslKeys.PROTOCOL, STRING, SslKeys.DEFAULT_PROTOCOL, "The TLS protocol of the SSL context."),
        ConfigKey.of(SslKeys.ENABLED_PROTOCOLS, LIST, SslKeys.DEFAULT_ENABLED_PROTOCOLS,
            "The TLS protocols a TLS listener accepts."),
        ConfigKey.of(SslKeys.CIPHER_SUITES, LIST, "", "The cipher suites a TLS listener accepts; empty: the engine's default."),
        ConfigKey.of(SslKeys.KEYSTORE_TYPE, STRING, SslKeys.DEFAULT_STORE_TYPE, "JKS, PKCS12 or PEM."),
        ConfigKey.of(SslKeys.KEYSTORE_LOCATION, STRING, null, "The key store file of a TLS listener; reloaded when it changes."),
        ConfigKey.password(SslKeys.KEYSTORE_PASSWORD, "The key store password (not with PEM)."),
        ConfigKey.password(SslKeys.KEY_PASSWORD, "The private key's password, if it differs from the key store's."),
        ConfigKey.password(SslKeys.KEYSTORE_KEY, "A PEM private key (PKCS#8), inline; with ssl.keystore.type=PEM."),
        ConfigKey.password(SslKeys.KEYSTORE_CERTIFICATE_CHAIN, "The PEM certificate chain of ssl.keystore.key, inline."),
        ConfigKey.of(SslKeys.TRUSTSTORE_TYPE, STRING, SslKeys.DEFAULT_STORE_TYPE, "JKS, PKCS12 or PEM."),
        ConfigKey.of(SslKeys.TRUSTSTORE_LOCATION, STRING, null,
            "The trust store file client certificates are checked against; reloaded when it changes."),
        ConfigKey.password(SslKeys.TRUSTSTORE_PASSWORD, "The trust store password (not with PEM)."),
        ConfigKey.password(SslKeys.TRUSTSTORE_CERTIFICATES, "Trusted PEM certificates, inline; with ssl.truststore.type=PEM."),
        ConfigKey.of(SslKeys.KEYMANAGER_ALGORITHM, STRING, javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm(),
            "The key manager factory algorithm."),
        ConfigKey.of(SslKeys.TRUSTMANAGER_ALGORITHM, STRING, javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm(),
            "The trust manager factory algorithm."),
        ConfigKey.of(SslKeys.ALLOW_DN_CHANGES, BOOLEAN, "false",
            "Whether a dynamic key store change may change the certificate's distinguished name."),
        ConfigKey.of(SslKeys.ALLOW_SAN_CHANGES, BOOLEAN, "false",
            "Whether a dynamic key store change may drop subject alternative names of the certificate."),
        ConfigKey.of(SslKeys.CLIENT_AUTH, STRING, SslKeys.DEFAULT_CLIENT_AUTH,
            "required, requested or none: whether a TLS listener asks clients for a certificate."),
        ConfigKey.of(SslKeys.PRINCIPAL_MAPPING_RULES, STRING, SslKeys.DEFAULT_PRINCIPAL_MAPPING_RULES,
            "Rules mapping a client certificate's distinguished name to a principal name: DEFAULT, "
                + "RULE:pattern/replacement/[LU], comma separated."),
        ConfigKey.atLeast(TLS_STORE_CHECK_INTERVAL_MS, LONG, 5000, 100,
            "How often (kaas only) a TLS listener's key and trust store files are checked for changes and reloaded."),
        ConfigKey.atLeast(SLOW_REQUEST_LOG_THRESHOLD_MS, LONG, 1000, 0,
            "Requests answered more than this many ms after they were read are logged at INFO with API, version, client "
                + "id and address, principal and time (kaas only; Kafka logs every request at DEBUG in "
                + "kafka.request.logger); a Fetch or JoinGroup counts past its own wait. 0 turns it off."),
        ConfigKey.atLeast(REQUEST_TIMEOUT_MS, INT, 30000, 0,
            "How long an inter-broker request (transaction markers, transaction verification) waits for its answer "
                + "before it fails and its connection is closed."),
        ConfigKey.atLeast(SOCKET_CONNECTION_SETUP_TIMEOUT_MS, LONG, 10000, 0,
            "How long the broker waits for a connection to another broker (TCP, TLS and SASL) to be set up."),
        ConfigKey.of(LOG_DIRS, STRING, null, "Data directories; kaas uses the first entry. Overrides log.dir."),
        ConfigKey.of(LOG_DIR, STRING, "./data", "The data directory, used when log.dirs is not set."),
        ConfigKey.of(AUTO_CREATE_TOPICS_ENABLE, BOOLEAN, false,
            "Create a topic on first Metadata request for it (kaas default: false)."),
        ConfigKey.atLeast(NUM_PARTITIONS, INT, 1, 1, "Default number of partitions of a new topic."),
        ConfigKey.atLeast(DEFAULT_REPLICATION_FACTOR, SHORT, 1, 1,
            "Default replication factor of a new topic (kaas keeps one copy on the shared volume)."),
        ConfigKey.of(DELETE_TOPIC_ENABLE, BOOLEAN, true, "Allow DeleteTopics."),
        ConfigKey.atLeast(MESSAGE_MAX_BYTES, INT, 1048588, 0, "Largest record batch size allowed."),
        ConfigKey.atLeast(LOG_SEGMENT_BYTES, INT, 1073741824, 14, "Size of a single log segment file."),
        ConfigKey.atLeast(LOG_ROLL_MS, LONG, null, 1, "Time after which a new segment is rolled; overrides log.roll.hours."),
        ConfigKey.atLeast(LOG_ROLL_HOURS, INT, 168, 1, "Hours after which a new segment is rolled."),
        ConfigKey.atLeast(LOG_RETENTION_MS, LONG, null, -1,
            "Time a segment is kept; -1 is unlimited. Overrides log.retention.minutes and .hours."),
        ConfigKey.atLeast(LOG_RETENTION_MINUTES, INT, null, -1, "Minutes a segment is kept; overrides log.retention.hours."),
        ConfigKey.atLeast(LOG_RETENTION_HOURS, INT, 168, -1, "Hours a segment is kept."),
        ConfigKey.atLeast(LOG_RETENTION_BYTES, LONG, -1, -1, "Size a partition may grow to before old segments go; -1 is unlimited."),
        ConfigKey.atLeast(LOG_FLUSH_INTERVAL_MESSAGES, LONG, 1, 1,
            "Messages appended before an fsync (kaas default: 1, i.e. acks=all answers after fsync)."),
        ConfigKey.atLeast(LOG_FLUSH_INTERVAL_MS, LONG, Long.MAX_VALUE, 0,
            "Maximum time acks=1 data stays unflushed: the storage engine's flush.interval.ms when that is not set "
                + "(an engine without one: no effect)."),
        ConfigKey.atLeast(LOG_RETENTION_CHECK_INTERVAL_MS, LONG, 300000, 1,
            "How often the storage engine's retention pass runs: its retention.check.interval.ms when that is not set."),
        ConfigKey.of(LOG_MESSAGE_TIMESTAMP_TYPE, STRING, "CreateTime", "CreateTime or LogAppendTime."),
        ConfigKey.of(LOG_CLEANUP_POLICY, LIST, "delete", "delete, compact, or both."),
        // the log cleaner's defaults of compacted topics (dynamic: DynamicBrokerConfigs)
        ConfigKey.atLeast(LOG_CLEANER_DELETE_RETENTION_MS, LONG, 86400000, 0,
            "How long delete markers are kept in a compacted topic: the default of delete.retention.ms."),
        ConfigKey.of(LOG_CLEANER_MIN_CLEANABLE_RATIO, ConfigType.DOUBLE, 0.5,
            "Dirty share of a compacted log above which it is cleaned: the default of min.cleanable.dirty.ratio."),
        ConfigKey.atLeast(LOG_CLEANER_MIN_COMPACTION_LAG_MS, LONG, 0, 0,
            "Minimum time a record stays uncompacted: the default of min.compaction.lag.ms."),
        ConfigKey.atLeast(LOG_CLEANER_MAX_COMPACTION_LAG_MS, LONG, Long.MAX_VALUE, 1,
            "Maximum time a record stays uncompacted: the default of max.compaction.lag.ms."),
        // the log cleaner itself (dynamic): the storage engine's cleaner.* settings when those are not set
        ConfigKey.atLeast(LOG_CLEANER_THREADS, INT, 1, 0,
            "Partitions compacted at once: the storage engine's cleaner.threads when that is not set."),
        ConfigKey.of(LOG_CLEANER_IO_MAX_BYTES_PER_SECOND, ConfigType.DOUBLE, Double.MAX_VALUE,
            "Bytes per second the log cleaner reads and writes, every cleaner thread together: the storage "
                + "engine's cleaner.io.max.bytes.per.second when that is not set."),
        ConfigKey.atLeast(LOG_CLEANER_BACKOFF_MS, LONG, 15000, 0,
            "How long a cleaner thread sleeps when no partition needs compacting: the storage engine's "
                + "cleaner.backoff.ms when that is not set."),
        ConfigKey.atLeast(SOCKET_REQUEST_MAX_BYTES, INT, 104857600, 1, "Largest request frame accepted."),
        ConfigKey.atLeast(SOCKET_SEND_BUFFER_BYTES, INT, 102400, -1, "SO_SNDBUF of client sockets; -1 is the OS default."),
        ConfigKey.atLeast(SOCKET_RECEIVE_BUFFER_BYTES, INT, 102400, -1, "SO_RCVBUF of client sockets; -1 is the OS default."),
        ConfigKey.atLeast(NUM_NETWORK_THREADS, INT, 3, 1, "Network event-loop threads."),
        ConfigKey.atLeast(NUM_IO_THREADS, INT, 8, 1, "Request-handler threads."),
        ConfigKey.atLeast(QUEUED_MAX_REQUESTS, INT, 500, 1,
            "Requests read and not yet handed to a handler, across every connection, before connections stop being read."),
        ConfigKey.of(QUEUED_MAX_REQUEST_BYTES, LONG, -1,
            "Bytes of requests read and not yet answered, across every connection, before connections stop being read; "
                + "-1 (or 0) no bound."),
        ConfigKey.atLeast(CONNECTIONS_MAX_IDLE_MS, LONG, 600000, -1, "Idle connections are closed after this; -1 never."),
        ConfigKey.atLeast(MAX_CONNECTIONS, INT, Integer.MAX_VALUE, 0,
            "Connections the broker holds at once (listener.name.<listener>.max.connections per listener); "
                + "at the limit new connections wait until one closes."),
        ConfigKey.atLeast(MAX_CONNECTIONS_PER_IP, INT, Integer.MAX_VALUE, 0,
            "Connections at once from one address; more are closed at once. 0 only with overrides."),
        ConfigKey.of(MAX_CONNECTIONS_PER_IP_OVERRIDES, STRING, "",
            "Per-address or host name overrides of max.connections.per.ip, e.g. hostName:100,127.0.0.1:200."),
        ConfigKey.atLeast(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS, INT, 1000, 0,
            "Most incremental fetch sessions (KIP-227) kept at once; 0 disables them."),
        ConfigKey.of(STORAGE_ENGINE, STRING, "segments", "The storage engine backend, by name."),
        ConfigKey.of(CLUSTER_STORE, STRING, "files", "The cluster-state store backend, by name."),
        ConfigKey.of(BROKER_RACK, STRING, null, "The rack of this broker, registered and listed in Metadata."),
        ConfigKey.of(AUTHORIZER, STRING, "none", "The authorizer backend, by name (none, acl, or a plugin's); none allows everything."),
        ConfigKey.of(AuthorizerSelection.KEY, STRING, "",
            "Kafka's authorizer class: " + AuthorizerSelection.STANDARD_AUTHORIZER + " or " + AuthorizerSelection.ACL_AUTHORIZER
                + " selects the built-in acl authorizer (as authorizer=acl); kaas loads no other class."),
        ConfigKey.of(SUPER_USERS, STRING, null,
            "Principals the authorizer always allows, separated by ';' (e.g. User:admin;User:ops)."),
        ConfigKey.of(ALLOW_EVERYONE_IF_NO_ACL_FOUND, BOOLEAN, false,
            "Whether the authorizer allows an action on a resource no ACL rule names."),
        ConfigKey.atLeast(GROUP_INITIAL_REBALANCE_DELAY_MS, INT, 3000, 0,
            "How long the first rebalance of a new classic group waits for more members."),
        ConfigKey.atLeast(GROUP_MIN_SESSION_TIMEOUT_MS, INT, 6000, 0, "Smallest session timeout a classic member may ask for."),
        ConfigKey.atLeast(GROUP_MAX_SESSION_TIMEOUT_MS, INT, 1800000, 0, "Largest session timeout a classic member may ask for."),
        ConfigKey.atLeast(GROUP_MAX_SIZE, INT, Integer.MAX_VALUE, 1, "Most members in one classic group."),
        ConfigKey.atLeast(GROUP_CONSUMER_SESSION_TIMEOUT_MS, INT, 45000, 1,
            "Session timeout of KIP-848 consumer group members."),
        ConfigKey.atLeast(GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS, INT, 5000, 1,
            "Heartbeat interval handed to KIP-848 consumer group members."),
        ConfigKey.atLeast(GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS, INT, 45000, 1,
            "Smallest consumer.session.timeout.ms a group config may set."),
        ConfigKey.atLeast(GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS, INT, 60000, 1,
            "Largest consumer.session.timeout.ms a group config may set."),
        ConfigKey.atLeast(GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS, INT, 5000, 1,
            "Smallest consumer.heartbeat.interval.ms a group config may set."),
        ConfigKey.atLeast(GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS, INT, 15000, 1,
            "Largest consumer.heartbeat.interval.ms a group config may set."),
        ConfigKey.of(GROUP_CONSUMER_ASSIGNORS, LIST, "uniform,range",
            "Server-side assignors of KIP-848 groups, by name; the first is the default."),
        ConfigKey.atLeast(GROUP_CONSUMER_MAX_SIZE, INT, Integer.MAX_VALUE, 1, "Most members in one KIP-848 group."),
        ConfigKey.atLeast(GROUP_CONSUMER_ASSIGNMENT_INTERVAL_MS, INT, 1000, 0,
            "The least time between two target assignments of a KIP-848 group; 0 computes one at every change."),
        ConfigKey.atLeast(GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS, INT, 0, 0,
            "Smallest group.consumer.assignment.interval.ms allowed."),
        ConfigKey.atLeast(GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS, INT, 15000, 0,
            "Largest group.consumer.assignment.interval.ms allowed."),
        ConfigKey.atLeast(GROUP_CONSUMER_REGEX_REFRESH_INTERVAL_MS, INT, 600000, 10000,
            "How long the topics a KIP-848 group's regular expressions match stand before they are resolved again."),
        ConfigKey.atLeast(OFFSETS_RETENTION_MINUTES, INT, 10080, 1,
            "Committed offsets of a group left empty are deleted after this long."),
        ConfigKey.atLeast(OFFSETS_RETENTION_CHECK_INTERVAL_MS, LONG, 600000, 1, "How often expired offsets are looked for."),
        ConfigKey.atLeast(OFFSET_METADATA_MAX_BYTES, INT, 4096, 0, "Largest metadata string an offset commit may carry."),
        ConfigKey.atLeast(OFFSETS_TOPIC_NUM_PARTITIONS, INT, 50, 1,
            "Partitions of __consumer_offsets; fixed once the topic exists."),
        ConfigKey.atLeast(OFFSETS_TOPIC_SEGMENT_BYTES, INT, 104857600, 1048576,
            "segment.bytes of the __consumer_offsets topic (at least 1 MiB, the topic setting's minimum)."),
        ConfigKey.atLeast(TRANSACTION_MAX_TIMEOUT_MS, INT, 900000, 1,
            "Largest transaction.timeout.ms a producer may ask for (INVALID_TRANSACTION_TIMEOUT above it)."),
        ConfigKey.atLeast(TRANSACTION_STATE_LOG_NUM_PARTITIONS, INT, 50, 1,
            "Partitions of __transaction_state; fixed once the topic exists."),
        ConfigKey.atLeast(TRANSACTION_STATE_LOG_SEGMENT_BYTES, INT, 104857600, 1048576,
            "segment.bytes of the __transaction_state topic (at least 1 MiB, the topic setting's minimum)."),
        ConfigKey.atLeast(TRANSACTIONAL_ID_EXPIRATION_MS, INT, 604800000, 1,
            "A transactional id with no transaction for this long is removed."),
        ConfigKey.atLeast(TRANSACTION_ABORT_TIMED_OUT_INTERVAL_MS, INT, 10000, 1,
            "How often transactions open longer than their timeout are looked for (and aborted)."),
        ConfigKey.atLeast(TRANSACTION_REMOVE_EXPIRED_INTERVAL_MS, INT, 3600000, 1,
            "How often expired transactional ids are looked for."),
        ConfigKey.atLeast(TRANSACTION_VERSION, SHORT, 2, 1,
            "The finalized transaction.version feature (kaas only): 2 lets 4.x clients use transactions V2 "
                + "(KIP-890), 1 keeps every client on V1."),
        ConfigKey.atLeast(ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MS, INT, 20, 1,
            "Backoff between the broker's own retries of a Produce v12+ implicit add that met CONCURRENT_TRANSACTIONS "
                + "(the previous transaction's markers still being written)."),
        ConfigKey.atLeast(ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS, INT, 100, 0,
            "How long the broker retries such an implicit add before the producer gets NOT_ENOUGH_REPLICAS (retriable)."),
        ConfigKey.atLeast(PRODUCER_ID_EXPIRATION_MS, INT, 86400000, 1,
            "A producer's state on a partition (epoch, sequences) is removed once its last write is this old and it "
                + "has no transaction open there; it is then a new producer."),
        ConfigKey.atLeast(PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS, INT, 600000, 1,
            "How often the storage engine looks for producers past producer.id.expiration.ms."),
        ConfigKey.atLeast(QUOTA_WINDOW_NUM, INT, 11, 1, "Samples a client quota's rate is measured over."),
        ConfigKey.atLeast(QUOTA_WINDOW_SIZE_SECONDS, INT, 1, 1, "The time span of one client quota sample."),
        ConfigKey.atLeast(CONTROLLER_QUOTA_WINDOW_NUM, INT, 11, 1,
            "Samples of a controller_mutation_rate quota: with the window size and the quota, its burst."),
        ConfigKey.atLeast(CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS, INT, 1, 1,
            "The time span of one controller_mutation_rate sample."),
        ConfigKey.atLeast(MAX_CONNECTION_CREATION_RATE, INT, Integer.MAX_VALUE, 0,
            "New connections per second the broker accepts, every listener together; above it accepting waits."),
        ConfigKey.of(PLUGINS_DIR, STRING, null,
            "Directory of drop-in plugins (kaas only); default <kaas.home>/plugins, else ./plugins."),
        // The admin HTTP endpoint (kaas only): /metrics, /health, /ready.
        ConfigKey.of(AdminListener.KEY, STRING, AdminListener.DEFAULT,
            "The admin HTTP endpoint (/metrics, /health, /ready) as http://HOST:PORT (port 0: ephemeral), or none."),
        // The web console on the admin endpoint (kaas only): its pages under /console/, its JSON API under /api/v1/.
        ConfigKey.of(ADMIN_CONSOLE_ENABLED, BOOLEAN, true,
            "Serve the web console (/console/, /api/v1/) on the admin endpoint; false leaves /metrics, /health, "
                + "/ready only.")));

    /** Kafka keys a stock server.properties carries that kaas accepts without using. */
    static final Set<String> ACCEPTED_UNUSED = Set.of(
        "process.roles", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
        "ssl.endpoint.identification.algorithm", "ssl.secure.random.implementation", "ssl.provider",
        "ssl.engine.factory.class",
        "num.recovery.threads.per.data.dir", "offsets.topic.replication.factor",
        "broker.id",
        "share.coordinator.state.topic.replication.factor", "share.coordinator.state.topic.min.isr",
        "num.replica.fetchers", "min.insync.replicas", "unclean.leader.election.enable", "auto.leader.rebalance.enable",
        "log.index.size.max.bytes", "log.index.interval.bytes", "log.preallocate", "background.threads",
        "early.start.listeners", "metadata.log.dir", "compression.type", "socket.listen.backlog.size",
        "num.replica.alter.log.dirs.threads", "controlled.shutdown.enable",
        "reserved.broker.max.id", "log.message.format.version", "inter.broker.protocol.version",
        "transaction.state.log.replication.factor", "transaction.state.log.min.isr");

    /** Kafka keys kaas defines (and validates, and DescribeConfigs reports) but that change nothing. */
    static final Set<String> DEFINED_WITHOUT_EFFECT = Set.of();

    /**
     * Kafka keys that stand for a storage engine's own setting (the key under {@code storage.<engine>.}) when the
     * engine reads that setting and it is not set explicitly. An engine that does not read it ignores the Kafka key.
     */
    static final Map<String, String> ENGINE_FALLBACKS = Map.of(
        LOG_RETENTION_CHECK_INTERVAL_MS, "retention.check.interval.ms",
        LOG_FLUSH_INTERVAL_MS, "flush.interval.ms",
        LOG_CLEANER_THREADS, "cleaner.threads",
        LOG_CLEANER_IO_MAX_BYTES_PER_SECOND, "cleaner.io.max.bytes.per.second",
        LOG_CLEANER_BACKOFF_MS, "cleaner.backoff.ms");

    /** Prefixes of Kafka keys kaas accepts without using. */
    static final List<String> ACCEPTED_UNUSED_PREFIXES = List.of(
        "transaction.state.log.", "controller.", "metadata.", "replica.", "log.cleaner.",
        "confluent.", "sasl.", "listener.name.", "remote.log.", "log.local.", "metric.", "metrics.",
        "kafka.metrics.", "quota.", "group.coordinator.", "group.share.", "offsets.topic.", "offsets.commit.",
        "offsets.load.", "transaction.", "share.", "producer.purgatory.",
        "fetch.purgatory.", "delete.records.purgatory.", "config.providers");

    /** Prefixes of backend settings passed through to plugins. */
    static final List<String> BACKEND_PREFIXES = List.of("storage.", "cluster.", "authorizer.", ZOOKEEPER_PREFIX);

    private BrokerConfigDef() {
    }

    static boolean isAcceptedUnused(String key) {
        return ACCEPTED_UNUSED.contains(key) || ACCEPTED_UNUSED_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * Whether {@code key} is a listener's override of a known key, {@code listener.name.<listener>.<known key>}
     * (the listener part may not hold a dot, as Kafka's listener names).
     */
    static boolean isListenerOverride(String key) {
        if (!key.startsWith("listener.name.")) {
            return false;
        }
        int dot = key.indexOf('.', "listener.name.".length());
        return dot > 0 && KEYS.containsKey(key.substring(dot + 1));
    }

    /** Whether {@code key}, or the key a listener override stands for, holds a secret. */
    static boolean isSensitive(String key) {
        ConfigKey k = KEYS.get(key);
        if (k == null && key.startsWith("listener.name.")) {
            int dot = key.indexOf('.', "listener.name.".length());
            k = dot > 0 ? KEYS.get(key.substring(dot + 1)) : null;
        }
        return k != null ? k.sensitive() : key.contains("password") || key.endsWith("jaas.config") || key.endsWith(".key");
    }

    static boolean isBackendSetting(String key) {
        return BACKEND_PREFIXES.stream().anyMatch(key::startsWith);
    }

    private static Map<String, ConfigKey> build(List<ConfigKey> more, List<ConfigKey> keys) {
        Map<String, ConfigKey> map = new LinkedHashMap<>();
        keys.forEach(k -> map.put(k.name(), k));
        more.forEach(k -> map.put(k.name(), k));
        return map;
    }
}
