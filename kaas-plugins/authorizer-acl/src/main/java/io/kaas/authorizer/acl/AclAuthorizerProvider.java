package io.kaas.authorizer.acl;

import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclStore;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * {@code authorizer=acl}: ACLs kept in the host's ACL store (the cluster-state store), managed with
 * CreateAcls/DeleteAcls; an empty store is seeded from {@code authorizer.acl.file} when that is set. Cheap to
 * construct; no I/O until {@link #open}.
 */
public final class AclAuthorizerProvider implements AuthorizerProvider {
    /** The name users put in {@code authorizer}. */
    public static final String NAME = "acl";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Authorizer open(AuthorizerContext context) throws IOException {
        AclConfig config = AclConfig.from(context.config());
        AclStore store = context.acls();
        String origin = "";
        if (config.file() != null) {
            if (store.acls().isEmpty()) {
                List<AclBinding> seed = AclFile.read(config.file());
                store.addAcls(seed);
                origin = ", " + seed.size() + " seeded from " + config.file().toAbsolutePath();
            } else {
                origin = ", " + config.file().toAbsolutePath() + " not read: the store has ACLs already";
            }
        }
        return new AclAuthorizer(store, config.superUsers(), config.allowEveryoneIfNoAclFound(), origin);
    }

    @Override
    public Set<String> configKeys() {
        return AclConfig.KEYS;
    }

    @Override
    public int spiVersion() {
        return SpiVersion.MAJOR;
    }
}
