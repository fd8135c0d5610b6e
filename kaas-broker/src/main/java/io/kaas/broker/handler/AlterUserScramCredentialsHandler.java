package io.kaas.broker.handler;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.security.scram.ScramCredential;
import io.kaas.security.scram.ScramCredentials;
import io.kaas.security.scram.ScramMechanism;
import io.kaas.wire.message.AlterUserScramCredentialsRequestData;
import io.kaas.wire.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import io.kaas.wire.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import io.kaas.wire.message.AlterUserScramCredentialsResponseData;
import io.kaas.wire.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AlterUserScramCredentials v0 as Kafka 4.4's controller ({@code ScramControlManager}): each user's
 * deletions and upsertions are checked on their own (a user named twice in the request is
 * DUPLICATE_RESOURCE, an unknown mechanism UNSUPPORTED_SASL_MECHANISM, iterations outside 4096..16384, an
 * empty user, salt or salted password UNACCEPTABLE_CREDENTIAL, deleting a credential that does not exist
 * RESOURCE_NOT_FOUND); the accepted ones are stored in one atomic store change. The client sends the
 * salted password; the broker derives StoredKey and ServerKey from it and keeps only those. ALTER on the
 * cluster is checked by the pipeline (its contract).
 */
public final class AlterUserScramCredentialsHandler
        implements ApiHandler<AlterUserScramCredentialsRequestData, AlterUserScramCredentialsResponseData> {
    private static final Logger LOG = LoggerFactory.getLogger(AlterUserScramCredentialsHandler.class);
    static final String TWICE = "A user credential cannot be altered twice in the same request";

    private final ClusterStateStore store;

    public AlterUserScramCredentialsHandler(ClusterStateStore store) {
        this.store = store;
    }

    /** An error code and message for one user. */
    private record Failure(short code, String message) {
    }

    @Override
    public CompletableFuture<AlterUserScramCredentialsResponseData> handle(RequestContext context,
                                                                            AlterUserScramCredentialsRequestData request) {
        Set<ScramCredentialRef> existing = new HashSet<>();
        store.scramCredentials().forEach(r -> existing.add(r.ref()));
        Map<String, ScramCredentialRef> deletions = new LinkedHashMap<>();
        Map<String, ScramCredentialRecord> upserts = new LinkedHashMap<>();
        Map<String, Failure> failures = new LinkedHashMap<>();
        for (ScramCredentialDeletion d : request.deletions()) {
            if (failures.containsKey(d.name())) {
                continue;
            }
            if (deletions.remove(d.name()) != null) {
                failures.put(d.name(), new Failure(Errors.DUPLICATE_RESOURCE, TWICE));
                continue;
            }
            Optional<ScramMechanism> mechanism = ScramMechanism.forType(d.mechanism());
            Failure bad = userAndMechanism(d.name(), mechanism);
            if (bad == null && !existing.contains(new ScramCredentialRef(d.name(), mechanism.get().mechanismName()))) {
                bad = new Failure(Errors.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist");
            }
            if (bad != null) {
                failures.put(d.name(), bad);
            } else {
                deletions.put(d.name(), new ScramCredentialRef(d.name(), mechanism.get().mechanismName()));
            }
        }
        for (ScramCredentialUpsertion u : request.upsertions()) {
            if (failures.containsKey(u.name())) {
                continue;
            }
            if (deletions.remove(u.name()) != null || upserts.remove(u.name()) != null) {
                failures.put(u.name(), new Failure(Errors.DUPLICATE_RESOURCE, TWICE));
                continue;
            }
            Optional<ScramMechanism> mechanism = ScramMechanism.forType(u.mechanism());
            Failure bad = userAndMechanism(u.name(), mechanism);
            if (bad == null) {
                bad = credential(u);
            }
            if (bad != null) {
                failures.put(u.name(), bad);
            } else {
                ScramCredential c = ScramCredentials.fromSaltedPassword(mechanism.get(), u.salt(), u.saltedPassword(),
                        u.iterations());
                upserts.put(u.name(), new ScramCredentialRecord(new ScramCredentialRef(u.name(),
                        mechanism.get().mechanismName()), c.salt(), c.storedKey(), c.serverKey(), c.iterations()));
            }
        }
        List<AlterUserScramCredentialsResult> results = new ArrayList<>();
        if (!deletions.isEmpty() || !upserts.isEmpty()) {
            Failure storeFailure = store(context, upserts.values(), deletions.values());
            for (String user : deletions.keySet()) {
                results.add(result(user, storeFailure));
            }
            for (String user : upserts.keySet()) {
                results.add(result(user, storeFailure));
            }
        }
        failures.forEach((user, failure) -> results.add(result(user, failure)));
        if (!failures.isEmpty()) {
            LOG.atInfo().setMessage("SCRAM credential changes for {} from {} refused: {}")
                    .addArgument(context.principal()).addArgument(context.clientAddress())
                    .addArgument(() -> refusals(failures)).log();
        }
        return CompletableFuture.completedFuture(new AlterUserScramCredentialsResponseData().setThrottleTimeMs(0)
                .setResults(results));
    }

    private Failure store(RequestContext context, Collection<ScramCredentialRecord> upserts,
                          Collection<ScramCredentialRef> deletions) {
        try {
            store.alterScramCredentials(List.copyOf(upserts), List.copyOf(deletions));
        } catch (RuntimeException e) {
            LOG.atError().setMessage("Could not store the SCRAM credentials {} altered for {} from {}")
                    .addArgument(names(upserts, deletions)).addArgument(context.principal())
                    .addArgument(context.clientAddress()).setCause(e).log();
            return new Failure(Errors.UNKNOWN_SERVER_ERROR, null);
        }
        LOG.atInfo().setMessage("SCRAM credentials altered for {} from {}: {}")
                .addArgument(context.principal()).addArgument(context.clientAddress())
                .addArgument(names(upserts, deletions)).log();
        return null;
    }

    /** e.g. {@code upserted SCRAM-SHA-256 of alice (8192 iterations), deleted SCRAM-SHA-512 of bob}; no secrets. */
    private static String names(Collection<ScramCredentialRecord> upserts,
                                Collection<ScramCredentialRef> deletions) {
        List<String> parts = new ArrayList<>();
        upserts.forEach(r -> parts.add("upserted " + r.mechanism() + " of " + r.user() + " (" + r.iterations()
                + " iterations)"));
        deletions.forEach(r -> parts.add("deleted " + r.mechanism() + " of " + r.user()));
        return String.join(", ", parts);
    }

    /** e.g. {@code 'alice': Too few iterations; '': Username must not be empty}. */
    private static String refusals(Map<String, Failure> failures) {
        List<String> parts = new ArrayList<>();
        failures.forEach((user, f) -> parts.add("'" + user + "': " + f.message()));
        return String.join("; ", parts);
    }

    private static Failure userAndMechanism(String user, Optional<ScramMechanism> mechanism) {
        if (user.isEmpty()) {
            return new Failure(Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        }
        if (mechanism.isEmpty()) {
            return new Failure(Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        }
        return null;
    }

    private static Failure credential(ScramCredentialUpsertion u) {
        if (u.iterations() < ScramMechanism.MIN_ITERATIONS) {
            return new Failure(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
        }
        if (u.iterations() > ScramMechanism.MAX_ITERATIONS) {
            return new Failure(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
        }
        if (u.salt() == null || u.salt().length == 0) {
            return new Failure(Errors.UNACCEPTABLE_CREDENTIAL, "Salt must not be empty");
        }
        if (u.saltedPassword() == null || u.saltedPassword().length == 0) {
            return new Failure(Errors.UNACCEPTABLE_CREDENTIAL, "Salted password must not be empty");
        }
        return null;
    }

    private static AlterUserScramCredentialsResult result(String user, Failure failure) {
        return failure == null
                ? new AlterUserScramCredentialsResult().setUser(user).setErrorCode(Errors.NONE).setErrorMessage(null)
                : new AlterUserScramCredentialsResult().setUser(user).setErrorCode(failure.code())
                        .setErrorMessage(failure.message());
    }
}
