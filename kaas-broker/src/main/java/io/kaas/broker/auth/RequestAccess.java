package io.kaas.broker.auth;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What one request may do, as its handler asks it: only the {@link Check}s its API's contract declares
 * (anything else is a programming error and fails the request), each decision asked of the authorizer
 * once per request and remembered. Thread-safe (a handler may ask from a completion thread).
 */
public final class RequestAccess {
    private final AccessGate gate;
    private final String api;
    private final List<Check> declared;
    private final AuthorizableRequestContext who;
    private final Map<Action, Boolean> decided = new HashMap<>();
    private final Map<String, Boolean> decidedByType = new HashMap<>();

    RequestAccess(AccessGate gate, String api, Collection<Check> declared, AuthorizableRequestContext who) {
        this.gate = gate;
        this.api = api;
        this.declared = List.copyOf(declared);
        this.who = who;
    }

    /** Whether an authorizer decides (false: {@code authorizer=none}, everything is allowed). */
    public boolean enabled() {
        return gate.enabled();
    }

    /** Whether the request may perform {@code op} on the {@code type} resource {@code name}. */
    public boolean allowed(Operation op, ResourceType type, String name) {
        Check check = declared(op, type);
        if (!gate.enabled()) {
            return true;
        }
        if (check.orCluster() && decide(List.of(Action.onCluster(op))).get(0)) {
            return true;
        }
        return decide(List.of(new Action(op, type, name))).get(0);
    }

    /** Whether the request may perform {@code op} on topic {@code name}. */
    public boolean allowedOnTopic(Operation op, String name) {
        return allowed(op, ResourceType.TOPIC, name);
    }

    /** The topics among {@code names} the request may perform {@code op} on, asked in one call. */
    public Set<String> allowedTopics(Operation op, Collection<String> names) {
        return allowed(op, ResourceType.TOPIC, names);
    }

    /** Whether the request may perform {@code op} on the cluster. */
    public boolean allowedOnCluster(Operation op) {
        return allowed(op, ResourceType.CLUSTER, Action.CLUSTER_NAME);
    }

    /**
     * Whether the request may perform {@code op} on at least one resource of {@code type}, as Kafka's
     * {@code authorizeByResourceType} answers it (an idempotent producer's WRITE on any topic). Asked of
     * the authorizer once per request.
     */
    public boolean allowedOnAny(Operation op, ResourceType type) {
        declared(op, type);
        if (!gate.enabled()) {
            return true;
        }
        synchronized (decidedByType) {
            return decidedByType.computeIfAbsent(op.name() + ' ' + type.name(),
                    k -> gate.authorizeByResourceType(who, op, type) == AuthorizationResult.ALLOWED);
        }
    }

    /** The names among {@code names} the request may perform {@code op} on, in their order, asked in one call. */
    public Set<String> allowed(Operation op, ResourceType type, Collection<String> names) {
        Check check = declared(op, type);
        Set<String> distinct = new LinkedHashSet<>(names);
        if (!gate.enabled() || distinct.isEmpty()) {
            return distinct;
        }
        if (check.orCluster() && decide(List.of(Action.onCluster(op))).get(0)) {
            return distinct;
        }
        List<Action> actions = distinct.stream().map(n -> new Action(op, type, n)).toList();
        List<Boolean> results = decide(actions);
        Set<String> allowed = new LinkedHashSet<>();
        for (int i = 0; i < actions.size(); i++) {
            if (results.get(i)) {
                allowed.add(actions.get(i).resourceName());
            }
        }
        return allowed;
    }

    /** A check of {@code op} on resources of {@code type}, for one request. */
    public Predicate<String> check(Operation op, ResourceType type) {
        declared(op, type);
        return gate.enabled() ? name -> allowed(op, type, name) : name -> true;
    }

    /**
     * Kafka's authorized-operations field of the {@code type} resource {@code name}: a bit per operation
     * the type supports that the request may perform ({@link AuthorizedOperations}). For the cluster, 0
     * unless DESCRIBE is allowed, as Kafka answers Metadata and DescribeCluster.
     */
    public int authorizedOperations(ResourceType type, String name) {
        Set<Operation> supported = AuthorizedOperations.supported(type);
        List<Operation> ops = new ArrayList<>(supported);
        List<Boolean> results = decide(ops.stream().map(op -> new Action(op, type, name)).toList());
        Set<Operation> allowed = EnumSet.noneOf(Operation.class);
        for (int i = 0; i < ops.size(); i++) {
            if (results.get(i)) {
                allowed.add(ops.get(i));
            }
        }
        if (type == ResourceType.CLUSTER && !allowed.contains(Operation.DESCRIBE)) {
            return 0;
        }
        return AuthorizedOperations.bits(allowed);
    }

    /** {@link #authorizedOperations} of the cluster. */
    public int clusterAuthorizedOperations() {
        return authorizedOperations(ResourceType.CLUSTER, Action.CLUSTER_NAME);
    }

    private Check declared(Operation op, ResourceType type) {
        for (Check c : declared) {
            if (c.answers(op, type)) {
                return c;
            }
        }
        throw new IllegalStateException(api + " asked whether it may " + op + " a " + type
                + " but its contract does not declare that check (add it to the API's row in ApiContracts)");
    }

    /** One decision per action; undecided ones asked of the authorizer in one call. */
    private List<Boolean> decide(List<Action> actions) {
        if (!gate.enabled()) {
            return actions.stream().map(a -> true).toList();
        }
        List<Action> undecided;
        synchronized (decided) {
            undecided = actions.stream().distinct().filter(a -> !decided.containsKey(a)).toList();
        }
        if (!undecided.isEmpty()) {
            List<AuthorizationResult> results = gate.authorize(who, undecided);
            synchronized (decided) {
                for (int i = 0; i < undecided.size(); i++) {
                    decided.put(undecided.get(i), results.get(i) == AuthorizationResult.ALLOWED);
                }
            }
        }
        synchronized (decided) {
            return actions.stream().map(decided::get).toList();
        }
    }
}
