package io.kaas.broker.console;

import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.broker.admin.AdminRequest;
import io.kaas.security.scram.ScramCredential;
import io.kaas.security.scram.ScramCredentialLookup;
import io.kaas.security.scram.ScramCredentials;
import io.kaas.security.scram.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;

/**
 * Who a console request is from. Without an authorizer everyone is {@code User:ANONYMOUS} (the endpoint binds
 * 127.0.0.1 by default). With one, the request must carry HTTP Basic credentials of a user with stored SCRAM
 * credentials (SCRAM-SHA-256 or SCRAM-SHA-512, as AlterUserScramCredentials or the storage tool stored them): the
 * password is salted with the stored salt and iterations, and the stored key derived from it compared with the
 * stored one in constant time. The principal is then {@code User:<name>}. Passwords are never logged nor kept.
 */
final class BasicScramAuthenticator {

    private static final byte[] UNKNOWN_USER_SALT = new byte[32];

    private final boolean required;
    private final ScramCredentialLookup credentials;

    /**
     * @param required    whether credentials are required (an authorizer is configured)
     * @param credentials the stored SCRAM credentials
     */
    BasicScramAuthenticator(boolean required, ScramCredentialLookup credentials) {
        this.required = required;
        this.credentials = credentials;
    }

    /**
     * The principal of {@code request}.
     *
     * @throws ApiError 401 without credentials, with malformed ones, an unknown user or a wrong password
     */
    KafkaPrincipal authenticate(AdminRequest request) {
        if (!required) {
            return KafkaPrincipal.ANONYMOUS;
        }
        String header = request.header("authorization");
        if (header == null || header.isBlank()) {
            throw unauthorized("credentials required: the broker has an authorizer; sign in with a SCRAM user's "
                + "name and password (HTTP Basic)");
        }
        if (!header.regionMatches(true, 0, "Basic ", 0, 6)) {
            throw unauthorized("only HTTP Basic credentials are accepted");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw unauthorized("malformed HTTP Basic credentials (not base64)");
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            throw unauthorized("malformed HTTP Basic credentials (no user name)");
        }
        String user = decoded.substring(0, colon);
        String password = decoded.substring(colon + 1);
        if (!matches(user, password)) {
            throw unauthorized("authentication failed for user '" + user + "' (unknown user or wrong password)");
        }
        return new KafkaPrincipal(KafkaPrincipal.USER_TYPE, user);
    }

    /** Whether {@code password} is {@code user}'s under any of the SCRAM mechanisms it has credentials for. */
    private boolean matches(String user, String password) {
        boolean found = false;
        boolean ok = false;
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            Optional<ScramCredential> stored = credentials.credential(user, mechanism);
            if (stored.isEmpty()) {
                continue;
            }
            found = true;
            ScramCredential c = stored.get();
            ScramCredential derived = ScramCredentials.fromPassword(mechanism, password, c.salt(), c.iterations());
            ok |= MessageDigest.isEqual(derived.storedKey(), c.storedKey());
        }
        if (!found) {
            // As long as for a known user: the answer's timing does not tell which user names exist.
            ScramCredentials.fromPassword(ScramMechanism.SCRAM_SHA_256, password, UNKNOWN_USER_SALT,
                ScramMechanism.MIN_ITERATIONS);
        }
        return found && ok;
    }

    private static ApiError unauthorized(String message) {
        return new ApiError(401, "SASL_AUTHENTICATION_FAILED", message);
    }
}
