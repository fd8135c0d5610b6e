package io.kaas.broker.config;

import java.util.Locale;

/**
 * The definition of one known config key.
 *
 * @param name         the Kafka config name
 * @param type         its Kafka type
 * @param defaultValue the default as a string, or null when the key has no default
 * @param min          the smallest accepted value for numeric types (inclusive), or null
 * @param sensitive    true for secrets
 * @param doc          one-sentence description
 */
record ConfigKey(String name, ConfigType type, String defaultValue, Long min, boolean sensitive, String doc) {

    static ConfigKey of(String name, ConfigType type, Object defaultValue, String doc) {
        return new ConfigKey(name, type, defaultValue == null ? null : String.valueOf(defaultValue), null, false, doc);
    }

    static ConfigKey atLeast(String name, ConfigType type, Object defaultValue, long min, String doc) {
        return new ConfigKey(name, type, defaultValue == null ? null : String.valueOf(defaultValue), min, false, doc);
    }

    /** A secret (Kafka's PASSWORD type, no default): never logged, DescribeConfigs answers null. */
    static ConfigKey password(String name, String doc) {
        return new ConfigKey(name, ConfigType.PASSWORD, null, null, true, doc);
    }

    /** Parses {@code raw} as this key's type; throws {@link ConfigException} naming the key when malformed. */
    Object parse(String raw) {
        String v = raw.trim();
        switch (type) {
            case BOOLEAN:
                if (v.equalsIgnoreCase("true")) {
                    return Boolean.TRUE;
                }
                if (v.equalsIgnoreCase("false")) {
                    return Boolean.FALSE;
                }
                throw new ConfigException(name, "expected true or false, got '" + raw + "'");
            case INT:
            case SHORT:
            case LONG:
                return checkMin(parseInteger(v));
            case DOUBLE:
                try {
                    return Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    throw new ConfigException(name, "expected a number, got '" + raw + "'");
                }
            default:
                return v;
        }
    }

    private long parseInteger(String v) {
        long value;
        try {
            value = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(name, "expected " + what() + ", got '" + v + "'");
        }
        boolean fits = switch (type) {
            case INT -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
            case SHORT -> value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
            default -> true;
        };
        if (!fits) {
            throw new ConfigException(name, "expected " + what() + ", got '" + v + "' (out of range)");
        }
        return value;
    }

    private long checkMin(long value) {
        if (min != null && value < min) {
            throw new ConfigException(name, "must be at least " + min + ", got " + value);
        }
        return value;
    }

    private String what() {
        return switch (type) {
            case INT -> "a 32-bit integer";
            case SHORT -> "a 16-bit integer";
            default -> "a 64-bit integer";
        };
    }

    String typeName() {
        return type.name().toUpperCase(Locale.ROOT);
    }
}
