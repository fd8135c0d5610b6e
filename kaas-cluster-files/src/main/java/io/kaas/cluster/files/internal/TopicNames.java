package io.kaas.cluster.files.internal;

/** Kafka's legal topic names, which are also safe file names: [a-zA-Z0-9._-]{1,249}, not "." or "..". */
final class TopicNames {
    static final int MAX_LENGTH = 249;

    private TopicNames() {
    }

    /** @throws IllegalArgumentException saying what is wrong with {@code name} */
    static void validate(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("Topic name '" + name + "' is illegal, it cannot be empty, '.' or '..'");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("Topic name is illegal, it cannot be longer than " + MAX_LENGTH
                    + " characters: '" + name + "'");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                throw new IllegalArgumentException("Topic name '" + name
                        + "' is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
            }
        }
    }
}
