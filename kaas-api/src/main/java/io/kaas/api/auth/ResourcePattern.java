package io.kaas.api.auth;

import java.util.Objects;

/**
 * The resources an ACL applies to, as Kafka's {@code ResourcePattern}: a type, a name and how the name
 * matches. A LITERAL pattern named {@value #WILDCARD} matches every resource of its type.
 *
 * @param type        the resource type
 * @param name        the literal name or the prefix; not empty
 * @param patternType LITERAL or PREFIXED
 */
public record ResourcePattern(ResourceType type, String name, PatternType patternType) {
    /** The literal name that matches every resource of a type. */
    public static final String WILDCARD = "*";

    public ResourcePattern {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(patternType, "patternType");
        if (!patternType.isSpecific()) {
            throw new IllegalArgumentException("An ACL's pattern type is LITERAL or PREFIXED, not " + patternType);
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("Resource name should not be empty");
        }
    }

    /** Whether this pattern matches the resource of its type named {@code resourceName}. */
    public boolean matches(ResourceType resourceType, String resourceName) {
        if (resourceType != type) {
            return false;
        }
        return patternType == PatternType.PREFIXED ? resourceName.startsWith(name)
                : name.equals(WILDCARD) || name.equals(resourceName);
    }

    @Override
    public String toString() {
        return type + ":" + patternType + ":" + name;
    }
}
