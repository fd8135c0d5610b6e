package io.kaas.authorizer.acl;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclBindingFilter;
import io.kaas.api.auth.AclCreateResult;
import io.kaas.api.auth.AclDeleteResult;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.AclStore;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides actions against the ACLs with Kafka's semantics (see {@link AclIndex}) and manages them: the
 * bindings live in memory as an immutable {@link AclIndex} replaced on every change (copy-on-write), loaded
 * from the {@link AclStore} at open and written through it before a change is enforced. {@link #authorize}
 * reads one snapshot per call, without locking or I/O; changes are serialized.
 */
final class AclAuthorizer implements Authorizer {
    private final AclStore store;
    private final Set<KafkaPrincipal> superUsers;
    private final boolean allowEveryoneIfNoAclFound;
    private final String origin;
    private volatile AclIndex index;

    AclAuthorizer(AclStore store, Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound, String origin) {
        this.store = store;
        this.superUsers = Set.copyOf(superUsers);
        this.allowEveryoneIfNoAclFound = allowEveryoneIfNoAclFound;
        this.origin = origin;
        this.index = new AclIndex(store.acls());
    }

    @Override
    public List<AuthorizationResult> authorize(AuthorizableRequestContext request, List<Action> actions) {
        AclIndex acls = index;
        List<AuthorizationResult> results = new ArrayList<>(actions.size());
        boolean superUser = superUsers.contains(request.principal());
        for (Action action : actions) {
            results.add(superUser || acls.allows(request.principal(), request.clientAddress(), action,
                    allowEveryoneIfNoAclFound) ? AuthorizationResult.ALLOWED : AuthorizationResult.DENIED);
        }
        return results;
    }

    /**
     * Kafka's {@code Authorizer.authorizeByResourceType} over the ACLs: allowed for a principal allowed on the
     * probe resource (super users; everyone, with {@code allow.everyone.if.no.acl.found} and no ACL naming it),
     * or when an ALLOW of {@code operation} (or ALL) on the type applies to the principal and host and no DENY
     * that applies covers it: a DENY on the literal {@code *}, on the same literal name, or on a prefix of the
     * allowed name or prefix.
     */
    @Override
    public AuthorizationResult authorizeByResourceType(AuthorizableRequestContext request, Operation operation,
                                                       ResourceType type) {
        if (operation == Operation.ALL) {
            throw new IllegalArgumentException("ALL is not an operation a request performs; ask for each one");
        }
        if (authorize(request, List.of(new Action(operation, type, PROBE_NAME))).get(0) == AuthorizationResult.ALLOWED) {
            return AuthorizationResult.ALLOWED;
        }
        String host = request.clientAddress().getHostAddress();
        Set<String> allowedLiterals = new HashSet<>();
        Set<String> allowedPrefixes = new HashSet<>();
        Set<String> deniedLiterals = new HashSet<>();
        Set<String> deniedPrefixes = new HashSet<>();
        boolean wildcardAllow = false;
        for (AclBinding b : index.ofType(type)) {
            if (!AclIndex.appliesTo(b.entry(), request.principal(), host)
                    || (b.entry().operation() != operation && b.entry().operation() != Operation.ALL)) {
                continue;
            }
            boolean literal = b.pattern().patternType() == PatternType.LITERAL;
            String name = b.pattern().name();
            if (b.entry().permission() == AclPermissionType.DENY) {
                if (literal && name.equals(ResourcePattern.WILDCARD)) {
                    return AuthorizationResult.DENIED;
                }
                (literal ? deniedLiterals : deniedPrefixes).add(name);
            } else if (literal && name.equals(ResourcePattern.WILDCARD)) {
                wildcardAllow = true;
            } else {
                (literal ? allowedLiterals : allowedPrefixes).add(name);
            }
        }
        if (wildcardAllow) {
            return AuthorizationResult.ALLOWED;
        }
        for (String name : allowedLiterals) {
            if (!deniedLiterals.contains(name) && !coveredByPrefix(name, deniedPrefixes)) {
                return AuthorizationResult.ALLOWED;
            }
        }
        for (String prefix : allowedPrefixes) {
            if (!coveredByPrefix(prefix, deniedPrefixes)) {
                return AuthorizationResult.ALLOWED;
            }
        }
        return AuthorizationResult.DENIED;
    }

    private static boolean coveredByPrefix(String name, Set<String> prefixes) {
        for (int end = 1; end <= name.length(); end++) {
            if (prefixes.contains(name.substring(0, end))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean managesAcls() {
        return true;
    }

    /** Stores every binding in one store call (all or nothing), then enforces them. */
    @Override
    public synchronized List<AclCreateResult> createAcls(AuthorizableRequestContext request, List<AclBinding> bindings) {
        Set<AclBinding> next = new LinkedHashSet<>(index.all());
        if (next.addAll(bindings)) {
            try {
                store.addAcls(bindings);
            } catch (RuntimeException e) {
                return Collections.nCopies(bindings.size(), AclCreateResult.failed(AclCreateResult.UNKNOWN_SERVER_ERROR,
                        "Could not store the ACLs: " + e.getMessage()));
            }
            index = new AclIndex(next);
        }
        return Collections.nCopies(bindings.size(), AclCreateResult.SUCCESS);
    }

    /** Removes what every filter matches in one store call (all or nothing), then stops enforcing it. */
    @Override
    public synchronized List<AclDeleteResult> deleteAcls(AuthorizableRequestContext request,
                                                         List<AclBindingFilter> filters) {
        AclIndex before = index;
        List<List<AclBinding>> matched = new ArrayList<>(filters.size());
        Set<AclBinding> removed = new LinkedHashSet<>();
        for (AclBindingFilter filter : filters) {
            List<AclBinding> m = before.all().stream().filter(filter::matches).toList();
            matched.add(m);
            removed.addAll(m);
        }
        if (!removed.isEmpty()) {
            try {
                store.removeAcls(removed);
            } catch (RuntimeException e) {
                return Collections.nCopies(filters.size(), AclDeleteResult.failed(AclCreateResult.UNKNOWN_SERVER_ERROR,
                        "Could not remove the ACLs from the store: " + e.getMessage()));
            }
            Set<AclBinding> next = new LinkedHashSet<>(before.all());
            next.removeAll(removed);
            index = new AclIndex(next);
        }
        return matched.stream().map(AclDeleteResult::of).toList();
    }

    @Override
    public List<AclBinding> acls(AclBindingFilter filter) {
        return index.all().stream().filter(filter::matches).toList();
    }

    @Override
    public void close() {
        // nothing held: the store belongs to the host
    }

    @Override
    public String toString() {
        return "AclAuthorizer[" + index.size() + " ACLs" + origin + ", " + superUsers.size()
                + " super users, allowEveryoneIfNoAclFound=" + allowEveryoneIfNoAclFound + "]";
    }
}
