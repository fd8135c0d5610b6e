package io.kaas.api.auth;

import io.kaas.api.plugin.BackendProvider;
import java.io.IOException;

/**
 * Describes and creates an authorizer. Found by {@link java.util.ServiceLoader}; public no-arg
 * constructor; does no I/O when constructed. Selected by {@link #name()} through {@code authorizer}
 * ({@code none}, the default, is reserved: it means no authorizer).
 */
public interface AuthorizerProvider extends BackendProvider {
    /**
     * Opens the authorizer: reads its rules, validates its settings. Called once per broker start,
     * before the listener accepts connections, never on a network thread; may block.
     *
     * @throws io.kaas.api.plugin.PluginConfigException naming the key, if a setting cannot be used
     * @throws IOException                              if the rules cannot be read; start-up fails
     */
    Authorizer open(AuthorizerContext context) throws IOException;
}
