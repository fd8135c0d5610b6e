package io.kaas.api.auth;

import java.util.List;

/**
 * Decides whether a principal may perform actions, with Kafka's semantics: a DENY rule that matches
 * wins over any ALLOW rule; super users are always allowed; an action on a resource no rule matches
 * is denied unless the authorizer is configured otherwise ({@code allow.everyone.if.no.acl.found});
 * and an allowed operation implies others on the same resource, as in Kafka:
 * {@link Operation#DESCRIBE} is implied by READ, WRITE, DELETE and ALTER,
 * {@link Operation#DESCRIBE_CONFIGS} by ALTER_CONFIGS, and ALL implies every operation.
 *
 * <p><b>Threading.</b> {@link #authorize} is called concurrently from many request-handler threads
 * (never a Netty event loop), on the path of every Produce and Fetch: it must be thread-safe and
 * must not block for long (no network or disk I/O per call; load rules in {@code open} or refresh
 * them in the background). {@link #close()} is called once, after the last {@code authorize} call,
 * and only if {@link AuthorizerProvider#open} returned this instance. The ACL management methods
 * ({@link #createAcls}, {@link #deleteAcls}, {@link #acls}) run on request-handler threads too and may block
 * on the {@link AclStore}; a change must be seen whole by every later {@code authorize} call.
 *
 * <p><b>Errors.</b> An exception thrown by {@code authorize} fails that request as a whole with
 * UNKNOWN_SERVER_ERROR; it never allows anything. A DENIED result is answered with Kafka's error for
 * the resource type (see {@link ResourceType}).
 */
public interface Authorizer extends AutoCloseable {

    /** The resource name {@link #authorizeByResourceType}'s default decides on, as Kafka's default does. */
    String PROBE_NAME = "hardcode";

    /**
     * Decides each action for the principal of {@code request}.
     *
     * @param request who asks, from where, on which listener
     * @param actions the actions to decide; not empty, possibly with duplicates
     * @return one result per action, in the order of {@code actions}
     */
    List<AuthorizationResult> authorize(AuthorizableRequestContext request, List<Action> actions);

    /**
     * Whether the principal of {@code request} may perform {@code operation} on at least one resource of
     * {@code type}, as Kafka's {@code Authorizer.authorizeByResourceType} answers it (InitProducerId of
     * an idempotent producer without IDEMPOTENT_WRITE on the cluster asks it for WRITE on topics):
     * allowed iff some ALLOW rule of {@code operation} (or ALL) on a resource of that type matches the
     * principal and no DENY rule that matches the principal covers every resource that ALLOW covers
     * (in particular, a DENY on every resource of the type denies). Super users are allowed. Operations
     * are not widened by implication here, as in Kafka.
     *
     * <p>This default can only ask {@link #authorize}: it answers as Kafka's default answers its first
     * step, by deciding {@code operation} on a resource of the type named {@value #PROBE_NAME} (which
     * allows super users and, with {@code allow.everyone.if.no.acl.found}, everyone when no rule names
     * it), and denies otherwise. An authorizer that can enumerate its rules should override it.
     *
     * @param request   who asks, from where, on which listener
     * @param operation the operation; never {@link Operation#ALL}
     * @param type      the kind of resource
     * @return ALLOWED or DENIED
     */
    default AuthorizationResult authorizeByResourceType(AuthorizableRequestContext request, Operation operation,
                                                        ResourceType type) {
        List<AuthorizationResult> results = authorize(request, List.of(new Action(operation, type, PROBE_NAME)));
        return results.size() == 1 && results.get(0) == AuthorizationResult.ALLOWED
                ? AuthorizationResult.ALLOWED : AuthorizationResult.DENIED;
    }

    /**
     * Whether this authorizer manages ACLs (CreateAcls, DescribeAcls, DeleteAcls). False by default: the
     * broker then answers those APIs SECURITY_DISABLED, as Kafka does without an authorizer.
     */
    default boolean managesAcls() {
        return false;
    }

    /**
     * Creates ACLs, as Kafka's {@code Authorizer.createAcls}: each valid binding is stored (durably, through
     * {@link AuthorizerContext#acls()}) and enforced from then on; a binding present already succeeds again.
     * The caller has checked that the request may ALTER the cluster.
     *
     * @param request  who asks
     * @param bindings the ACLs to create
     * @return one result per binding, in order
     * @throws UnsupportedOperationException unless {@link #managesAcls()}
     */
    default List<AclCreateResult> createAcls(AuthorizableRequestContext request, List<AclBinding> bindings) {
        throw new UnsupportedOperationException(getClass().getName() + " does not manage ACLs");
    }

    /**
     * Deletes the ACLs each filter matches, as Kafka's {@code Authorizer.deleteAcls}; filters are applied
     * to the ACLs as they were before the call, so an ACL matched by two filters is reported by both.
     *
     * @param request who asks
     * @param filters the filters
     * @return one result per filter, in order, with the ACLs it removed
     * @throws UnsupportedOperationException unless {@link #managesAcls()}
     */
    default List<AclDeleteResult> deleteAcls(AuthorizableRequestContext request, List<AclBindingFilter> filters) {
        throw new UnsupportedOperationException(getClass().getName() + " does not manage ACLs");
    }

    /**
     * The ACLs {@code filter} matches, as Kafka's {@code Authorizer.acls}. A snapshot.
     *
     * @throws UnsupportedOperationException unless {@link #managesAcls()}
     */
    default List<AclBinding> acls(AclBindingFilter filter) {
        throw new UnsupportedOperationException(getClass().getName() + " does not manage ACLs");
    }

    /** Releases whatever the authorizer holds (watchers, threads). Never throws. */
    @Override
    void close();
}
