package io.kaas.broker.topic;

import io.kaas.api.plugin.BackendProvider;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kafka's topic-name rules ({@code org.apache.kafka.common.internals.Topic}), plus the names the
 * selected backends reserve for their own entries in the data directory ({@code __cluster}…): an
 * instance checks both; the static methods Kafka's rules alone.
 */
public final class TopicNames {
    public static final int MAX_NAME_LENGTH = 249;

    /** Reserved names, lower-cased: a case-insensitive file system would put {@code __Cluster} on {@code __cluster}. */
    private final Set<String> reserved;

    private TopicNames(Set<String> reserved) {
        this.reserved = reserved;
    }

    /** Kafka's rules and no reserved name. */
    public static TopicNames kafkaRules() {
        return new TopicNames(Set.of());
    }

    /** Kafka's rules, and none of {@code reservedNames} in any letter case. */
    public static TopicNames reserving(Collection<String> reservedNames) {
        Set<String> lower = new TreeSet<>();
        reservedNames.forEach(n -> lower.add(n.toLowerCase(Locale.ROOT)));
        return new TopicNames(Set.copyOf(lower));
    }

    /** The names the selected storage engine and cluster-state store keep in the data directory. */
    public static TopicNames reservedBy(BackendProvider... backends) {
        List<String> names = new ArrayList<>();
        for (BackendProvider backend : backends) {
            names.addAll(backend.reservedNames());
        }
        return reserving(names);
    }

    /** Null if {@code name} may name a topic here, else Kafka's (or the reservation's) message for why not. */
    public String refusal(String name) {
        String invalid = invalidReason(name);
        if (invalid != null) {
            return invalid;
        }
        if (reserved.contains(name.toLowerCase(Locale.ROOT))) {
            return "Topic name \"" + name + "\" is illegal, it is reserved: the storage backends keep an entry of that name"
                    + " in the data directory";
        }
        return null;
    }

    /** Whether {@code name} may name a topic here. */
    public boolean allows(String name) {
        return refusal(name) == null;
    }

    /** Null if {@code name} is a legal topic name, else Kafka's message for why not. */
    public static String invalidReason(String name) {
        if (name == null || name.isEmpty()) {
            return "Topic name is illegal, it can't be empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "Topic name cannot be \".\" or \"..\"";
        }
        if (name.length() > MAX_NAME_LENGTH) {
            return "Topic name is illegal, it can't be longer than " + MAX_NAME_LENGTH
                    + " characters, topic name: " + name;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                return "Topic name \"" + name + "\" is illegal, it contains a character other than "
                        + "ASCII alphanumerics, '.', '_' and '-'";
            }
        }
        return null;
    }

    public static boolean isValid(String name) {
        return invalidReason(name) == null;
    }

    /** Whether two names collide in metric names ('.' and '_' are the same there). */
    public static boolean collide(String a, String b) {
        return a.replace('.', '_').equals(b.replace('.', '_'));
    }

    /** Kafka's internal topics. */
    public static boolean isInternal(String name) {
        return name.equals("__consumer_offsets") || name.equals("__transaction_state") || name.equals("__share_group_state");
    }
}
