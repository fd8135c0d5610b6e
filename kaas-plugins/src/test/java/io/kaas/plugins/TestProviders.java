package io.kaas.plugins;

import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;

/** Test-only backends, registered in src/test/resources/META-INF/services. */
public final class TestProviders {
    private TestProviders() {
    }

    /** Shared body: these providers are only ever described and selected, never opened. */
    public abstract static class Engine implements StorageEngineProvider {
        @Override
        public StorageEngine open(EngineContext context) {
            throw new UnsupportedOperationException("test provider");
        }

        @Override
        public int spiVersion() {
            return SpiVersion.MAJOR;
        }
    }

    public static final class Memory extends Engine {
        @Override
        public String name() {
            return "memory";
        }

        @Override
        public String version() {
            return "1.2.3";
        }
    }

    public static final class TwinA extends Engine {
        @Override
        public String name() {
            return "twin";
        }
    }

    public static final class TwinB extends Engine {
        @Override
        public String name() {
            return "twin";
        }
    }

    public static final class Future extends Engine {
        @Override
        public String name() {
            return "future";
        }

        @Override
        public int spiVersion() {
            return SpiVersion.MAJOR + 1;
        }
    }

    /** Cannot be instantiated: discovery must skip it and go on. */
    public static final class Broken extends Engine {
        public Broken() {
            throw new IllegalStateException("broken on purpose");
        }

        @Override
        public String name() {
            return "broken";
        }
    }

    /** Throws when asked its name: discovery must skip it and go on. */
    public static final class Nameless extends Engine {
        @Override
        public String name() {
            throw new IllegalStateException("no name on purpose");
        }
    }

    public static final class Store implements ClusterStateStoreProvider {
        @Override
        public String name() {
            return "test-store";
        }

        @Override
        public ClusterStateStore open(ClusterStoreContext context) {
            throw new UnsupportedOperationException("test provider");
        }

        @Override
        public int spiVersion() {
            return SpiVersion.MAJOR;
        }
    }

    public static final class Authorizers implements AuthorizerProvider {
        @Override
        public String name() {
            return "test-acl";
        }

        @Override
        public Authorizer open(AuthorizerContext context) {
            throw new UnsupportedOperationException("test provider");
        }

        @Override
        public int spiVersion() {
            return SpiVersion.MAJOR;
        }
    }
}
