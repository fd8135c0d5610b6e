package io.kaas.broker.topic;

/** Where a config value comes from: Kafka's DescribeConfigs ConfigSource codes. */
public enum ConfigSource {
    UNKNOWN(0), DYNAMIC_TOPIC_CONFIG(1), DYNAMIC_BROKER_CONFIG(2), DYNAMIC_DEFAULT_BROKER_CONFIG(3),
    STATIC_BROKER_CONFIG(4), DEFAULT_CONFIG(5),
    /** A group's own config (Kafka's GROUP_CONFIG, the Admin client's DYNAMIC_GROUP_CONFIG). */
    DYNAMIC_GROUP_CONFIG(8);

    private final byte code;

    ConfigSource(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }
}
