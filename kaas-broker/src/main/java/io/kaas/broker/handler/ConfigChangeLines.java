package io.kaas.broker.handler;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The changes between two sets of config overrides, for the log line that reports them: {@code key=old -> new},
 * {@code (default)} for a key not set on one side, {@code [hidden]} for both values of a key whose value may be a
 * secret.
 */
final class ConfigChangeLines {
    static final String DEFAULT = "(default)";
    static final String HIDDEN = "[hidden]";

    private ConfigChangeLines() {
    }

    /** The changed keys, sorted, each to its {@code old -> new}; empty when nothing changed. */
    static Map<String, String> changes(Map<String, String> before, Map<String, String> after,
                                       Predicate<String> valueShown) {
        Map<String, String> changed = new TreeMap<>();
        after.forEach((k, v) -> {
            if (!v.equals(before.get(k))) {
                changed.put(k, line(k, before.get(k), v, valueShown));
            }
        });
        before.forEach((k, v) -> {
            if (!after.containsKey(k)) {
                changed.put(k, line(k, v, null, valueShown));
            }
        });
        return changed;
    }

    private static String line(String key, String old, String now, Predicate<String> valueShown) {
        if (!valueShown.test(key)) {
            return (old == null ? DEFAULT : HIDDEN) + " -> " + (now == null ? DEFAULT : HIDDEN);
        }
        return (old == null ? DEFAULT : old) + " -> " + (now == null ? DEFAULT : now);
    }
}
