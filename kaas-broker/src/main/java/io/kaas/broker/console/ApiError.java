package io.kaas.broker.console;

import java.util.Map;

/**
 * A refused console request: its HTTP status, the error's name (a Kafka error name such as
 * {@code UNKNOWN_TOPIC_OR_PARTITION}, or a short code such as {@code INVALID_REQUEST}) and a message naming the
 * thing that was wrong; {@code extra} adds fields to the error body (the leader of a partition led elsewhere).
 */
final class ApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String error;
    private final transient Map<String, Object> extra;
    private final String allow;

    ApiError(int status, String error, String message) {
        this(status, error, message, Map.of());
    }

    ApiError(int status, String error, String message, Map<String, Object> extra) {
        this(status, error, message, extra, null);
    }

    private ApiError(int status, String error, String message, Map<String, Object> extra, String allow) {
        super(message, null, false, false);
        this.status = status;
        this.error = error;
        this.extra = Map.copyOf(extra);
        this.allow = allow;
    }

    /** The methods a 405's path allows, or null. */
    String allow() {
        return allow;
    }

    /** 405 for {@code method} on {@code path}, which allows {@code allow} (the Allow header). */
    static ApiError methodNotAllowed(String method, String path, String allow) {
        return new ApiError(405, "METHOD_NOT_ALLOWED", "method " + method + " is not allowed on " + path + " (use "
            + allow + ")", Map.of(), allow);
    }

    static ApiError badRequest(String message) {
        return new ApiError(400, "INVALID_REQUEST", message);
    }

    static ApiError notFound(String message) {
        return new ApiError(404, "NOT_FOUND", message);
    }

    int status() {
        return status;
    }

    String error() {
        return error;
    }

    Map<String, Object> extra() {
        return extra;
    }
}
