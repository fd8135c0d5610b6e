package io.kaas.broker.interbroker;

/**
 * Why an inter-broker request got no answer. The message names the target broker and what happened; it never holds
 * a password.
 */
public final class InterBrokerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for the caller's error code. */
    public enum Reason {
        /** The target broker is not live, or has no endpoint on the inter-broker listener. */
        NO_ENDPOINT,
        /** The connection could not be set up, or closed before the answer. */
        DISCONNECTED,
        /** No answer within {@code request.timeout.ms}. */
        TIMED_OUT,
        /** The SASL exchange or the TLS handshake failed. */
        AUTHENTICATION_FAILED,
        /** The target supports no version of the API the request needs. */
        UNSUPPORTED_VERSION,
        /** The inter-broker listener's settings cannot be used (the message names the key). */
        CONFIG,
        /** The client is closed (the broker is stopping). */
        CLOSED
    }

    private final Reason reason;

    public InterBrokerException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** The inter-broker failure in {@code t} or its causes (as a CompletableFuture wraps it), or null. */
    public static InterBrokerException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof InterBrokerException e) {
                return e;
            }
        }
        return null;
    }
}
