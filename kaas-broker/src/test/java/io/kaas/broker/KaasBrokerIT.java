package io.kaas.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.network.RawClient;
import io.kaas.plugins.BackendSelectionException;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsResponseData;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class KaasBrokerIT {

    @TempDir
    Path dataDir;

    private BrokerConfig config(Map<String, String> extra) {
        Map<String, String> values = new java.util.HashMap<>(Map.of(
            "listeners", "PLAINTEXT://127.0.0.1:0",
            "admin.listener", "http://127.0.0.1:0",
            "log.dirs", dataDir.toString(),
            "num.io.threads", "2",
            "num.network.threads", "1"));
        values.putAll(extra);
        return BrokerConfig.of(values);
    }

    @Test
    void startsOnAnEphemeralPortServesApiVersionsAndClosesIdempotently() throws IOException {
        KaasBroker broker = KaasBroker.start(config(Map.of()));
        try {
            assertThat(broker.boundPort()).isPositive();
            assertThat(broker.advertisedEndpoint()).isEqualTo(new BrokerEndpoint("PLAINTEXT", "127.0.0.1",
                broker.boundPort()));
            assertThat(broker.clusterId()).isNotBlank();
            try (RawClient c = new RawClient(broker.boundPort())) {
                ApiVersionsResponseData r = c.apiVersions((short) 3, 1);
                assertThat(r.errorCode()).isZero();
                assertThat(r.apiKeys()).anySatisfy(k -> {
                    assertThat(k.apiKey()).isEqualTo(ApiMessageType.PRODUCE.apiKey());
                    assertThat(k.minVersion()).isZero();
                });
                assertThat(r.finalizedFeatures()).extracting(ApiVersionsResponseData.FinalizedFeatureKey::name)
                    .containsExactlyInAnyOrder("transaction.version", "group.version");
            }
        } finally {
            broker.close();
            broker.close();
        }
        assertThat(Files.exists(dataDir)).isTrue();
    }

    @Test
    void restartsOnTheSameDataDirectoryWithTheSameClusterId() throws IOException {
        String first;
        try (KaasBroker broker = KaasBroker.start(config(Map.of()))) {
            first = broker.clusterId();
        }
        try (KaasBroker broker = KaasBroker.start(config(Map.of()))) {
            assertThat(broker.clusterId()).isEqualTo(first);
        }
    }

    @Test
    void unknownEngineFailsWithTheNamesThatExist() {
        assertThatThrownBy(() -> KaasBroker.start(config(Map.of("storage.engine", "nosuch"))))
            .isInstanceOf(BackendSelectionException.class)
            .hasMessageContaining("nosuch")
            .hasMessageContaining("segments");
    }

    @Test
    void aListenerPortAlreadyInUseFailsStartUpWithTheBindError() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> KaasBroker.start(config(Map.of("listeners", "PLAINTEXT://127.0.0.1:" + port))))
                .isInstanceOf(BindException.class)
                .hasMessageContaining("Socket server failed to bind to 127.0.0.1:" + port)
                .hasMessageContaining("Address already in use");
        }
        try (KaasBroker broker = KaasBroker.start(config(Map.of()))) {
            assertThat(broker.boundPort()).as("the data directory is usable after the failed start").isPositive();
        }
    }

    @Test
    void aFailedStartReleasesTheListenerItHadAlreadyBound() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        // The listener binds while the backends are looked up; an unknown engine must not leave it bound.
        assertThatThrownBy(() -> KaasBroker.start(config(Map.of("listeners", "PLAINTEXT://127.0.0.1:" + port,
                "storage.engine", "nosuch"))))
            .isInstanceOf(BackendSelectionException.class);
        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress("127.0.0.1", port));
            assertThat(again.isBound()).isTrue();
        }
    }
}
