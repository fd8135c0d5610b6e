package io.kaas.api.auth;

import java.util.Objects;

/**
 * One ACL, as Kafka's {@code AclBinding}: an entry bound to the resources of a pattern.
 *
 * @param pattern the resources
 * @param entry   who may or may not do what from where
 */
public record AclBinding(ResourcePattern pattern, AccessControlEntry entry) {
    public AclBinding {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(entry, "entry");
    }

    @Override
    public String toString() {
        return "(pattern=" + pattern + ", entry=" + entry + ")";
    }
}
