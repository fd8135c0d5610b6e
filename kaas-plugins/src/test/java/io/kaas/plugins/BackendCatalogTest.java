package io.kaas.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.plugin.BackendProvider;
import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.StorageEngineProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackendCatalogTest {
    private final BackendCatalog catalog = BackendCatalog.discover();

    @Test
    void selectsABackendOfEachKindByName() {
        assertThat(catalog.select(StorageEngineProvider.class, "storage.engine", "memory"))
                .isInstanceOf(TestProviders.Memory.class);
        assertThat(catalog.select(ClusterStateStoreProvider.class, "cluster.store", "test-store"))
                .isInstanceOf(TestProviders.Store.class);
    }

    @Test
    void anUnknownNameListsTheAvailableNamesOnOneLine() {
        assertThatThrownBy(() -> catalog.select(StorageEngineProvider.class, "storage.engine", "foo"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessage("No storage engine named 'foo' (storage.engine); available: future, memory, twin");
        assertThatThrownBy(() -> catalog.select(ClusterStateStoreProvider.class, "cluster.store", "memory"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessage("No cluster-state store named 'memory' (cluster.store); available: test-store");
    }

    @Test
    void anAuthorizerIsSelectedByNameAndTheReservedNoneSelectsNothing() {
        assertThat(catalog.selectOrNone(AuthorizerProvider.class, "authorizer", "test-acl", "none"))
                .containsInstanceOf(TestProviders.Authorizers.class);
        assertThat(catalog.selectOrNone(AuthorizerProvider.class, "authorizer", "none", "none")).isEmpty();
    }

    @Test
    void anUnknownAuthorizerNameListsTheReservedNameWithTheOthers() {
        assertThatThrownBy(() -> catalog.selectOrNone(AuthorizerProvider.class, "authorizer", "nope", "none"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessage("No authorizer named 'nope' (authorizer); available: none, test-acl");
        assertThatThrownBy(() -> BackendCatalog.discover(List.of())
                        .selectOrNone(AuthorizerProvider.class, "authorizer", "nope", "none"))
                .hasMessage("No authorizer named 'nope' (authorizer); available: none");
    }

    @Test
    void anUnknownNameWithNothingFoundSaysSo() {
        BackendCatalog empty = BackendCatalog.discover(List.of());
        assertThatThrownBy(() -> empty.select(StorageEngineProvider.class, "storage.engine", "segments"))
                .hasMessage("No storage engine named 'segments' (storage.engine); available: (none)");
    }

    @Test
    void twoBackendsWithOneNameAreRefusedNamingBothOrigins() {
        String origin = TestProviders.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        assertThatThrownBy(() -> catalog.select(StorageEngineProvider.class, "storage.engine", "twin"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageStartingWith("Storage engine name 'twin' (storage.engine) is claimed by 2 backends: ")
                .hasMessageContaining(TestProviders.TwinA.class.getName() + " from ")
                .hasMessageContaining(TestProviders.TwinB.class.getName() + " from ")
                .hasMessageContaining(origin.replaceAll("/$", ""))
                .hasMessageNotContaining("\n");
    }

    @Test
    void aBackendBuiltForAnotherSpiVersionIsRefused() {
        assertThatThrownBy(() -> catalog.select(StorageEngineProvider.class, "storage.engine", "future"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageContaining("Storage engine 'future' (storage.engine) from ")
                .hasMessageContaining("was built for kaas SPI version " + (SpiVersion.MAJOR + 1))
                .hasMessageContaining("this broker has SPI version " + SpiVersion.MAJOR)
                .hasMessageNotContaining("\n");
    }

    @Test
    void listsEveryBackendFoundWithVersionAndOrigin() {
        String origin = TestProviders.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        assertThat(catalog.all())
                .extracting(FoundBackend::kind, FoundBackend::name)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("storage engine", "memory"),
                        org.assertj.core.groups.Tuple.tuple("storage engine", "twin"),
                        org.assertj.core.groups.Tuple.tuple("storage engine", "twin"),
                        org.assertj.core.groups.Tuple.tuple("storage engine", "future"),
                        org.assertj.core.groups.Tuple.tuple("cluster-state store", "test-store"),
                        org.assertj.core.groups.Tuple.tuple("authorizer", "test-acl"));
        assertThat(catalog.all()).filteredOn(b -> b.name().equals("memory")).singleElement()
                .satisfies(b -> {
                    assertThat(b.version()).isEqualTo("1.2.3");
                    assertThat(b.origin()).isEqualTo(java.nio.file.Path.of(origin).toString());
                });
    }

    @Test
    void aProviderClassOfferedTwiceCountsOnce() {
        BackendCatalog twice = BackendCatalog.discover(List.of(BackendSource.builtIn(), BackendSource.builtIn()));
        assertThat(twice.all()).hasSameSizeAs(catalog.all());
        assertThat(twice.select(StorageEngineProvider.class, "storage.engine", "memory"))
                .isInstanceOf(TestProviders.Memory.class);
    }

    @Test
    void sameNameFromTwoSourcesIsAConflict() {
        BackendSource plugins = fixedSource(new StorageEngineProvider() {
            @Override
            public String name() {
                return "memory";
            }

            @Override
            public int spiVersion() {
                return io.kaas.api.plugin.SpiVersion.MAJOR;
            }

            @Override
            public io.kaas.api.storage.StorageEngine open(io.kaas.api.storage.EngineContext context) {
                throw new UnsupportedOperationException();
            }
        }, "plugins/memory-plugin.zip");
        BackendCatalog both = BackendCatalog.discover(List.of(BackendSource.builtIn(), plugins));
        assertThatThrownBy(() -> both.select(StorageEngineProvider.class, "storage.engine", "memory"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageContaining("claimed by 2 backends")
                .hasMessageContaining("from plugins/memory-plugin.zip");
    }

    @Test
    void anUnknownKindIsAProgrammingError() {
        assertThatThrownBy(() -> catalog.select(BackendProvider.class, "x", "memory"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Not a kind of backend");
    }

    private static BackendSource fixedSource(StorageEngineProvider provider, String origin) {
        return new BackendSource() {
            @Override
            public <P extends BackendProvider> List<Offer<P>> find(Class<P> kind) {
                return kind.isInstance(provider) ? List.of(new Offer<>(kind.cast(provider), origin)) : List.of();
            }
        };
    }
}
