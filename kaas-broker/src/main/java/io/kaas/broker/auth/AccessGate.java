package io.kaas.broker.auth;

import io.kaas.api.auth.AclStore;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.broker.config.BrokerConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's authorizer, opened once. Requests never ask it directly: the request pipeline asks the
 * checks an API's contract requires of the whole request, and gives the handler a {@link RequestAccess}
 * that answers only the per-resource questions the contract declares. With no authorizer
 * ({@code authorizer=none}, Kafka's default) every question is answered yes without calling anything;
 * otherwise questions become {@link Authorizer#authorize} calls (batched where a request names many
 * resources). The principal is the connection's, from its {@link ClientSession}.
 *
 * <p>A denial is answered with {@link ResourceType#deniedErrorCode()} (TOPIC_AUTHORIZATION_FAILED 29,
 * GROUP_AUTHORIZATION_FAILED 30, CLUSTER_AUTHORIZATION_FAILED 31…). An authorizer that throws, or answers
 * the wrong number of results, fails the request (never allows it). Thread-safe.
 */
public final class AccessGate implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AccessGate.class);

    /** No authorizer: everything is allowed. */
    public static final AccessGate ALLOW_ALL = new AccessGate(null, "none");

    /** The broker keys Kafka hands its authorizers, passed on under their own names. */
    private static final List<String> KAFKA_AUTHORIZER_KEYS =
            List.of(AuthorizerContext.SUPER_USERS, AuthorizerContext.ALLOW_EVERYONE_IF_NO_ACL_FOUND);

    private final Authorizer authorizer;
    private final String name;

    private AccessGate(Authorizer authorizer, String name) {
        this.authorizer = authorizer;
        this.name = name;
    }

    /**
     * Opens the selected authorizer with its settings ({@code authorizer.<name>.*}, plus {@code super.users}
     * and {@code allow.everyone.if.no.acl.found}) and the ACL section of {@code store}, or {@link #ALLOW_ALL}
     * when none is selected.
     */
    public static AccessGate open(Optional<AuthorizerProvider> provider, BrokerConfig config, ClusterStateStore store)
            throws IOException {
        return open(provider, config, new ClusterAclStore(store));
    }

    /** As {@link #open(Optional, BrokerConfig, ClusterStateStore)}, with the ACLs kept by {@code acls}. */
    public static AccessGate open(Optional<AuthorizerProvider> provider, BrokerConfig config, AclStore acls)
            throws IOException {
        if (provider.isEmpty()) {
            return ALLOW_ALL;
        }
        String name = provider.get().name();
        Map<String, String> settings = new TreeMap<>();
        for (String key : KAFKA_AUTHORIZER_KEYS) {
            Optional.ofNullable(config.originalValue(key)).ifPresent(v -> settings.put(key, v));
        }
        settings.putAll(config.backendConfig("authorizer." + name + ".").asMap());
        Authorizer authorizer = provider.get().open(new AuthorizerContext(PluginConfig.of(settings), config.nodeId(),
                acls));
        LOG.atInfo().addKeyValue("authorizer", name).addKeyValue("detail", authorizer)
                .log("Authorizer '{}' enforcing access: {}", name, authorizer);
        return new AccessGate(authorizer, name);
    }

    /** The configured authorizer's name, {@code none} if there is none. */
    public String name() {
        return name;
    }

    /** False when there is no authorizer and every check passes. */
    public boolean enabled() {
        return authorizer != null;
    }

    /**
     * The questions one request may ask: those of {@code declared}, the contract of the API
     * {@code api} (named in the error a handler gets for asking anything else).
     */
    public RequestAccess forRequest(String api, Collection<Check> declared, AuthorizableRequestContext who) {
        return new RequestAccess(this, api, declared, who);
    }

    /** The authorizer's answer to each of {@code actions}, in order; all allowed when there is no authorizer. */
    List<AuthorizationResult> authorize(AuthorizableRequestContext who, List<Action> actions) {
        if (authorizer == null || actions.isEmpty()) {
            return actions.stream().map(a -> AuthorizationResult.ALLOWED).toList();
        }
        List<AuthorizationResult> results = authorizer.authorize(who, actions);
        if (results == null || results.size() != actions.size()) {
            throw new IllegalStateException("Authorizer '" + name + "' answered " + (results == null ? "null" : results.size()
                    + " results") + " for " + actions.size() + " actions");
        }
        return results;
    }

    /** The authorizer's {@link Authorizer#authorizeByResourceType}; allowed when there is no authorizer. */
    AuthorizationResult authorizeByResourceType(AuthorizableRequestContext who, Operation op, ResourceType type) {
        if (authorizer == null) {
            return AuthorizationResult.ALLOWED;
        }
        AuthorizationResult result = authorizer.authorizeByResourceType(who, op, type);
        if (result == null) {
            throw new IllegalStateException("Authorizer '" + name + "' answered null for " + op + " on any " + type);
        }
        return result;
    }

    /**
     * The authorizer, when there is one and it manages ACLs (CreateAcls, DescribeAcls and DeleteAcls are
     * answered SECURITY_DISABLED otherwise, as Kafka without an authorizer).
     */
    public Optional<AclAdmin> aclAdmin() {
        return authorizer != null && authorizer.managesAcls() ? Optional.of(new AclAdmin(authorizer, name))
                : Optional.empty();
    }

    /** The identity Kafka's authorizers see for a PLAINTEXT connection: {@code User:ANONYMOUS} at {@code peer}. */
    public static AuthorizableRequestContext anonymous(InetSocketAddress peer, String listenerName, String clientId) {
        InetAddress address = peer == null || peer.getAddress() == null ? InetAddress.getLoopbackAddress() : peer.getAddress();
        String listener = listenerName == null ? "PLAINTEXT" : listenerName;
        return new AuthorizableRequestContext(KafkaPrincipal.ANONYMOUS, address, listener, clientId);
    }

    @Override
    public void close() {
        if (authorizer != null) {
            authorizer.close();
        }
    }
}
