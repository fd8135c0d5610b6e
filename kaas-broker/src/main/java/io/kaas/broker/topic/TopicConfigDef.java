package io.kaas.broker.topic;

import io.kaas.broker.config.ConfigType;
import java.util.List;
import java.util.Locale;

/**
 * One topic-level config as Kafka defines it.
 *
 * @param name          the topic config name ({@code retention.ms})
 * @param type          its value type
 * @param kafkaDefault  Kafka's default when neither the topic nor the broker sets it (null: no value)
 * @param brokerSynonym the broker setting that supplies the default ({@code log.retention.ms}), or null
 * @param validator     checks a value already known to parse as {@code type}
 * @param documentation the description DescribeConfigs returns when asked
 */
public record TopicConfigDef(String name, ConfigType type, String kafkaDefault, String brokerSynonym,
                             Validator validator, String documentation) {

    /** Checks one value; returns null when valid, else the reason (Kafka's wording). */
    @FunctionalInterface
    public interface Validator {
        String check(String value);
    }

    static final Validator ANY = v -> null;

    /**
     * Validates {@code value} for this config.
     *
     * @return null when valid, else Kafka's message, e.g.
     *         {@code Invalid value x for configuration retention.ms: Not a number of type LONG}
     */
    public String validate(String value) {
        if (value == null) {
            return "Invalid value null for configuration " + name + ": value must not be null";
        }
        String v = value.trim();
        String typeError = typeError(v);
        if (typeError != null) {
            return "Invalid value " + value + " for configuration " + name + ": " + typeError;
        }
        if (type == ConfigType.LIST && validator instanceof ElementValidator elements) {
            return listError(v, elements);
        }
        String error = validator.check(v);
        return error == null ? null : "Invalid value " + value + " for configuration " + name + ": " + error;
    }

    /**
     * Kafka 4.4's {@code ValidList}: a blank value is the empty list (allowed), an empty or repeated element is
     * refused, and each element is checked on its own.
     */
    private String listError(String v, ElementValidator elements) {
        if (v.isEmpty()) {
            return null;
        }
        List<String> items = java.util.Arrays.stream(v.split(",", -1)).map(String::trim).toList();
        if (items.contains("")) {
            return "Configuration '" + name + "' values must not be empty.";
        }
        if (new java.util.HashSet<>(items).size() != items.size()) {
            return "Configuration '" + name + "' values must not be duplicated.";
        }
        for (String item : items) {
            String error = elements.check(item);
            if (error != null) {
                return "Invalid value " + item + " for configuration " + name + ": " + error;
            }
        }
        return null;
    }

    /** Checks each element of a LIST value on its own. */
    @FunctionalInterface
    interface ElementValidator extends Validator {
    }

    private String typeError(String v) {
        try {
            switch (type) {
                case INT -> Integer.parseInt(v);
                case SHORT -> Short.parseShort(v);
                case LONG -> Long.parseLong(v);
                case DOUBLE -> Double.parseDouble(v);
                case BOOLEAN -> {
                    String b = v.toLowerCase(Locale.ROOT);
                    if (!b.equals("true") && !b.equals("false")) {
                        return "Expected value to be either true or false";
                    }
                }
                default -> {
                    return null;
                }
            }
            return null;
        } catch (NumberFormatException e) {
            return "Not a number of type " + type;
        }
    }

    static Validator atLeast(long min) {
        return v -> {
            double d = Double.parseDouble(v);
            return d < min ? "Value must be at least " + min : null;
        };
    }

    static Validator between(double min, double max) {
        return v -> {
            double d = Double.parseDouble(v);
            return d < min || d > max ? "Value must be no less than " + min + " and no more than " + max : null;
        };
    }

    static Validator oneOf(String... allowed) {
        List<String> values = List.of(allowed);
        return v -> values.contains(v) ? null : "String must be one of: " + String.join(", ", values);
    }

    /** A LIST whose elements are each one of {@code allowed}; the empty list is allowed, as in Kafka 4.4. */
    static Validator listOf(String... allowed) {
        List<String> values = java.util.Arrays.stream(allowed).sorted().toList();
        return (ElementValidator) v -> values.contains(v) ? null : "String must be one of: " + String.join(", ", values);
    }
}
