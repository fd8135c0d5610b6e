package io.kaas.broker.console;

import io.kaas.wire.protocol.Errors;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/** Kafka error codes as the console API answers them: the error's name and the HTTP status it maps to. */
final class KafkaErrors {

    private static final Map<Short, String> NAMES = names();

    private KafkaErrors() {
    }

    private static Map<Short, String> names() {
        Map<Short, String> out = new HashMap<>();
        for (Field f : Errors.class.getFields()) {
            if (f.getType() == short.class && Modifier.isStatic(f.getModifiers())) {
                try {
                    out.putIfAbsent(f.getShort(null), f.getName());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Map.copyOf(out);
    }

    /** Kafka's name of error {@code code} (e.g. {@code UNKNOWN_TOPIC_OR_PARTITION}). */
    static String name(short code) {
        return NAMES.getOrDefault(code, "UNKNOWN_ERROR_" + code);
    }

    /** The HTTP status the console answers error {@code code} with. */
    static int status(short code) {
        String name = name(code);
        if (name.endsWith("_AUTHORIZATION_FAILED")) {
            return 403;
        }
        return switch (name) {
            case "UNKNOWN_TOPIC_OR_PARTITION", "UNKNOWN_TOPIC_ID", "GROUP_ID_NOT_FOUND" -> 404;
            case "TOPIC_ALREADY_EXISTS", "NON_EMPTY_GROUP", "REBALANCE_IN_PROGRESS", "UNKNOWN_MEMBER_ID",
                 "ILLEGAL_GENERATION", "STALE_MEMBER_EPOCH" -> 409;
            case "OFFSET_OUT_OF_RANGE" -> 416;
            case "MESSAGE_TOO_LARGE", "RECORD_LIST_TOO_LARGE" -> 413;
            case "NOT_LEADER_OR_FOLLOWER", "NOT_COORDINATOR" -> 421;
            case "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "LEADER_NOT_AVAILABLE",
                 "NOT_ENOUGH_REPLICAS", "NOT_ENOUGH_REPLICAS_AFTER_APPEND", "KAFKA_STORAGE_ERROR" -> 503;
            case "REQUEST_TIMED_OUT", "NETWORK_EXCEPTION" -> 504;
            case "UNKNOWN_SERVER_ERROR" -> 500;
            default -> 400;
        };
    }

    /**
     * Throws the console's error for {@code code} unless it is NONE: the Kafka error's name and status, and
     * {@code message} (Kafka's own message when it gave one, else {@code fallback}).
     */
    static void check(short code, String message, String fallback) {
        if (code != Errors.NONE) {
            throw error(code, message, fallback);
        }
    }

    static ApiError error(short code, String message, String fallback) {
        String text = message == null || message.isBlank() ? fallback : fallback + ": " + message;
        return new ApiError(status(code), name(code), text);
    }
}
