package io.kaas.api.auth;

import java.util.Objects;

/**
 * Who sends a request, as Kafka writes it: {@code <type>:<name>}, e.g. {@code User:alice}.
 *
 * @param type the principal type, {@code User} for users
 * @param name the name within the type
 */
public record KafkaPrincipal(String type, String name) {
    /** Kafka's principal type for users. */
    public static final String USER_TYPE = "User";
    /** The principal of an unauthenticated (PLAINTEXT) connection: {@code User:ANONYMOUS}. */
    public static final KafkaPrincipal ANONYMOUS = new KafkaPrincipal(USER_TYPE, "ANONYMOUS");

    public KafkaPrincipal {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    /**
     * Parses {@code <type>:<name>} (split at the first colon).
     *
     * @throws IllegalArgumentException if there is no colon, or the type or the name is empty
     */
    public static KafkaPrincipal parse(String text) {
        String s = Objects.requireNonNull(text, "text").strip();
        int colon = s.indexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("Expected a principal as <type>:<name> (e.g. User:alice), got '" + text + "'");
        }
        return new KafkaPrincipal(s.substring(0, colon), s.substring(colon + 1));
    }

    /** {@code <type>:<name>}. */
    @Override
    public String toString() {
        return type + ":" + name;
    }
}
