package io.kaas.broker.topic;

/** Kafka's topic-name rules ({@code org.apache.kafka.common.internals.Topic}). */
public final class TopicNames {
    public static final int MAX_NAME_LENGTH = 249;

    private TopicNames() {
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
