package io.kaas.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AclModelTest {
    private static ResourcePattern pattern(String name, PatternType type) {
        return new ResourcePattern(ResourceType.TOPIC, name, type);
    }

    @Test
    void aStoredPatternIsLiteralOrPrefixedWithAName() {
        assertThatThrownBy(() -> pattern("t", PatternType.ANY)).hasMessageContaining("LITERAL or PREFIXED, not ANY");
        assertThatThrownBy(() -> pattern("t", PatternType.MATCH)).hasMessageContaining("not MATCH");
        assertThatThrownBy(() -> pattern("", PatternType.LITERAL)).hasMessage("Resource name should not be empty");
    }

    @Test
    void patternsMatchResourcesAsKafkas() {
        assertThat(pattern("*", PatternType.LITERAL).matches(ResourceType.TOPIC, "anything")).isTrue();
        assertThat(pattern("*", PatternType.LITERAL).matches(ResourceType.GROUP, "anything")).isFalse();
        assertThat(pattern("*", PatternType.PREFIXED).matches(ResourceType.TOPIC, "anything")).as("a prefix '*'")
                .isFalse();
        assertThat(pattern("app-", PatternType.PREFIXED).matches(ResourceType.TOPIC, "app-")).isTrue();
        assertThat(pattern("app-", PatternType.PREFIXED).matches(ResourceType.TOPIC, "app")).isFalse();
        assertThat(pattern("app", PatternType.LITERAL).matches(ResourceType.TOPIC, "app-1")).isFalse();
    }

    @Test
    void patternFiltersFollowKafkasRules() {
        ResourcePattern literal = pattern("foo", PatternType.LITERAL);
        ResourcePattern wildcard = pattern("*", PatternType.LITERAL);
        ResourcePattern prefix = pattern("fo", PatternType.PREFIXED);
        ResourcePatternFilter match = new ResourcePatternFilter(ResourceType.TOPIC, "foo", PatternType.MATCH);
        assertThat(Arrays.asList(literal, wildcard, prefix)).allMatch(match::matches);
        assertThat(match.matches(pattern("foo", PatternType.PREFIXED))).isTrue();
        assertThat(match.matches(pattern("foox", PatternType.PREFIXED))).isFalse();
        ResourcePatternFilter any = new ResourcePatternFilter(null, "foo", PatternType.ANY);
        assertThat(any.matches(literal)).isTrue();
        assertThat(any.matches(wildcard)).as("ANY compares the name exactly").isFalse();
        assertThat(any.matches(new ResourcePattern(ResourceType.GROUP, "foo", PatternType.PREFIXED))).isTrue();
        ResourcePatternFilter literalStar = new ResourcePatternFilter(ResourceType.TOPIC, "*", PatternType.LITERAL);
        assertThat(literalStar.matches(wildcard)).isTrue();
        assertThat(literalStar.matches(literal)).isFalse();
        assertThat(new ResourcePatternFilter(ResourceType.TOPIC, null, PatternType.PREFIXED).matches(literal)).isFalse();
    }

    @Test
    void entryFiltersCompareEachGivenField() {
        AccessControlEntry entry = new AccessControlEntry(KafkaPrincipal.parse("User:alice"), "10.0.0.1", Operation.READ,
                AclPermissionType.ALLOW);
        assertThat(AccessControlEntryFilter.ANY.matches(entry)).isTrue();
        assertThat(new AccessControlEntryFilter("User:alice", "10.0.0.1", Operation.READ, AclPermissionType.ALLOW)
                .matches(entry)).isTrue();
        assertThat(new AccessControlEntryFilter("User:*", null, null, null).matches(entry)).isFalse();
        assertThat(new AccessControlEntryFilter(null, "*", null, null).matches(entry)).isFalse();
        assertThat(new AccessControlEntryFilter(null, null, Operation.ALL, null).matches(entry)).isFalse();
        assertThat(new AccessControlEntryFilter(null, null, null, AclPermissionType.DENY).matches(entry)).isFalse();
    }

    @Test
    void codesAreKafkasAndUnknownOnesReadAsNothing() {
        assertThat(ResourceType.fromCode((byte) 6)).contains(ResourceType.DELEGATION_TOKEN);
        assertThat(ResourceType.fromCode((byte) 7)).contains(ResourceType.USER);
        assertThat(ResourceType.fromCode((byte) 0)).isEmpty();
        assertThat(ResourceType.fromCode((byte) 1)).as("ANY is no resource type").isEmpty();
        assertThat(Operation.fromCode((byte) 14)).contains(Operation.DESCRIBE_TOKENS);
        assertThat(Operation.fromCode((byte) 15)).isEmpty();
        assertThat(PatternType.fromCode((byte) 2)).contains(PatternType.MATCH);
        assertThat(PatternType.fromCode((byte) 5)).isEmpty();
        assertThat(AclPermissionType.fromCode((byte) 3)).contains(AclPermissionType.ALLOW);
        assertThat(AclPermissionType.fromCode((byte) 1)).isEmpty();
        assertThat(ResourceType.USER.deniedErrorCode()).isEqualTo((short) 65);
    }

    @Test
    void theInMemoryStoreKeepsEachBindingOnce() {
        AclStore store = AclStore.inMemory();
        AclBinding b = new AclBinding(pattern("t", PatternType.LITERAL), new AccessControlEntry(KafkaPrincipal.ANONYMOUS,
                "*", Operation.READ, AclPermissionType.ALLOW));
        store.addAcls(java.util.List.of(b, b));
        store.addAcls(java.util.List.of(b));
        assertThat(store.acls()).containsExactly(b);
        store.removeAcls(java.util.List.of(b));
        assertThat(store.acls()).isEmpty();
    }
}
