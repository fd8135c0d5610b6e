package io.kaas.plugin.tck;

import static io.kaas.api.auth.AuthorizationResult.ALLOWED;
import static io.kaas.api.auth.AuthorizationResult.DENIED;
import static io.kaas.api.auth.Operation.ALL;
import static io.kaas.api.auth.Operation.ALTER;
import static io.kaas.api.auth.Operation.ALTER_CONFIGS;
import static io.kaas.api.auth.Operation.CREATE;
import static io.kaas.api.auth.Operation.DELETE;
import static io.kaas.api.auth.Operation.DESCRIBE;
import static io.kaas.api.auth.Operation.DESCRIBE_CONFIGS;
import static io.kaas.api.auth.Operation.IDEMPOTENT_WRITE;
import static io.kaas.api.auth.Operation.READ;
import static io.kaas.api.auth.Operation.WRITE;
import static io.kaas.api.auth.ResourceType.CLUSTER;
import static io.kaas.api.auth.ResourceType.GROUP;
import static io.kaas.api.auth.ResourceType.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AccessControlEntryFilter;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclBindingFilter;
import io.kaas.api.auth.AclCreateResult;
import io.kaas.api.auth.AclDeleteResult;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.AclStore;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourcePatternFilter;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.SpiVersion;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link Authorizer} passes, with Kafka's semantics: allow and deny rules, deny
 * wins, super users, implied operations, {@code allow.everyone.if.no.acl.found}, literal, wildcard and
 * prefixed resource names, wildcard principals, one result per action in order, and concurrent calls.
 *
 * <p>The kit states each test's rules as a neutral {@link Policy}; the backend's test class turns it
 * into the settings its authorizer reads ({@link #configFor}), e.g. by writing a rules file into
 * {@code workDir}. The authorizer is then opened through its provider, as the broker opens it.
 */
@Timeout(60)
public abstract class AuthorizerTck {
    protected static final KafkaPrincipal ALICE = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice");
    protected static final KafkaPrincipal BOB = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "bob");
    protected static final KafkaPrincipal ADMIN = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "admin");

    @TempDir
    protected Path workDir;

    private final List<Authorizer> opened = new ArrayList<>();

    /** The provider of the authorizer under test: a new instance, as ServiceLoader would create it. */
    protected abstract AuthorizerProvider provider();

    /**
     * The settings ({@link AuthorizerContext#config()}) that make the authorizer enforce exactly
     * {@code policy}; files it needs may be written under {@code dir}.
     */
    protected abstract PluginConfig configFor(Policy policy, Path dir) throws IOException;

    /** Whether a rule matches principals, a literal name, every name ({@code *}) or a prefix. */
    public enum NameMatch { LITERAL, WILDCARD, PREFIXED }

    /**
     * One rule.
     *
     * @param allow     ALLOW if true, DENY if false
     * @param principal the principal it applies to, or null for every principal
     * @param operation the operation, possibly {@link Operation#ALL}
     * @param type      the resource type
     * @param name      the literal name or the prefix (ignored for {@link NameMatch#WILDCARD})
     * @param match     how {@code name} matches resource names
     */
    public record Rule(boolean allow, KafkaPrincipal principal, Operation operation, ResourceType type, String name,
                       NameMatch match) {
        public static Rule allow(KafkaPrincipal p, Operation op, ResourceType type, String name) {
            return new Rule(true, p, op, type, name, NameMatch.LITERAL);
        }

        public static Rule deny(KafkaPrincipal p, Operation op, ResourceType type, String name) {
            return new Rule(false, p, op, type, name, NameMatch.LITERAL);
        }

        /** The same rule for every resource of its type. */
        public Rule onEveryName() {
            return new Rule(allow, principal, operation, type, "*", NameMatch.WILDCARD);
        }

        /** The same rule for every resource whose name starts with {@link #name()}. */
        public Rule prefixed() {
            return new Rule(allow, principal, operation, type, name, NameMatch.PREFIXED);
        }

        /** The same rule for every principal. */
        public Rule forEveryone() {
            return new Rule(allow, null, operation, type, name, match);
        }
    }

    /**
     * What the authorizer must enforce.
     *
     * @param rules                      the rules
     * @param superUsers                 principals allowed everything ({@code super.users})
     * @param allowEveryoneIfNoAclFound  {@code allow.everyone.if.no.acl.found}
     */
    public record Policy(List<Rule> rules, Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound) {
        public static Policy of(Rule... rules) {
            return new Policy(List.of(rules), Set.of(), false);
        }

        public Policy withSuperUsers(KafkaPrincipal... users) {
            return new Policy(rules, Set.of(users), allowEveryoneIfNoAclFound);
        }

        public Policy allowingEveryoneIfNoAclFound() {
            return new Policy(rules, superUsers, true);
        }
    }

    /** Opens an authorizer enforcing {@code policy}, with an empty ACL store of its own; closed after the test. */
    protected Authorizer open(Policy policy) throws IOException {
        return open(policy, AclStore.inMemory());
    }

    /** Opens an authorizer enforcing {@code policy} over the ACL store {@code acls}; closed after the test. */
    protected Authorizer open(Policy policy, AclStore acls) throws IOException {
        Path dir = workDir.resolve("policy-" + opened.size());
        java.nio.file.Files.createDirectories(dir);
        Authorizer authorizer = provider().open(new AuthorizerContext(configFor(policy, dir), 1, acls));
        opened.add(authorizer);
        return authorizer;
    }

    @AfterEach
    final void closeAuthorizers() {
        opened.forEach(Authorizer::close);
        opened.clear();
    }

    protected static AuthorizableRequestContext request(KafkaPrincipal principal) {
        return new AuthorizableRequestContext(principal, InetAddress.getLoopbackAddress(), "PLAINTEXT", "tck");
    }

    protected static AuthorizationResult decide(Authorizer authorizer, KafkaPrincipal who, Operation op,
                                                ResourceType type, String name) {
        List<AuthorizationResult> results = authorizer.authorize(request(who), List.of(new Action(op, type, name)));
        assertThat(results).hasSize(1);
        return results.get(0);
    }

    @Test
    void providerIsNamedAndBuiltForThisSpi() {
        AuthorizerProvider provider = provider();
        assertThat(provider.name()).isNotBlank().isNotEqualTo("none");
        assertThat(SpiVersion.isCompatible(provider.spiVersion())).isTrue();
    }

    @Test
    void allowsExactlyWhatARuleAllows() throws IOException {
        Authorizer a = open(Policy.of(Rule.allow(ALICE, WRITE, TOPIC, "orders")));
        assertThat(decide(a, ALICE, WRITE, TOPIC, "orders")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, READ, TOPIC, "orders")).isEqualTo(DENIED);
        assertThat(decide(a, BOB, WRITE, TOPIC, "orders")).isEqualTo(DENIED);
        assertThat(decide(a, ALICE, WRITE, TOPIC, "orders2")).isEqualTo(DENIED);
        assertThat(decide(a, ALICE, WRITE, GROUP, "orders")).isEqualTo(DENIED);
    }

    @Test
    void deniesEverythingWhenNoRuleMatchesByDefault() throws IOException {
        Authorizer a = open(Policy.of());
        assertThat(decide(a, ALICE, DESCRIBE, TOPIC, "t")).isEqualTo(DENIED);
        assertThat(decide(a, KafkaPrincipal.ANONYMOUS, CREATE, CLUSTER, Action.CLUSTER_NAME)).isEqualTo(DENIED);
    }

    @Test
    void denyWinsOverAllow() throws IOException {
        Authorizer a = open(Policy.of(
                Rule.allow(ALICE, ALL, TOPIC, "t"),
                Rule.deny(ALICE, WRITE, TOPIC, "t"),
                Rule.allow(BOB, READ, TOPIC, "x").onEveryName(),
                Rule.deny(null, READ, TOPIC, "secret")));
        assertThat(decide(a, ALICE, WRITE, TOPIC, "t")).isEqualTo(DENIED);
        assertThat(decide(a, ALICE, READ, TOPIC, "t")).isEqualTo(ALLOWED);
        assertThat(decide(a, BOB, READ, TOPIC, "anything")).isEqualTo(ALLOWED);
        assertThat(decide(a, BOB, READ, TOPIC, "secret")).as("a deny for everyone beats an allow on *")
                .isEqualTo(DENIED);
    }

    @Test
    void aDenyOfAllDeniesEveryOperation() throws IOException {
        Authorizer a = open(Policy.of(Rule.allow(ALICE, READ, TOPIC, "t"), Rule.deny(ALICE, ALL, TOPIC, "t")));
        for (Operation op : List.of(READ, DESCRIBE, WRITE, ALTER_CONFIGS)) {
            assertThat(decide(a, ALICE, op, TOPIC, "t")).as(op.name()).isEqualTo(DENIED);
        }
    }

    @Test
    void superUsersAreAlwaysAllowed() throws IOException {
        Authorizer a = open(Policy.of(Rule.deny(null, ALL, TOPIC, "t").onEveryName()).withSuperUsers(ADMIN));
        assertThat(decide(a, ADMIN, WRITE, TOPIC, "t")).isEqualTo(ALLOWED);
        assertThat(decide(a, ADMIN, ALTER, CLUSTER, Action.CLUSTER_NAME)).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, WRITE, TOPIC, "t")).isEqualTo(DENIED);
    }

    @Test
    void impliedOperationsAreAllowedAsInKafka() throws IOException {
        Authorizer a = open(Policy.of(
                Rule.allow(ALICE, READ, TOPIC, "r"),
                Rule.allow(ALICE, WRITE, TOPIC, "w"),
                Rule.allow(ALICE, DELETE, TOPIC, "d"),
                Rule.allow(ALICE, ALTER, TOPIC, "a"),
                Rule.allow(ALICE, ALTER_CONFIGS, TOPIC, "c"),
                Rule.allow(ALICE, ALL, GROUP, "g")));
        for (String t : List.of("r", "w", "d", "a")) {
            assertThat(decide(a, ALICE, DESCRIBE, TOPIC, t)).as("DESCRIBE implied on " + t).isEqualTo(ALLOWED);
            assertThat(decide(a, ALICE, DESCRIBE_CONFIGS, TOPIC, t)).as("DESCRIBE_CONFIGS on " + t).isEqualTo(DENIED);
        }
        assertThat(decide(a, ALICE, WRITE, TOPIC, "r")).isEqualTo(DENIED);
        assertThat(decide(a, ALICE, DESCRIBE_CONFIGS, TOPIC, "c")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, DESCRIBE, TOPIC, "c")).isEqualTo(DENIED);
        assertThat(decide(a, ALICE, READ, GROUP, "g")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, DELETE, GROUP, "g")).isEqualTo(ALLOWED);
    }

    @Test
    void aDenyIsNotWidenedByImplication() throws IOException {
        Authorizer a = open(Policy.of(Rule.allow(ALICE, DESCRIBE, TOPIC, "t"), Rule.deny(ALICE, READ, TOPIC, "t")));
        assertThat(decide(a, ALICE, DESCRIBE, TOPIC, "t")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, READ, TOPIC, "t")).isEqualTo(DENIED);
    }

    @Test
    void allowEveryoneIfNoAclFoundAppliesOnlyToResourcesWithoutRules() throws IOException {
        Authorizer a = open(Policy.of(Rule.allow(ALICE, READ, TOPIC, "guarded")).allowingEveryoneIfNoAclFound());
        assertThat(decide(a, BOB, WRITE, TOPIC, "open")).isEqualTo(ALLOWED);
        assertThat(decide(a, BOB, CREATE, CLUSTER, Action.CLUSTER_NAME)).isEqualTo(ALLOWED);
        assertThat(decide(a, BOB, READ, TOPIC, "guarded")).isEqualTo(DENIED);
        assertThat(decide(a, ALICE, READ, TOPIC, "guarded")).isEqualTo(ALLOWED);
    }

    @Test
    void wildcardAndPrefixedNamesMatchAsInKafka() throws IOException {
        Authorizer a = open(Policy.of(
                Rule.allow(ALICE, READ, TOPIC, "logs-").prefixed(),
                Rule.allow(BOB, WRITE, TOPIC, "*").onEveryName(),
                Rule.allow(ALICE, READ, GROUP, "app").forEveryone()));
        assertThat(decide(a, ALICE, READ, TOPIC, "logs-eu")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, READ, TOPIC, "logs-")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, READ, TOPIC, "log")).isEqualTo(DENIED);
        assertThat(decide(a, BOB, WRITE, TOPIC, "whatever")).isEqualTo(ALLOWED);
        assertThat(decide(a, KafkaPrincipal.ANONYMOUS, READ, GROUP, "app")).isEqualTo(ALLOWED);
        assertThat(decide(a, KafkaPrincipal.ANONYMOUS, READ, GROUP, "app2")).isEqualTo(DENIED);
    }

    private static AuthorizationResult byType(Authorizer authorizer, KafkaPrincipal who, Operation op, ResourceType type) {
        return authorizer.authorizeByResourceType(request(who), op, type);
    }

    @Test
    void authorizeByResourceTypeAllowsWhenSomeResourceOfTheTypeIsAllowed() throws IOException {
        Authorizer a = open(Policy.of(Rule.allow(ALICE, WRITE, TOPIC, "orders"), Rule.allow(BOB, ALL, GROUP, "g"),
                Rule.allow(null, READ, TOPIC, "logs-").prefixed()));
        assertThat(byType(a, ALICE, WRITE, TOPIC)).isEqualTo(ALLOWED);
        assertThat(byType(a, BOB, WRITE, TOPIC)).isEqualTo(DENIED);
        assertThat(byType(a, ALICE, WRITE, GROUP)).isEqualTo(DENIED);
        assertThat(byType(a, BOB, READ, GROUP)).as("ALL counts for every operation").isEqualTo(ALLOWED);
        assertThat(byType(a, BOB, READ, TOPIC)).as("a prefixed rule for everyone").isEqualTo(ALLOWED);
        assertThat(byType(a, ALICE, DESCRIBE, TOPIC)).as("not widened by implication, as in Kafka").isEqualTo(DENIED);
    }

    @Test
    void authorizeByResourceTypeDeniesWhenADenyCoversEveryAllowedResource() throws IOException {
        Authorizer everyName = open(Policy.of(Rule.allow(ALICE, WRITE, TOPIC, "a"),
                Rule.allow(ALICE, WRITE, TOPIC, "*").onEveryName(), Rule.deny(ALICE, WRITE, TOPIC, "*").onEveryName()));
        assertThat(byType(everyName, ALICE, WRITE, TOPIC)).isEqualTo(DENIED);

        Authorizer literal = open(Policy.of(Rule.allow(ALICE, WRITE, TOPIC, "a"), Rule.deny(ALICE, WRITE, TOPIC, "a"),
                Rule.allow(BOB, WRITE, TOPIC, "a"), Rule.allow(BOB, WRITE, TOPIC, "b"), Rule.deny(BOB, ALL, TOPIC, "a")));
        assertThat(byType(literal, ALICE, WRITE, TOPIC)).isEqualTo(DENIED);
        assertThat(byType(literal, BOB, WRITE, TOPIC)).as("b is still allowed").isEqualTo(ALLOWED);

        Authorizer prefix = open(Policy.of(Rule.allow(ALICE, WRITE, TOPIC, "logs-eu"),
                Rule.allow(ALICE, WRITE, TOPIC, "logs-us-").prefixed(), Rule.deny(ALICE, WRITE, TOPIC, "logs-").prefixed(),
                Rule.allow(BOB, WRITE, TOPIC, "lo").prefixed(), Rule.deny(BOB, WRITE, TOPIC, "logs-").prefixed()));
        assertThat(byType(prefix, ALICE, WRITE, TOPIC)).isEqualTo(DENIED);
        assertThat(byType(prefix, BOB, WRITE, TOPIC)).as("the deny covers only part of the allowed prefix")
                .isEqualTo(ALLOWED);

        Authorizer others = open(Policy.of(Rule.allow(ALICE, WRITE, TOPIC, "a"),
                Rule.deny(BOB, WRITE, TOPIC, "*").onEveryName(), Rule.deny(ALICE, READ, TOPIC, "*").onEveryName()));
        assertThat(byType(others, ALICE, WRITE, TOPIC)).as("denies of another principal or operation")
                .isEqualTo(ALLOWED);
    }

    @Test
    void authorizeByResourceTypeAllowsSuperUsersAndEveryoneWithoutRulesIfConfigured() throws IOException {
        Authorizer a = open(Policy.of(Rule.deny(null, ALL, TOPIC, "*").onEveryName()).withSuperUsers(ADMIN));
        assertThat(byType(a, ADMIN, WRITE, TOPIC)).isEqualTo(ALLOWED);
        assertThat(byType(a, ALICE, WRITE, TOPIC)).isEqualTo(DENIED);

        Authorizer everyone = open(Policy.of(Rule.allow(ALICE, READ, GROUP, "g")).allowingEveryoneIfNoAclFound());
        assertThat(byType(everyone, BOB, WRITE, TOPIC)).isEqualTo(ALLOWED);
        assertThat(byType(everyone, BOB, IDEMPOTENT_WRITE, CLUSTER)).isEqualTo(ALLOWED);
        assertThat(byType(open(Policy.of()), BOB, WRITE, TOPIC)).isEqualTo(DENIED);
    }

    @Test
    void answersOneResultPerActionInOrder() throws IOException {
        Authorizer a = open(Policy.of(Rule.allow(ALICE, WRITE, TOPIC, "a"), Rule.allow(ALICE, CREATE, CLUSTER,
                Action.CLUSTER_NAME)));
        List<Action> actions = List.of(Action.onTopic(WRITE, "a"), Action.onTopic(WRITE, "b"),
                Action.onCluster(CREATE), Action.onTopic(WRITE, "a"), Action.onTopic(DESCRIBE, "a"));
        assertThat(a.authorize(request(ALICE), actions)).containsExactly(ALLOWED, DENIED, ALLOWED, ALLOWED, ALLOWED);
    }

    @Test
    void concurrentCallsGetConsistentAnswers() throws Exception {
        Authorizer a = open(Policy.of(Rule.allow(ALICE, READ, TOPIC, "t"), Rule.deny(BOB, ALL, TOPIC, "t"),
                Rule.allow(null, DESCRIBE, TOPIC, "t")));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> futures = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                futures.add(pool.submit(() -> {
                    for (int n = 0; n < 2_000; n++) {
                        List<AuthorizationResult> forAlice = a.authorize(request(ALICE),
                                List.of(Action.onTopic(READ, "t"), Action.onTopic(WRITE, "t")));
                        List<AuthorizationResult> forBob = a.authorize(request(BOB),
                                List.of(Action.onTopic(DESCRIBE, "t")));
                        if (!forAlice.equals(List.of(ALLOWED, DENIED)) || !forBob.equals(List.of(DENIED))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : futures) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // --- ACL management (authorizers whose managesAcls() is true) ---

    protected static AclBinding binding(ResourceType type, String name, PatternType patternType, KafkaPrincipal who,
                                        String host, Operation op, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, patternType), new AccessControlEntry(who, host, op,
                permission));
    }

    protected static AclBinding allowAcl(KafkaPrincipal who, Operation op, ResourceType type, String name,
                                         PatternType patternType) {
        return binding(type, name, patternType, who, "*", op, AclPermissionType.ALLOW);
    }

    protected static AclBinding denyAcl(KafkaPrincipal who, Operation op, ResourceType type, String name,
                                        PatternType patternType) {
        return binding(type, name, patternType, who, "*", op, AclPermissionType.DENY);
    }

    private Authorizer openManaging(AclStore store) throws IOException {
        Authorizer a = open(Policy.of(), store);
        Assumptions.assumeTrue(a.managesAcls(), "this authorizer does not manage ACLs");
        return a;
    }

    private static void create(Authorizer a, AclBinding... bindings) {
        List<AclCreateResult> results = a.createAcls(request(ADMIN), List.of(bindings));
        assertThat(results).hasSize(bindings.length).allMatch(AclCreateResult::succeeded);
    }

    private static AclBindingFilter onResource(ResourceType type, String name, PatternType patternType) {
        return new AclBindingFilter(new ResourcePatternFilter(type, name, patternType), AccessControlEntryFilter.ANY);
    }

    @Test
    void anAuthorizerThatDoesNotManageAclsRefusesToCreateThem() throws IOException {
        Authorizer a = open(Policy.of());
        Assumptions.assumeFalse(a.managesAcls(), "this authorizer manages ACLs");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.acls(AclBindingFilter.ANY))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void createdAclsAreEnforcedAtOnceAndDeletedOnesNoLonger() throws IOException {
        Authorizer a = openManaging(AclStore.inMemory());
        assertThat(decide(a, ALICE, WRITE, TOPIC, "orders")).isEqualTo(DENIED);
        AclBinding write = allowAcl(ALICE, WRITE, TOPIC, "orders", PatternType.LITERAL);
        create(a, write, write);
        assertThat(a.acls(AclBindingFilter.ANY)).containsExactly(write);
        assertThat(decide(a, ALICE, WRITE, TOPIC, "orders")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, DESCRIBE, TOPIC, "orders")).as("implied").isEqualTo(ALLOWED);

        List<AclDeleteResult> deleted = a.deleteAcls(request(ADMIN), List.of(AclBindingFilter.ANY));
        assertThat(deleted).hasSize(1);
        assertThat(deleted.get(0).errorCode()).isZero();
        assertThat(deleted.get(0).deleted()).containsExactly(write);
        assertThat(a.acls(AclBindingFilter.ANY)).isEmpty();
        assertThat(decide(a, ALICE, WRITE, TOPIC, "orders")).isEqualTo(DENIED);
    }

    @Test
    void createdAclsAreWrittenToTheStoreAndEnforcedByTheNextAuthorizer() throws IOException {
        AclStore store = AclStore.inMemory();
        Authorizer first = openManaging(store);
        AclBinding read = allowAcl(ALICE, READ, TOPIC, "logs-", PatternType.PREFIXED);
        AclBinding gone = allowAcl(BOB, READ, TOPIC, "x", PatternType.LITERAL);
        create(first, read, gone);
        first.deleteAcls(request(ADMIN), List.of(onResource(TOPIC, "x", PatternType.LITERAL)));
        assertThat(store.acls()).containsExactly(read);

        Authorizer second = open(Policy.of(), store);
        assertThat(second.acls(AclBindingFilter.ANY)).containsExactly(read);
        assertThat(decide(second, ALICE, READ, TOPIC, "logs-eu")).isEqualTo(ALLOWED);
        assertThat(decide(second, BOB, READ, TOPIC, "x")).isEqualTo(DENIED);
    }

    @Test
    void aDenyAclBeatsAnAllowAndAPrefixedAclCoversItsPrefix() throws IOException {
        Authorizer a = openManaging(AclStore.inMemory());
        create(a, allowAcl(ALICE, WRITE, TOPIC, "app-", PatternType.PREFIXED),
                allowAcl(ALICE, WRITE, TOPIC, "*", PatternType.LITERAL),
                denyAcl(ALICE, WRITE, TOPIC, "app-secret", PatternType.LITERAL));
        assertThat(decide(a, ALICE, WRITE, TOPIC, "app-1")).isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, WRITE, TOPIC, "other")).as("the literal * is every topic").isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, WRITE, TOPIC, "app-secret")).isEqualTo(DENIED);
        assertThat(decide(a, BOB, WRITE, TOPIC, "app-1")).isEqualTo(DENIED);
    }

    @Test
    void theWildcardPrincipalAndHostsMatchAsInKafka() throws IOException, UnknownHostException {
        Authorizer a = openManaging(AclStore.inMemory());
        create(a, allowAcl(AccessControlEntry.WILDCARD_PRINCIPAL, READ, GROUP, "g", PatternType.LITERAL),
                binding(TOPIC, "t", PatternType.LITERAL, ALICE, "10.1.2.3", READ, AclPermissionType.ALLOW),
                binding(TOPIC, "t", PatternType.LITERAL, BOB, "127.0.0.1", READ, AclPermissionType.ALLOW));
        assertThat(decide(a, new KafkaPrincipal("Group", "ops"), READ, GROUP, "g")).as("User:* is everyone")
                .isEqualTo(ALLOWED);
        assertThat(decide(a, ALICE, READ, TOPIC, "t")).as("from 127.0.0.1, not 10.1.2.3").isEqualTo(DENIED);
        assertThat(decide(a, BOB, READ, TOPIC, "t")).isEqualTo(ALLOWED);
        AuthorizableRequestContext fromTen = new AuthorizableRequestContext(ALICE, InetAddress.getByName("10.1.2.3"),
                "PLAINTEXT", "tck");
        assertThat(a.authorize(fromTen, List.of(Action.onTopic(READ, "t")))).containsExactly(ALLOWED);
    }

    @Test
    void filtersSelectAsKafkasFilters() throws IOException {
        Authorizer a = openManaging(AclStore.inMemory());
        AclBinding literal = allowAcl(ALICE, READ, TOPIC, "foo-bar", PatternType.LITERAL);
        AclBinding wildcard = allowAcl(BOB, WRITE, TOPIC, "*", PatternType.LITERAL);
        AclBinding prefix = denyAcl(ALICE, ALL, TOPIC, "foo-", PatternType.PREFIXED);
        AclBinding otherPrefix = allowAcl(ALICE, READ, TOPIC, "bar", PatternType.PREFIXED);
        AclBinding group = allowAcl(ALICE, READ, GROUP, "foo-bar", PatternType.LITERAL);
        create(a, literal, wildcard, prefix, otherPrefix, group);

        assertThat(a.acls(onResource(TOPIC, "foo-bar", PatternType.MATCH)))
                .containsExactlyInAnyOrder(literal, wildcard, prefix);
        assertThat(a.acls(onResource(TOPIC, "foo-bar", PatternType.ANY))).containsExactly(literal);
        assertThat(a.acls(onResource(null, "foo-bar", PatternType.ANY))).containsExactlyInAnyOrder(literal, group);
        assertThat(a.acls(onResource(TOPIC, null, PatternType.PREFIXED))).containsExactlyInAnyOrder(prefix, otherPrefix);
        assertThat(a.acls(onResource(TOPIC, "foo-", PatternType.LITERAL))).isEmpty();
        assertThat(a.acls(new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:alice", null, READ, AclPermissionType.ALLOW))))
                .containsExactlyInAnyOrder(literal, otherPrefix, group);
        assertThat(a.acls(new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter(null, "*", ALL, null)))).containsExactly(prefix);
    }

    @Test
    void everyDeleteFilterReportsWhatItMatchedBeforeTheCall() throws IOException {
        Authorizer a = openManaging(AclStore.inMemory());
        AclBinding t = allowAcl(ALICE, READ, TOPIC, "t", PatternType.LITERAL);
        AclBinding g = allowAcl(ALICE, READ, GROUP, "g", PatternType.LITERAL);
        create(a, t, g);
        List<AclDeleteResult> results = a.deleteAcls(request(ADMIN), List.of(onResource(TOPIC, null, PatternType.ANY),
                new AclBindingFilter(ResourcePatternFilter.ANY, new AccessControlEntryFilter("User:alice", null, null,
                        null)), onResource(CLUSTER, null, PatternType.ANY)));
        assertThat(results).hasSize(3);
        assertThat(results.get(0).deleted()).containsExactly(t);
        assertThat(results.get(1).deleted()).containsExactlyInAnyOrder(t, g);
        assertThat(results.get(2).deleted()).isEmpty();
        assertThat(a.acls(AclBindingFilter.ANY)).isEmpty();
    }

    @Test
    void authorizeByResourceTypeSeesCreatedAcls() throws IOException {
        Authorizer a = openManaging(AclStore.inMemory());
        assertThat(byType(a, ALICE, WRITE, TOPIC)).isEqualTo(DENIED);
        create(a, allowAcl(ALICE, WRITE, TOPIC, "t-", PatternType.PREFIXED));
        assertThat(byType(a, ALICE, WRITE, TOPIC)).isEqualTo(ALLOWED);
        create(a, denyAcl(ALICE, WRITE, TOPIC, "t", PatternType.PREFIXED));
        assertThat(byType(a, ALICE, WRITE, TOPIC)).isEqualTo(DENIED);
    }

    @Test
    void aclChangesDuringConcurrentDecisionsAreSeenWhole() throws Exception {
        Authorizer a = openManaging(AclStore.inMemory());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> reader = pool.submit(() -> {
                for (int n = 0; n < 5_000; n++) {
                    List<AuthorizationResult> r = a.authorize(request(ALICE),
                            List.of(Action.onTopic(READ, "a"), Action.onTopic(READ, "b")));
                    if (!r.get(0).equals(r.get(1))) {
                        return false;
                    }
                }
                return true;
            });
            for (int n = 0; n < 50; n++) {
                create(a, allowAcl(ALICE, READ, TOPIC, "a", PatternType.LITERAL),
                        allowAcl(ALICE, READ, TOPIC, "b", PatternType.LITERAL));
                a.deleteAcls(request(ADMIN), List.of(onResource(TOPIC, null, PatternType.ANY)));
            }
            assertThat(reader.get()).as("both ACLs come and go in one step").isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    /** An ACL store whose changes fail, as a store that cannot write its file fails. */
    private static AclStore failingStore(AclBinding... stored) {
        AclStore inner = AclStore.inMemory();
        inner.addAcls(List.of(stored));
        return new AclStore() {
            @Override
            public java.util.Collection<AclBinding> acls() {
                return inner.acls();
            }

            @Override
            public void addAcls(java.util.Collection<AclBinding> bindings) {
                throw new io.kaas.api.cluster.ClusterStateException("disk full", null);
            }

            @Override
            public void removeAcls(java.util.Collection<AclBinding> bindings) {
                throw new io.kaas.api.cluster.ClusterStateException("disk full", null);
            }
        };
    }

    @Test
    void aStoreThatCannotWriteFailsTheChangeAndNothingChanges() throws IOException {
        AclBinding read = allowAcl(ALICE, READ, TOPIC, "r", PatternType.LITERAL);
        Authorizer a = openManaging(failingStore(read));
        List<AclCreateResult> created = a.createAcls(request(ADMIN),
                List.of(allowAcl(ALICE, WRITE, TOPIC, "t", PatternType.LITERAL)));
        assertThat(created).hasSize(1);
        assertThat(created.get(0).succeeded()).isFalse();
        assertThat(created.get(0).errorCode()).isEqualTo(AclCreateResult.UNKNOWN_SERVER_ERROR);
        assertThat(created.get(0).errorMessage()).contains("disk full");
        assertThat(a.acls(AclBindingFilter.ANY)).containsExactly(read);
        assertThat(decide(a, ALICE, WRITE, TOPIC, "t")).isEqualTo(DENIED);

        List<AclDeleteResult> deleted = a.deleteAcls(request(ADMIN), List.of(AclBindingFilter.ANY));
        assertThat(deleted).hasSize(1);
        assertThat(deleted.get(0).errorCode()).isEqualTo(AclCreateResult.UNKNOWN_SERVER_ERROR);
        assertThat(deleted.get(0).deleted()).isEmpty();
        assertThat(decide(a, ALICE, READ, TOPIC, "r")).as("still enforced").isEqualTo(ALLOWED);
    }
}
