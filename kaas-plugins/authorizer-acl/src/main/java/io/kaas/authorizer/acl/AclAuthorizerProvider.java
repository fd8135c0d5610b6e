package io.kaas.authorizer.acl;

import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import java.io.IOException;
import java.util.Set;

/** {@code authorizer=acl}: ACL rules from {@code authorizer.acl.file}. Cheap to construct; no I/O until {@link #open}. */
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
        return new AclAuthorizer(AclFile.read(config.file()), config.superUsers(), config.allowEveryoneIfNoAclFound());
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
