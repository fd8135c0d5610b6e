package io.kaas.api.auth;

import java.util.Objects;

/**
 * Selects resource patterns with Kafka's rules ({@code ResourcePatternFilter.matches}): the type unless
 * null (any type); the pattern type unless ANY or MATCH; then, unless the name is null (any name), with
 * ANY or the same pattern type the name exactly, and with MATCH every pattern that would match a resource
 * of that name: the same literal, the literal {@code *} and every prefix of it.
 *
 * @param type        the resource type, or null for any
 * @param name        the name, or null for any
 * @param patternType LITERAL, PREFIXED, ANY or MATCH
 */
public record ResourcePatternFilter(ResourceType type, String name, PatternType patternType) {
    /** Every pattern. */
    public static final ResourcePatternFilter ANY = new ResourcePatternFilter(null, null, PatternType.ANY);

    public ResourcePatternFilter {
        Objects.requireNonNull(patternType, "patternType");
    }

    public boolean matches(ResourcePattern pattern) {
        if (type != null && type != pattern.type()) {
            return false;
        }
        if (patternType != PatternType.ANY && patternType != PatternType.MATCH && patternType != pattern.patternType()) {
            return false;
        }
        if (name == null) {
            return true;
        }
        if (patternType == PatternType.ANY || patternType == pattern.patternType()) {
            return name.equals(pattern.name());
        }
        return pattern.patternType() == PatternType.PREFIXED ? name.startsWith(pattern.name())
                : name.equals(pattern.name()) || pattern.name().equals(ResourcePattern.WILDCARD);
    }
}
