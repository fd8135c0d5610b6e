package io.kaas.broker.handler;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.broker.config.BrokerConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place request handlers ask whether a request may act on a resource. With no authorizer
 * ({@code authorizer=none}, Kafka's default) every question is answered yes without calling anything;
 * otherwise each question becomes one {@link Authorizer#authorize} call (batched per request where a
 * handler asks about many topics). The principal is {@code User:ANONYMOUS}: kaas serves PLAINTEXT only.
 *
 * <p>Handlers answer a denial with {@link ResourceType#deniedErrorCode()} (TOPIC_AUTHORIZATION_FAILED
 * 29, CLUSTER_AUTHORIZATION_FAILED 31…). An authorizer that throws, or answers the wrong number of
 * results, fails the request (never allows it). Thread-safe.
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
     * and {@code allow.everyone.if.no.acl.found}), or {@link #ALLOW_ALL} when none is selected.
     */
    public static AccessGate open(Optional<AuthorizerProvider> provider, BrokerConfig config) throws IOException {
        if (provider.isEmpty()) {
            return ALLOW_ALL;
        }
        String name = provider.get().name();
        Map<String, String> settings = new TreeMap<>();
        for (String key : KAFKA_AUTHORIZER_KEYS) {
            Optional.ofNullable(config.originalValue(key)).ifPresent(v -> settings.put(key, v));
        }
        settings.putAll(config.backendConfig("authorizer." + name + ".").asMap());
        Authorizer authorizer = provider.get().open(new AuthorizerContext(PluginConfig.of(settings), config.nodeId()));
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

    /** Whether the request may perform {@code op} on the resource. */
    public boolean allowed(RequestContext request, Operation op, ResourceType type, String resourceName) {
        if (authorizer == null) {
            return true;
        }
        return authorize(request, List.of(new Action(op, type, resourceName))).get(0) == AuthorizationResult.ALLOWED;
    }

    public boolean allowedOnTopic(RequestContext request, Operation op, String topic) {
        return allowed(request, op, ResourceType.TOPIC, topic);
    }

    public boolean allowedOnCluster(RequestContext request, Operation op) {
        return allowed(request, op, ResourceType.CLUSTER, Action.CLUSTER_NAME);
    }

    /** The topics among {@code topics} the request may perform {@code op} on, asked in one call. */
    public Set<String> allowedTopics(RequestContext request, Operation op, Collection<String> topics) {
        Set<String> distinct = new LinkedHashSet<>(topics);
        if (authorizer == null || distinct.isEmpty()) {
            return distinct;
        }
        List<String> names = new ArrayList<>(distinct);
        List<Action> actions = names.stream().map(t -> Action.onTopic(op, t)).toList();
        List<AuthorizationResult> results = authorize(request, actions);
        Set<String> allowed = new LinkedHashSet<>();
        for (int i = 0; i < names.size(); i++) {
            if (results.get(i) == AuthorizationResult.ALLOWED) {
                allowed.add(names.get(i));
            }
        }
        return allowed;
    }

    /** A check of {@code op} on topics that asks the authorizer once per topic name, for one request. */
    public Predicate<String> topicCheck(RequestContext request, Operation op) {
        if (authorizer == null) {
            return t -> true;
        }
        Map<String, Boolean> decided = new HashMap<>();
        return t -> {
            synchronized (decided) {
                return decided.computeIfAbsent(t, n -> allowedOnTopic(request, op, n));
            }
        };
    }

    private List<AuthorizationResult> authorize(RequestContext request, List<Action> actions) {
        List<AuthorizationResult> results = authorizer.authorize(context(request), actions);
        if (results == null || results.size() != actions.size()) {
            throw new IllegalStateException("Authorizer '" + name + "' answered " + (results == null ? "null" : results.size()
                    + " results") + " for " + actions.size() + " actions");
        }
        return results;
    }

    private static AuthorizableRequestContext context(RequestContext request) {
        InetSocketAddress peer = request.clientAddress();
        InetAddress address = peer == null || peer.getAddress() == null ? InetAddress.getLoopbackAddress() : peer.getAddress();
        String listener = request.listenerName() == null ? "PLAINTEXT" : request.listenerName();
        return new AuthorizableRequestContext(KafkaPrincipal.ANONYMOUS, address, listener, request.clientId());
    }

    @Override
    public void close() {
        if (authorizer != null) {
            authorizer.close();
        }
    }
}
