package io.kaas.broker.handler.acl;

import io.kaas.broker.auth.AclAdmin;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.ServedApi;
import java.util.List;
import java.util.Optional;

/**
 * The ACL APIs, each with its contract; they manage the ACLs of the broker's authorizer ({@code admin}, empty
 * when there is none that manages ACLs: every ACL API then answers SECURITY_DISABLED).
 */
public final class AclHandlers {
    private AclHandlers() {
    }

    public static List<ServedApi<?, ?>> create(Optional<AclAdmin> admin) {
        return List.of(
                ServedApi.of(ApiContracts.DESCRIBE_ACLS, new DescribeAclsHandler(admin)),
                ServedApi.of(ApiContracts.CREATE_ACLS, new CreateAclsHandler(admin)),
                ServedApi.of(ApiContracts.DELETE_ACLS, new DeleteAclsHandler(admin)));
    }
}
