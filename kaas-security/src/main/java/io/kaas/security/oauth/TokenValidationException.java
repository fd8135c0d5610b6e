package io.kaas.security.oauth;

/**
 * A token refused, with the RFC 7628 error status the client is sent ({@code invalid_token}, or
 * {@code insufficient_scope} with the scope needed) and, for the broker's log only, why (never the token).
 */
final class TokenValidationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String status;
    private final String scope;
    private final transient String principal;

    TokenValidationException(String why, String principal) {
        this("invalid_token", null, why, principal);
    }

    TokenValidationException(String status, String scope, String why, String principal) {
        super(why);
        this.status = status;
        this.scope = scope;
        this.principal = principal;
    }

    /**
     * {@code message} without {@code token} or any of its dot-separated parts (jose4j's messages quote the token),
     * at most 300 characters: fit for the log.
     */
    static String redact(String message, String token) {
        if (message == null) {
            return null;
        }
        String out = message;
        if (token != null && !token.isEmpty()) {
            out = out.replace(token, "<token>");
            for (String part : token.split("\\.")) {
                if (part.length() >= 8) {
                    out = out.replace(part, "<token part>");
                }
            }
        }
        return out.length() > 300 ? out.substring(0, 300) + "…" : out;
    }

    String status() {
        return status;
    }

    /** The scope the client lacks, or null. */
    String scope() {
        return scope;
    }

    /** The principal the token names, when it could be read, else null (for the log line). */
    String principal() {
        return principal;
    }
}
