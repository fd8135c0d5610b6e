package io.kaas.plugins.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.plugin.PluginConfig;
import java.net.InetAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every call into a plugin's authorizer runs with the plugin's class loader as the context class loader. */
class PluginAuthorizerProviderTest {
    @Test
    void everyCallRunsUnderThePluginLoaderAndTheCallersLoaderIsRestored() throws Exception {
        ClassLoader pluginLoader = new URLClassLoader(new URL[0], getClass().getClassLoader());
        List<ClassLoader> seen = new ArrayList<>();
        AuthorizerProvider plugin = new AuthorizerProvider() {
            @Override
            public String name() {
                seen.add(Thread.currentThread().getContextClassLoader());
                return "p";
            }

            @Override
            public int spiVersion() {
                return io.kaas.api.plugin.SpiVersion.MAJOR;
            }

            @Override
            public Authorizer open(AuthorizerContext context) {
                seen.add(Thread.currentThread().getContextClassLoader());
                return new Authorizer() {
                    @Override
                    public List<AuthorizationResult> authorize(AuthorizableRequestContext request, List<Action> actions) {
                        seen.add(Thread.currentThread().getContextClassLoader());
                        return List.of(AuthorizationResult.ALLOWED);
                    }

                    @Override
                    public AuthorizationResult authorizeByResourceType(AuthorizableRequestContext request,
                                                                       Operation operation, ResourceType type) {
                        seen.add(Thread.currentThread().getContextClassLoader());
                        return AuthorizationResult.DENIED;
                    }

                    @Override
                    public void close() {
                        seen.add(Thread.currentThread().getContextClassLoader());
                    }
                };
            }
        };
        ClassLoader caller = Thread.currentThread().getContextClassLoader();
        PluginAuthorizerProvider wrapped = new PluginAuthorizerProvider(plugin, pluginLoader, "1.0");

        assertThat(wrapped.name()).isEqualTo("p");
        Authorizer authorizer = wrapped.open(new AuthorizerContext(PluginConfig.empty(), 1, io.kaas.api.auth.AclStore.inMemory()));
        AuthorizableRequestContext who = new AuthorizableRequestContext(KafkaPrincipal.ANONYMOUS,
                InetAddress.getLoopbackAddress(), "PLAINTEXT", null);
        assertThat(authorizer.authorize(who, List.of(Action.onTopic(Operation.READ, "t"))))
                .containsExactly(AuthorizationResult.ALLOWED);
        // the plugin's own answer (the SPI default would ask authorize, which allows)
        assertThat(authorizer.authorizeByResourceType(who, Operation.WRITE, ResourceType.TOPIC))
                .isEqualTo(AuthorizationResult.DENIED);
        authorizer.close();

        assertThat(seen).hasSize(5).allMatch(l -> l == pluginLoader);
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(caller);
        assertThat(PluginProvider.implementation(wrapped)).isSameAs(plugin.getClass());
    }
}
