package io.kaas.api.cluster;

/**
 * Kafka's rules for a legal topic name ({@code org.apache.kafka.common.internals.Topic}): 1 to 249 of
 * {@code [a-zA-Z0-9._-]}, not "." or "..". Such a name is also a safe file name, which is why a
 * cluster-state store or an engine may use it as one. The broker and the backends share this one copy.
 */
public final class TopicNameRules {
    /** The longest legal name. */
    public static final int MAX_LENGTH = 249;

    private TopicNameRules() {
    }

    /** Null if {@code name} is a legal topic name, else Kafka's message for why not. */
    public static String invalidReason(String name) {
        if (name == null || name.isEmpty()) {
            return "Topic name is illegal, it can't be empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "Topic name cannot be \".\" or \"..\"";
        }
        if (name.length() > MAX_LENGTH) {
            return "Topic name is illegal, it can't be longer than " + MAX_LENGTH + " characters, topic name: " + name;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!legal(name.charAt(i))) {
                return "Topic name \"" + name + "\" is illegal, it contains a character other than "
                        + "ASCII alphanumerics, '.', '_' and '-'";
            }
        }
        return null;
    }

    private static boolean legal(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    }
}
