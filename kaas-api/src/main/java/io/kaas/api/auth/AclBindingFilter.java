package io.kaas.api.auth;

import java.util.Objects;

/**
 * Selects ACLs (DescribeAcls, DeleteAcls) with Kafka's rules: both the pattern filter and the entry
 * filter match.
 *
 * @param pattern which resource patterns
 * @param entry   which entries
 */
public record AclBindingFilter(ResourcePatternFilter pattern, AccessControlEntryFilter entry) {
    /** Every ACL. */
    public static final AclBindingFilter ANY = new AclBindingFilter(ResourcePatternFilter.ANY, AccessControlEntryFilter.ANY);

    public AclBindingFilter {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(entry, "entry");
    }

    public boolean matches(AclBinding binding) {
        return pattern.matches(binding.pattern()) && entry.matches(binding.entry());
    }
}
