package io.kaas.broker.topic;

import java.util.Locale;

/** Kafka's config value types, with the codes DescribeConfigs v3+ puts on the wire. */
public enum ConfigType {
    UNKNOWN(0), BOOLEAN(1), STRING(2), INT(3), SHORT(4), LONG(5), DOUBLE(6), LIST(7), CLASS(8), PASSWORD(9);

    private final byte code;

    ConfigType(int code) {
        this.code = (byte) code;
    }

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
