package io.kaas.wire.protocol;

/**
 * The Kafka error codes kaas answers with: the values of Kafka's {@code Errors} enum, under Kafka's
 * names. The one error table of the broker; handlers, coordinators and the network layer all use it.
 */
public final class Errors {
    public static final short UNKNOWN_SERVER_ERROR = -1;
    public static final short NONE = 0;
    public static final short OFFSET_OUT_OF_RANGE = 1;
    public static final short CORRUPT_MESSAGE = 2;
    public static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    public static final short LEADER_NOT_AVAILABLE = 5;
    public static final short NOT_LEADER_OR_FOLLOWER = 6;
    public static final short MESSAGE_TOO_LARGE = 10;
    public static final short OFFSET_METADATA_TOO_LARGE = 12;
    public static final short NETWORK_EXCEPTION = 13;
    public static final short COORDINATOR_LOAD_IN_PROGRESS = 14;
    public static final short COORDINATOR_NOT_AVAILABLE = 15;
    public static final short NOT_COORDINATOR = 16;
    public static final short INVALID_TOPIC_EXCEPTION = 17;
    public static final short NOT_ENOUGH_REPLICAS = 19;
    public static final short INVALID_REQUIRED_ACKS = 21;
    public static final short ILLEGAL_GENERATION = 22;
    public static final short INCONSISTENT_GROUP_PROTOCOL = 23;
    public static final short INVALID_GROUP_ID = 24;
    public static final short UNKNOWN_MEMBER_ID = 25;
    public static final short INVALID_SESSION_TIMEOUT = 26;
    public static final short REBALANCE_IN_PROGRESS = 27;
    public static final short INVALID_COMMIT_OFFSET_SIZE = 28;
    public static final short TOPIC_AUTHORIZATION_FAILED = 29;
    public static final short GROUP_AUTHORIZATION_FAILED = 30;
    public static final short CLUSTER_AUTHORIZATION_FAILED = 31;
    public static final short UNSUPPORTED_SASL_MECHANISM = 33;
    public static final short ILLEGAL_SASL_STATE = 34;
    public static final short UNSUPPORTED_VERSION = 35;
    public static final short TOPIC_ALREADY_EXISTS = 36;
    public static final short INVALID_PARTITIONS = 37;
    public static final short INVALID_REPLICATION_FACTOR = 38;
    public static final short INVALID_REPLICA_ASSIGNMENT = 39;
    public static final short INVALID_CONFIG = 40;
    public static final short INVALID_REQUEST = 42;
    public static final short POLICY_VIOLATION = 44;
    public static final short OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
    public static final short INVALID_PRODUCER_EPOCH = 47;
    public static final short INVALID_TXN_STATE = 48;
    public static final short INVALID_PRODUCER_ID_MAPPING = 49;
    public static final short INVALID_TRANSACTION_TIMEOUT = 50;
    public static final short CONCURRENT_TRANSACTIONS = 51;
    public static final short TRANSACTION_COORDINATOR_FENCED = 52;
    public static final short TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53;
    public static final short SECURITY_DISABLED = 54;
    public static final short OPERATION_NOT_ATTEMPTED = 55;
    public static final short KAFKA_STORAGE_ERROR = 56;
    public static final short SASL_AUTHENTICATION_FAILED = 58;
    public static final short UNKNOWN_PRODUCER_ID = 59;
    public static final short NON_EMPTY_GROUP = 68;
    public static final short GROUP_ID_NOT_FOUND = 69;
    public static final short LISTENER_NOT_FOUND = 72;
    public static final short TOPIC_DELETION_DISABLED = 73;
    public static final short FENCED_LEADER_EPOCH = 74;
    public static final short UNKNOWN_LEADER_EPOCH = 75;
    public static final short MEMBER_ID_REQUIRED = 79;
    public static final short PREFERRED_LEADER_NOT_AVAILABLE = 80;
    public static final short GROUP_MAX_SIZE_REACHED = 81;
    public static final short FENCED_INSTANCE_ID = 82;
    public static final short ELIGIBLE_LEADERS_NOT_AVAILABLE = 83;
    public static final short ELECTION_NOT_NEEDED = 84;
    public static final short NO_REASSIGNMENT_IN_PROGRESS = 85;
    public static final short GROUP_SUBSCRIBED_TO_TOPIC = 86;
    public static final short INVALID_RECORD = 87;
    public static final short UNSTABLE_OFFSET_COMMIT = 88;
    public static final short THROTTLING_QUOTA_EXCEEDED = 89;
    public static final short PRODUCER_FENCED = 90;
    public static final short RESOURCE_NOT_FOUND = 91;
    public static final short DUPLICATE_RESOURCE = 92;
    public static final short UNACCEPTABLE_CREDENTIAL = 93;
    public static final short UNKNOWN_TOPIC_ID = 100;
    public static final short TRANSACTIONAL_ID_NOT_FOUND = 105;
    public static final short FENCED_MEMBER_EPOCH = 110;
    public static final short UNRELEASED_INSTANCE_ID = 111;
    public static final short UNSUPPORTED_ASSIGNOR = 112;
    public static final short STALE_MEMBER_EPOCH = 113;
    public static final short MISMATCHED_ENDPOINT_TYPE = 114;
    public static final short TRANSACTION_ABORTABLE = 120;
    public static final short INVALID_REGULAR_EXPRESSION = 128;

    private Errors() {
    }
}
