package io.kaas.broker.topic;

/** The Kafka error codes the broker answers with (values of Kafka's {@code Errors} enum). */
public final class ErrorCodes {
    public static final short UNKNOWN_SERVER_ERROR = -1;
    public static final short NONE = 0;
    public static final short OFFSET_OUT_OF_RANGE = 1;
    public static final short CORRUPT_MESSAGE = 2;
    public static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    public static final short MESSAGE_TOO_LARGE = 10;
    public static final short NOT_COORDINATOR = 16;
    public static final short INVALID_TOPIC_EXCEPTION = 17;
    public static final short INVALID_REQUIRED_ACKS = 21;
    public static final short TOPIC_AUTHORIZATION_FAILED = 29;
    public static final short GROUP_AUTHORIZATION_FAILED = 30;
    public static final short CLUSTER_AUTHORIZATION_FAILED = 31;
    public static final short UNSUPPORTED_VERSION = 35;
    public static final short TOPIC_ALREADY_EXISTS = 36;
    public static final short INVALID_PARTITIONS = 37;
    public static final short INVALID_REPLICATION_FACTOR = 38;
    public static final short INVALID_REPLICA_ASSIGNMENT = 39;
    public static final short INVALID_CONFIG = 40;
    public static final short INVALID_REQUEST = 42;
    public static final short OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
    public static final short INVALID_PRODUCER_EPOCH = 47;
    public static final short TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53;
    public static final short KAFKA_STORAGE_ERROR = 56;
    public static final short TOPIC_DELETION_DISABLED = 73;
    public static final short INVALID_RECORD = 87;
    public static final short UNKNOWN_TOPIC_ID = 100;
    public static final short MISMATCHED_ENDPOINT_TYPE = 114;

    private ErrorCodes() {
    }
}
