package io.kaas.broker.handler.acl;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclBindingFilter;
import io.kaas.api.auth.AclDeleteResult;
import io.kaas.broker.auth.AclAdmin;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.DeleteAclsRequestData;
import io.kaas.wire.message.DeleteAclsRequestData.DeleteAclsFilter;
import io.kaas.wire.message.DeleteAclsResponseData;
import io.kaas.wire.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import io.kaas.wire.message.DeleteAclsResponseData.DeleteAclsMatchingAcl;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteAcls v1-3 (key 31), after ALTER on the cluster (the pipeline's requirement), as Kafka's
 * {@code AclApis.handleDeleteAcls} and its controller: one result per filter with the ACLs it removed; a
 * filter with an UNKNOWN pattern or entry part is INVALID_REQUEST ("Unknown patternFilter." / "Unknown
 * entryFilter."), the others are applied in one authorizer call. SECURITY_DISABLED on every filter without an
 * authorizer that manages ACLs.
 */
public final class DeleteAclsHandler implements ApiHandler<DeleteAclsRequestData, DeleteAclsResponseData> {
    private static final Logger LOG = LoggerFactory.getLogger(DeleteAclsHandler.class);

    private final Optional<AclAdmin> admin;

    public DeleteAclsHandler(Optional<AclAdmin> admin) {
        this.admin = admin;
    }

    @Override
    public CompletableFuture<DeleteAclsResponseData> handle(RequestContext context, DeleteAclsRequestData request) {
        List<DeleteAclsFilter> wire = request.filters();
        List<DeleteAclsFilterResult> results = new ArrayList<>(wire.size());
        Optional<AclAdmin> manager = admin;
        if (manager.isEmpty()) {
            wire.forEach(f -> results.add(failed(Errors.SECURITY_DISABLED, CreateAclsHandler.NO_AUTHORIZER)));
            return CompletableFuture.completedFuture(new DeleteAclsResponseData().setFilterResults(results));
        }
        List<AclFilters.Read> reads = new ArrayList<>(wire.size());
        List<AclBindingFilter> valid = new ArrayList<>();
        for (DeleteAclsFilter f : wire) {
            AclFilters.Read read = AclFilters.read(f.resourceTypeFilter(), f.resourceNameFilter(), f.patternTypeFilter(),
                    f.principalFilter(), f.hostFilter(), f.operation(), f.permissionType());
            reads.add(read);
            if (read.filter() != null) {
                valid.add(read.filter());
            }
        }
        List<AclDeleteResult> deleted = valid.isEmpty() ? List.of() : manager.get().deleteAcls(context.who(), valid);
        int next = 0;
        List<AclBinding> removed = new ArrayList<>();
        for (AclFilters.Read read : reads) {
            if (read.filter() == null) {
                results.add(failed(Errors.INVALID_REQUEST, read.unknown() == AclFilters.Unknown.PATTERN
                        ? "Unknown patternFilter." : "Unknown entryFilter."));
                continue;
            }
            AclDeleteResult r = deleted.get(next++);
            if (r.errorCode() != Errors.NONE) {
                results.add(failed(r.errorCode(), r.errorMessage()));
                continue;
            }
            List<DeleteAclsMatchingAcl> matching = new ArrayList<>(r.deleted().size());
            for (AclBinding b : r.deleted()) {
                matching.add(matching(b));
                removed.add(b);
            }
            results.add(new DeleteAclsFilterResult().setErrorCode(Errors.NONE).setErrorMessage(null)
                    .setMatchingAcls(matching));
        }
        LOG.atInfo().addKeyValue("principal", context.principal()).addKeyValue("client", context.clientAddress())
                .addKeyValue("filters", wire.size()).addKeyValue("deleted", removed.size())
                .log("DeleteAcls from {} at {}: {} filters removed {}", context.principal(), context.clientAddress(),
                        wire.size(), removed.stream().distinct().toList());
        return CompletableFuture.completedFuture(new DeleteAclsResponseData().setFilterResults(results));
    }

    private static DeleteAclsMatchingAcl matching(AclBinding b) {
        return new DeleteAclsMatchingAcl().setErrorCode(Errors.NONE).setErrorMessage(null)
                .setResourceType(b.pattern().type().code()).setResourceName(b.pattern().name())
                .setPatternType(b.pattern().patternType().code()).setPrincipal(b.entry().principal().toString())
                .setHost(b.entry().host()).setOperation(b.entry().operation().code())
                .setPermissionType(b.entry().permission().code());
    }

    private static DeleteAclsFilterResult failed(short error, String message) {
        return new DeleteAclsFilterResult().setErrorCode(error).setErrorMessage(message);
    }
}
