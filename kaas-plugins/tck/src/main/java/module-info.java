/**
 * The kaas plugin TCK: abstract contract tests ({@link io.kaas.plugin.tck.StorageEngineTck},
 * {@link io.kaas.plugin.tck.ClusterStateStoreTck}, {@link io.kaas.plugin.tck.ClusterCoordinationTck},
 * {@link io.kaas.plugin.tck.AuthorizerTck}) that a
 * backend's test class extends; {@link io.kaas.plugin.tck.TestBatches}, a builder of valid v2 record
 * batches; and helpers for a plugin's own tests, {@link io.kaas.plugin.tck.ProviderRegistrations} and
 * {@link io.kaas.plugin.tck.PackagedPluginSmoke}. Open so that JUnit can reach the inherited test
 * methods and inject {@code @TempDir} fields.
 */
@SuppressWarnings("requires-automatic")
open module io.kaas.plugin.tck {
    requires transitive io.kaas.api;
    requires transitive org.junit.jupiter.api;
    requires transitive org.assertj.core;
    requires awaitility; // no Automatic-Module-Name in its jar: the name derives from the file
    requires static io.kaas.plugins;   // PackagedPluginSmoke only; plugins using it add kaas-plugins in test scope

    exports io.kaas.plugin.tck;
}
