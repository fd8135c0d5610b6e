package io.kaas.broker.handler.acl;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclCreateResult;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
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
        List<AclBinding> valid = new ArrayList<>();
        List<Object> outcomes = new ArrayList<>(creations.size()); // an AclBinding to create or an error message
        for (AclCreation c : creations) {
            Object outcome;
            try {
                outcome = binding(c);
                valid.add((AclBinding) outcome);
            } catch (InvalidBinding e) {
                outcome = e.getMessage();
            }
            outcomes.add(outcome);
        }
        List<AclCreateResult> created = valid.isEmpty() ? List.of() : manager.get().createAcls(context.who(), valid);
        int next = 0;
        List<String> invalid = new ArrayList<>();
        for (Object outcome : outcomes) {
            if (outcome instanceof String message) {
                results.add(result(Errors.INVALID_REQUEST, message));
                invalid.add(message);
            } else {
                AclCreateResult r = created.get(next++);
                results.add(r.succeeded() ? new AclCreationResult().setErrorCode(Errors.NONE).setErrorMessage(null)
                        : result(r.errorCode(), r.errorMessage()));
            }
        }
        LOG.atInfo().addKeyValue("principal", context.principal()).addKeyValue("client", context.clientAddress())
                .addKeyValue("created", valid.size()).addKeyValue("invalid", invalid.size())
                .log("CreateAcls from {} at {}: {} ACLs stored {}, {} refused {}", context.principal(),
                        context.clientAddress(), valid.size(), valid, invalid.size(), invalid);
        return CompletableFuture.completedFuture(new CreateAclsResponseData().setResults(results));
    }

    private static AclCreationResult result(short error, String message) {
        return new AclCreationResult().setErrorCode(error).setErrorMessage(message);
    }

    /** The binding a creation asks for, checked in the order Kafka checks it. */
    static AclBinding binding(AclCreation c) throws InvalidBinding {
        String name = c.resourceName();
        if (c.resourceType() == ResourceType.CLUSTER.code() && !Action.CLUSTER_NAME.equals(name)) {
            throw new InvalidBinding("The only valid name for the CLUSTER resource is " + Action.CLUSTER_NAME);
        }
        if (name == null || name.isEmpty()) {
            throw new InvalidBinding("Invalid empty resource name");
        }
        ResourceType type;
        PatternType patternType;
        try {
            type = AclCodes.resourceType(c.resourceType());
        } catch (AclCodes.Unknown e) {
            type = null;
        }
        if (type == null) {
            throw new InvalidBinding("Invalid resourceType " + AclCodes.resourceTypeName(c.resourceType()));
        }
        try {
            patternType = AclCodes.patternType(c.resourcePatternType());
        } catch (AclCodes.Unknown e) {
            patternType = null;
        }
        if (patternType == null || !patternType.isSpecific()) {
            throw new InvalidBinding("Invalid patternType " + AclCodes.patternTypeName(c.resourcePatternType()));
        }
        io.kaas.api.auth.Operation op;
        try {
            op = AclCodes.operation(c.operation());
        } catch (AclCodes.Unknown e) {
            op = null;
        }
        if (op == null) {
            throw new InvalidBinding("Invalid operation " + AclCodes.operationName(c.operation()));
        }
        io.kaas.api.auth.AclPermissionType permission;
        try {
            permission = AclCodes.permission(c.permissionType());
        } catch (AclCodes.Unknown e) {
            permission = null;
        }
        if (permission == null) {
            throw new InvalidBinding("Invalid permissionType " + AclCodes.permissionName(c.permissionType()));
        }
        KafkaPrincipal principal = principal(c.principal());
        // As Kafka, any host is stored; only * and the client's IP address ever match.
        String host = c.host() == null ? "" : c.host();
        return new AclBinding(new ResourcePattern(type, name, patternType),
                new AccessControlEntry(principal, host, op, permission));
    }

    private static KafkaPrincipal principal(String text) throws InvalidBinding {
        String p = text == null ? "" : text;
        int colon = p.indexOf(':');
        if (colon == -1) {
            throw new InvalidBinding("Could not parse principal from `" + p + "` "
                    + "(no colon is present separating the principal type from the principal name)");
        }
        if (colon == 0 || colon == p.length() - 1) {
            throw new InvalidBinding("Could not parse principal from `" + p + "` (the principal type and name must "
                    + "not be empty)");
        }
        return new KafkaPrincipal(p.substring(0, colon), p.substring(colon + 1));
    }

    /** A creation that cannot be stored; the message is the one Kafka answers. */
    static final class InvalidBinding extends Exception {
        InvalidBinding(String message) {
            super(message, null, false, false);
        }
    }
}
