package io.kaas.broker.config;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

/**
 * The values of {@code log.cleanup.policy} as Kafka 4.4 validates them ({@code ValidList.in("compact", "delete")}):
 * a list of {@code delete} and {@code compact}, each at most once. The empty list is allowed and means neither: no
 * retention and no compaction, the log is kept whole.
 */
final class CleanupPolicies {
    private static final List<String> VALID = List.of("compact", "delete");

    private CleanupPolicies() {
    }

    /** Kafka's message for what is wrong with {@code value} of {@code key}, or null when it is valid. */
    static String problem(String key, String value) {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            return null;
        }
        List<String> items = Arrays.stream(v.split(",", -1)).map(String::trim).toList();
        if (items.contains("")) {
            return "Configuration '" + key + "' values must not be empty.";
        }
        if (new HashSet<>(items).size() != items.size()) {
            return "Configuration '" + key + "' values must not be duplicated.";
        }
        for (String item : items) {
            if (!VALID.contains(item)) {
                return "Invalid value " + item + " for configuration " + key + ": String must be one of: "
                        + String.join(", ", VALID);
            }
        }
        return null;
    }
}
