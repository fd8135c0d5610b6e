package io.kaas.plugins.internal;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.plugin.BackendProvider;
import java.io.IOException;
import java.util.List;

/**
 * A plugin's {@link AuthorizerProvider}, with the plugin's context class loader around every call.
 * The authorizer it opens is wrapped by an explicit class rather than {@link ContextLoaderProxy}:
 * {@code authorize} is on the path of every Produce and Fetch, where reflection costs.
 */
final class PluginAuthorizerProvider implements AuthorizerProvider, PluginProvider {
    private final AuthorizerProvider delegate;
    private final ClassLoader loader;
    private final String fallbackVersion;

    PluginAuthorizerProvider(AuthorizerProvider delegate, ClassLoader loader, String fallbackVersion) {
        this.delegate = delegate;
        this.loader = loader;
        this.fallbackVersion = fallbackVersion;
    }

    @Override
    public String name() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.name();
        }
    }

    @Override
    public String version() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            String version = delegate.version();
            return version == null || version.equals("unknown") ? fallbackVersion : version;
        }
    }

    @Override
    public int spiVersion() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.spiVersion();
        }
    }

    @Override
    public Authorizer open(AuthorizerContext context) throws IOException {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return new PluginAuthorizer(delegate.open(context), loader);
        }
    }

    @Override
    public BackendProvider delegate() {
        return delegate;
    }

    @Override
    public ClassLoader pluginLoader() {
        return loader;
    }

    @Override
    public String toString() {
        return delegate.getClass().getName();
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
