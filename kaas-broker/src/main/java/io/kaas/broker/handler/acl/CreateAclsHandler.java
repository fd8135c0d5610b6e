package io.kaas.broker.handler.acl;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclCreateResult;
import io.kaas.broker.auth.AclAdmin;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.CreateAclsRequestData;
import io.kaas.wire.message.CreateAclsRequestData.AclCreation;
import io.kaas.wire.message.CreateAclsResponseData;
import io.kaas.wire.message.CreateAclsResponseData.AclCreationResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CreateAcls v1-3 (key 30), after ALTER on the cluster (the pipeline's requirement), as Kafka's
 * {@code AclApis.handleCreateAcls} and its controller: each creation is checked (Kafka's messages: the CLUSTER
 * resource is named {@code kafka-cluster}, no empty name, no UNKNOWN or ANY type, LITERAL or PREFIXED only, no
 * UNKNOWN or ANY operation or permission, a {@code <type>:<name>} principal) and answered INVALID_REQUEST
 * alone; the valid ones go to the authorizer in one call. SECURITY_DISABLED on every creation without an
 * authorizer that manages ACLs.
 */
public final class CreateAclsHandler implements ApiHandler<CreateAclsRequestData, CreateAclsResponseData> {
    private static final Logger LOG = LoggerFactory.getLogger(CreateAclsHandler.class);
    static final String NO_AUTHORIZER = "No Authorizer is configured.";

    private final Optional<AclAdmin> admin;

    public CreateAclsHandler(Optional<AclAdmin> admin) {
        this.admin = admin;
    }

    @Override
    public CompletableFuture<CreateAclsResponseData> handle(RequestContext context, CreateAclsRequestData request) {
        List<AclCreation> creations = request.creations();
        Optional<AclAdmin> manager = admin;
        List<AclCreationResult> results = new ArrayList<>(creations.size());
        if (manager.isEmpty()) {
            creations.forEach(c -> results.add(result(Errors.SECURITY_DISABLED, NO_AUTHORIZER)));
            return CompletableFuture.completedFuture(new CreateAclsResponseData().setResults(results));
        }
        List<AclCreationCheck> checks = creations.stream().map(AclCreationCheck::of).toList();
        List<AclBinding> valid = checks.stream().map(AclCreationCheck::binding).filter(b -> b != null).toList();
        List<AclCreateResult> created = valid.isEmpty() ? List.of() : manager.get().createAcls(context.who(), valid);
        int next = 0;
        List<AclBinding> stored = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (AclCreationCheck check : checks) {
            if (check.binding() == null) {
                results.add(result(Errors.INVALID_REQUEST, check.refusal()));
                refused.add(check.refusal());
                continue;
            }
            AclCreateResult r = created.get(next++);
            if (r.succeeded()) {
                // Kafka leaves a stored ACL's message at the schema's default, the empty string (not null)
                results.add(result(Errors.NONE, ""));
                stored.add(check.binding());
            } else {
                results.add(result(r.errorCode(), r.errorMessage()));
                refused.add(r.errorMessage());
            }
        }
        LOG.atInfo().addKeyValue("principal", context.principal()).addKeyValue("client", context.clientAddress())
                .addKeyValue("stored", stored.size()).addKeyValue("refused", refused.size())
                .log("CreateAcls from {} at {}: {} ACLs stored {}, {} refused {}", context.principal(),
                        context.clientAddress(), stored.size(), stored, refused.size(), refused);
        return CompletableFuture.completedFuture(new CreateAclsResponseData().setResults(results));
    }

    private static AclCreationResult result(short error, String message) {
        return new AclCreationResult().setErrorCode(error).setErrorMessage(message);
    }
}
