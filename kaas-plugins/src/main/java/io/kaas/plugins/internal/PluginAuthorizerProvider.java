package io.kaas.plugins.internal;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.io.IOException;
import java.util.List;

/**
 * A plugin's {@link AuthorizerProvider}, with the plugin's context class loader around every call.
 * The authorizer it opens is wrapped by an explicit class rather than {@link ContextLoaderProxy}:
 * {@code authorize} is on the path of every Produce and Fetch, where reflection costs.
 */
final class PluginAuthorizerProvider extends PluginBackendProvider<AuthorizerProvider> implements AuthorizerProvider {
    PluginAuthorizerProvider(AuthorizerProvider delegate, ClassLoader loader, String fallbackVersion) {
        super(delegate, loader, fallbackVersion);
    }

    @Override
    public Authorizer open(AuthorizerContext context) throws IOException {
        return openUnderLoader(() -> new PluginAuthorizer(delegate.open(context), loader));
    }

    /** A plugin's {@link Authorizer}, every call made under the plugin's class loader. */
    private static final class PluginAuthorizer implements Authorizer {
        private final Authorizer delegate;
        private final ClassLoader loader;

        PluginAuthorizer(Authorizer delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public List<AuthorizationResult> authorize(AuthorizableRequestContext request, List<Action> actions) {
            try (LoaderSwap ignored = LoaderSwap.to(loader)) {
                return delegate.authorize(request, actions);
            }
        }

        @Override
        public AuthorizationResult authorizeByResourceType(AuthorizableRequestContext request, Operation operation,
                                                           ResourceType type) {
            try (LoaderSwap ignored = LoaderSwap.to(loader)) {
                return delegate.authorizeByResourceType(request, operation, type);
            }
        }

        @Override
        public void close() {
            try (LoaderSwap ignored = LoaderSwap.to(loader)) {
                delegate.close();
            }
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
