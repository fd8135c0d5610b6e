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

    ApiError(int status, String error, String message) {
        this(status, error, message, Map.of());
    }

    ApiError(int status, String error, String message, Map<String, Object> extra) {
        super(message, null, false, false);
        this.status = status;
        this.error = error;
        this.extra = Map.copyOf(extra);
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
