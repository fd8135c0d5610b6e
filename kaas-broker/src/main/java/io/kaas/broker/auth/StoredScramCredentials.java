package io.kaas.broker.auth;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.security.scram.ScramCredential;
import io.kaas.security.scram.ScramCredentialLookup;
import io.kaas.security.scram.ScramMechanism;
import java.util.Objects;
import java.util.Optional;

/**
 * The SCRAM servers' view of the credentials in the cluster-state store (managed with
 * AlterUserScramCredentials or seeded by the storage tool). Reads from the store's memory, so it is cheap
 * on every authentication; a change is seen by the next authentication.
 */
public final class StoredScramCredentials implements ScramCredentialLookup {
    private final ClusterStateStore store;

    public StoredScramCredentials(ClusterStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public Optional<ScramCredential> credential(String user, ScramMechanism mechanism) {
        for (ScramCredentialRecord r : store.scramCredentials(user)) {
            if (r.mechanism().equals(mechanism.mechanismName())) {
                return Optional.of(new ScramCredential(r.salt(), r.storedKey(), r.serverKey(), r.iterations()));
            }
        }
        return Optional.empty();
    }
}
