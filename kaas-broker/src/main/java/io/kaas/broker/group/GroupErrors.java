package io.kaas.broker.group;

/** The Kafka error codes the group coordinator answers. */
public final class GroupErrors {
    public static final short NONE = 0;
    public static final short UNKNOWN_SERVER_ERROR = -1;
    public static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    public static final short OFFSET_METADATA_TOO_LARGE = 12;
    public static final short COORDINATOR_LOAD_IN_PROGRESS = 14;
    public static final short COORDINATOR_NOT_AVAILABLE = 15;
    public static final short NOT_COORDINATOR = 16;
    public static final short ILLEGAL_GENERATION = 22;
    public static final short INCONSISTENT_GROUP_PROTOCOL = 23;
    public static final short INVALID_GROUP_ID = 24;
    public static final short UNKNOWN_MEMBER_ID = 25;
    public static final short INVALID_SESSION_TIMEOUT = 26;
    public static final short REBALANCE_IN_PROGRESS = 27;
    public static final short INVALID_COMMIT_OFFSET_SIZE = 28;
    public static final short INVALID_REQUEST = 42;
    public static final short NON_EMPTY_GROUP = 68;
    public static final short GROUP_ID_NOT_FOUND = 69;
    public static final short MEMBER_ID_REQUIRED = 79;
    public static final short FENCED_INSTANCE_ID = 82;
    public static final short GROUP_MAX_SIZE_REACHED = 81;
    public static final short GROUP_SUBSCRIBED_TO_TOPIC = 86;
    public static final short UNSUPPORTED_VERSION = 35;
    public static final short FENCED_MEMBER_EPOCH = 110;
    public static final short UNRELEASED_INSTANCE_ID = 111;
    public static final short UNSUPPORTED_ASSIGNOR = 112;
    public static final short STALE_MEMBER_EPOCH = 113;
    public static final short INVALID_REGULAR_EXPRESSION = 128;

    private GroupErrors() {
    }
}
