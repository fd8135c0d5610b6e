package io.kaas.api.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A client-quota entity (KIP-546): which of user, client-id and ip it names. Immutable, equal by value.
 *
 * @param entries entity type ({@value #USER}, {@value #CLIENT_ID}, {@value #IP}) to name; the name
 *                {@link #DEFAULT_NAME} means the type's default entity (Kafka's {@code kafka-configs --entity-default}).
 *                Valid combinations, as Kafka's: {user}, {client-id}, {user, client-id}, {ip}.
 */
public record ClientQuotaEntity(Map<String, String> entries) {
    public static final String USER = "user";
    public static final String CLIENT_ID = "client-id";
    public static final String IP = "ip";
    /** The name that stands for a type's default entity ({@code null} in Kafka's API, not allowed in a copied map). */
    public static final String DEFAULT_NAME = "<default>";

    private static final Set<Set<String>> VALID = Set.of(Set.of(USER), Set.of(CLIENT_ID), Set.of(USER, CLIENT_ID),
            Set.of(IP));

    public ClientQuotaEntity {
        Objects.requireNonNull(entries, "entries");
        entries = Map.copyOf(entries);
        if (!VALID.contains(entries.keySet())) {
            throw new IllegalArgumentException("not a valid client-quota entity: " + entries.keySet()
                    + " (one of user, client-id, user and client-id, ip)");
        }
    }

    /** An entity of one type, or with {@code more} of (type, name) pairs, e.g. {@code of("user", "alice", "client-id", "app")}. */
    public static ClientQuotaEntity of(String type, String name, String... more) {
        if (more.length % 2 != 0) {
            throw new IllegalArgumentException("types and names come in pairs");
        }
        Map<String, String> m = new LinkedHashMap<>();
        m.put(type, name);
        for (int i = 0; i < more.length; i += 2) {
            if (m.put(more[i], more[i + 1]) != null) {
                throw new IllegalArgumentException("entity type named twice: " + more[i]);
            }
        }
        return new ClientQuotaEntity(m);
    }

    /** The name for {@code type}, or null if the entity does not name that type. */
    public String name(String type) {
        return entries.get(type);
    }

    /** Whether {@code type}'s name is the default entity. */
    public boolean isDefault(String type) {
        return DEFAULT_NAME.equals(entries.get(type));
    }
}
