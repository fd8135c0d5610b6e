package io.kaas.broker.config;

import java.util.Locale;

/**
 * Kafka's config value types ({@code ConfigDef.Type}), named as DescribeConfigs reports them, with the
 * codes DescribeConfigs v3+ puts on the wire. One enum for the broker's keys and the topic configs.
 */
public enum ConfigType {
    UNKNOWN(0), BOOLEAN(1), STRING(2), INT(3), SHORT(4), LONG(5), DOUBLE(6), LIST(7), CLASS(8), PASSWORD(9);

    private final byte code;

    ConfigType(int code) {
        this.code = (byte) code;
    }

    /** The DescribeConfigs v3+ {@code ConfigType} code. */
    public byte code() {
        return code;
    }

    /** Parses a type name such as {@code "LONG"} or {@code "long"}; UNKNOWN when null or not a type. */
    public static ConfigType parse(String name) {
        if (name == null) {
            return UNKNOWN;
        }
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return UNKNOWN;
        }
    }
}
