package io.kaas.broker.handler;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.security.scram.ScramMechanism;
import io.kaas.wire.message.DescribeUserScramCredentialsRequestData;
import io.kaas.wire.message.DescribeUserScramCredentialsRequestData.UserName;
import io.kaas.wire.message.DescribeUserScramCredentialsResponseData;
import io.kaas.wire.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import io.kaas.wire.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeUserScramCredentials v0 as Kafka 4.4 (KRaft's {@code ScramImage.describe}): the mechanisms and
 * iterations of each user asked (all users with a credential when none is named), never a salt or key; a
 * user without credentials is RESOURCE_NOT_FOUND and a user named twice DUPLICATE_RESOURCE, each on its
 * own result. DESCRIBE on the cluster is checked by the pipeline (its contract).
 */
public final class DescribeUserScramCredentialsHandler
        implements ApiHandler<DescribeUserScramCredentialsRequestData, DescribeUserScramCredentialsResponseData> {
    static final String DUPLICATE_USER = "Cannot describe SCRAM credentials for the same user twice in a single request: ";
    static final String NO_SUCH_USER = "Attempt to describe a user credential that does not exist: ";

    private final ClusterStateStore store;

    public DescribeUserScramCredentialsHandler(ClusterStateStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<DescribeUserScramCredentialsResponseData> handle(RequestContext context,
                                                                               DescribeUserScramCredentialsRequestData request) {
        Map<String, List<ScramCredentialRecord>> byUser = new TreeMap<>();
        for (ScramCredentialRecord r : store.scramCredentials()) {
            byUser.computeIfAbsent(r.user(), u -> new ArrayList<>()).add(r);
        }
        // user -> named more than once
        Map<String, Boolean> asked = new LinkedHashMap<>();
        if (request.users() == null || request.users().isEmpty()) {
            byUser.keySet().forEach(u -> asked.put(u, false));
        } else {
            for (UserName u : request.users()) {
                asked.merge(u.name(), false, (a, b) -> true);
            }
        }
        List<DescribeUserScramCredentialsResult> results = new ArrayList<>();
        asked.forEach((user, twice) -> {
            DescribeUserScramCredentialsResult result = new DescribeUserScramCredentialsResult().setUser(user)
                    .setCredentialInfos(new ArrayList<>());
            List<ScramCredentialRecord> found = byUser.getOrDefault(user, List.of());
            if (twice) {
                result.setErrorCode(Errors.DUPLICATE_RESOURCE).setErrorMessage(DUPLICATE_USER + user);
            } else if (found.isEmpty()) {
                result.setErrorCode(Errors.RESOURCE_NOT_FOUND).setErrorMessage(NO_SUCH_USER + user);
            } else {
                result.setErrorCode(Errors.NONE).setErrorMessage(null).setCredentialInfos(infos(found));
            }
            results.add(result);
        });
        return CompletableFuture.completedFuture(new DescribeUserScramCredentialsResponseData().setThrottleTimeMs(0)
                .setErrorCode(Errors.NONE).setErrorMessage(null).setResults(results));
    }

    /** Mechanism codes and iterations, SCRAM-SHA-256 first; a stored mechanism kaas does not know is left out. */
    private static List<CredentialInfo> infos(List<ScramCredentialRecord> records) {
        List<CredentialInfo> out = new ArrayList<>();
        for (ScramCredentialRecord r : records) {
            ScramMechanism.forName(r.mechanism()).ifPresent(m ->
                    out.add(new CredentialInfo().setMechanism(m.type()).setIterations(r.iterations())));
        }
        out.sort(Comparator.comparingInt(CredentialInfo::mechanism));
        return out;
    }
}
