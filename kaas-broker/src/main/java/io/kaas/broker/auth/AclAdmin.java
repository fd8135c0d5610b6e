package io.kaas.broker.auth;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclBindingFilter;
import io.kaas.api.auth.AclCreateResult;
import io.kaas.api.auth.AclDeleteResult;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.Authorizer;
import java.util.List;

/**
 * The ACL management of the broker's authorizer, and nothing else of it: what the ACL handlers may call
 * (they never decide access themselves; that goes through their contract). Answers checked for size.
 */
public final class AclAdmin {
    private final Authorizer authorizer;
    private final String name;

    AclAdmin(Authorizer authorizer, String name) {
        this.authorizer = authorizer;
        this.name = name;
    }

    /** {@link Authorizer#createAcls}: one result per binding. */
    public List<AclCreateResult> createAcls(AuthorizableRequestContext who, List<AclBinding> bindings) {
        List<AclCreateResult> results = authorizer.createAcls(who, bindings);
        if (results == null || results.size() != bindings.size()) {
            throw new IllegalStateException("Authorizer '" + name + "' answered " + (results == null ? "null"
                    : results.size() + " results") + " for " + bindings.size() + " ACLs to create");
        }
        return results;
    }

    /** {@link Authorizer#deleteAcls}: one result per filter. */
    public List<AclDeleteResult> deleteAcls(AuthorizableRequestContext who, List<AclBindingFilter> filters) {
        List<AclDeleteResult> results = authorizer.deleteAcls(who, filters);
        if (results == null || results.size() != filters.size()) {
            throw new IllegalStateException("Authorizer '" + name + "' answered " + (results == null ? "null"
                    : results.size() + " results") + " for " + filters.size() + " ACL filters");
        }
        return results;
    }

    /** {@link Authorizer#acls}. */
    public List<AclBinding> acls(AclBindingFilter filter) {
        List<AclBinding> acls = authorizer.acls(filter);
        if (acls == null) {
            throw new IllegalStateException("Authorizer '" + name + "' answered null for an ACL filter");
        }
        return acls;
    }
}
