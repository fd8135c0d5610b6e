package io.kaas.broker.request;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.wire.protocol.ApiMessage;
import java.util.Objects;

/**
 * A check on the whole request that the pipeline makes before the handler runs: {@code operation} on
 * the {@code type} resource the request names (a JoinGroup's group, a transactional producer's id).
 * Denied, the request is answered with {@link #denial()} carrying {@code type}'s denied error code and
 * the handler never runs.
 *
 * @param operation what the request does to the resource
 * @param type      the kind of resource
 * @param resource  the resource's name in a request, or null when the request names none (no check)
 * @param denial    the API's answer to a denied request
 */
public record Requirement<Q extends ApiMessage, S extends ApiMessage>(Operation operation, ResourceType type,
                                                                      Resource<Q> resource, Denial<Q, S> denial) {

    public Requirement {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(denial, "denial");
    }

    /** The name of the resource a request acts on. */
    @FunctionalInterface
    public interface Resource<Q> {
        /** The name in {@code request} of version {@code version}, or null if this version names none. */
        String of(Q request, short version);
    }

    /** An API's response to a request refused with an error code. */
    @FunctionalInterface
    public interface Denial<Q, S> {
        S answer(Q request, short version, short errorCode);
    }
}
