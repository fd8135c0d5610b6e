package io.kaas.broker.handler.acl;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.broker.auth.AclAdmin;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.DescribeAclsRequestData;
import io.kaas.wire.message.DescribeAclsResponseData;
import io.kaas.wire.message.DescribeAclsResponseData.AclDescription;
import io.kaas.wire.message.DescribeAclsResponseData.DescribeAclsResource;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeAcls v1-3 (key 29), after DESCRIBE on the cluster (the pipeline's requirement), as Kafka's
 * {@code AclApis.handleDescribeAcls}: the ACLs the filter matches, grouped by resource pattern. A filter with
 * an UNKNOWN (0) code is INVALID_REQUEST (Kafka refuses to parse it); another code Kafka does not define
 * matches nothing, as Kafka's UNKNOWN. SECURITY_DISABLED without an authorizer that manages ACLs.
 */
public final class DescribeAclsHandler implements ApiHandler<DescribeAclsRequestData, DescribeAclsResponseData> {
    static final String NO_AUTHORIZER = "No Authorizer is configured on the broker";
    private static final Comparator<ResourcePattern> PATTERN_ORDER = Comparator.comparing(ResourcePattern::type)
            .thenComparing(ResourcePattern::name).thenComparing(ResourcePattern::patternType);

    private final Optional<AclAdmin> admin;

    public DescribeAclsHandler(Optional<AclAdmin> admin) {
        this.admin = admin;
    }

    @Override
    public CompletableFuture<DescribeAclsResponseData> handle(RequestContext context, DescribeAclsRequestData request) {
        // on success Kafka leaves the message at the schema's default, the empty string (not null)
        DescribeAclsResponseData response = new DescribeAclsResponseData().setErrorCode(Errors.NONE).setErrorMessage("");
        Optional<AclAdmin> manager = admin;
        if (manager.isEmpty()) {
            return done(response.setErrorCode(Errors.SECURITY_DISABLED).setErrorMessage(NO_AUTHORIZER));
        }
        if (AclFilters.hasUnknownCode(request.resourceTypeFilter(), request.patternTypeFilter(), request.operation(),
                request.permissionType())) {
            return done(response.setErrorCode(Errors.INVALID_REQUEST)
                    .setErrorMessage("DescribeAclsRequest contains UNKNOWN elements"));
        }
        AclFilters.Read read = AclFilters.read(request.resourceTypeFilter(), request.resourceNameFilter(),
                request.patternTypeFilter(), request.principalFilter(), request.hostFilter(), request.operation(),
                request.permissionType());
        List<AclBinding> acls = read.filter() == null ? List.of() : manager.get().acls(read.filter());
        return done(response.setResources(resources(acls)));
    }

    /** Kafka's {@code DescribeAclsResponse.aclsResources}: one entry per resource pattern, with its ACLs. */
    static List<DescribeAclsResource> resources(List<AclBinding> acls) {
        Map<ResourcePattern, List<AclDescription>> byPattern = new TreeMap<>(PATTERN_ORDER);
        for (AclBinding b : acls) {
            byPattern.computeIfAbsent(b.pattern(), p -> new ArrayList<>()).add(new AclDescription()
                    .setPrincipal(b.entry().principal().toString()).setHost(b.entry().host())
                    .setOperation(b.entry().operation().code()).setPermissionType(b.entry().permission().code()));
        }
        List<DescribeAclsResource> out = new ArrayList<>(byPattern.size());
        byPattern.forEach((p, descriptions) -> out.add(new DescribeAclsResource().setResourceType(p.type().code())
                .setResourceName(p.name()).setPatternType(p.patternType().code()).setAcls(descriptions)));
        return out;
    }

    private static CompletableFuture<DescribeAclsResponseData> done(DescribeAclsResponseData response) {
        return CompletableFuture.completedFuture(response);
    }
}
