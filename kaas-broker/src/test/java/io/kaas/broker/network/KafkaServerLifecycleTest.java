package io.kaas.broker.network;

import io.kaas.broker.config.SecurityProtocol;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.request.HandlerRegistry;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.HeartbeatRequestData;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class KafkaServerLifecycleTest {

    @Test
    void closeDrainsRequestsAlreadyReadThenStopsAccepting() throws Exception {
        NetworkSettings settings = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, 1 << 20, 1, 2, 100, -1, -1,
            Duration.ofSeconds(5), Duration.ZERO);
        KafkaServer server = new KafkaServer(settings);
        int port = server.start(HandlerRegistry.of(List.of(NetworkBadInputTest.FakeHeartbeat.served()))).getPort();
        try (RawClient c = new RawClient(port)) {
            c.send(ApiMessageType.HEARTBEAT, (short) 4, 77,
                new HeartbeatRequestData().setGroupId("g").setMemberId("m").setGenerationId(300));
            await("the request in flight").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> server.inFlightRequests() != 0);
            assertThat(server.inFlightRequests()).isEqualTo(1);
            Thread closer = new Thread(server::close);
            closer.start();
            assertThat(c.read(ApiMessageType.HEARTBEAT, (short) 4).correlationId()).isEqualTo(77);
            closer.join(10_000);
            assertThat(closer.isAlive()).isFalse();
            assertThat(c.closedByServer()).isTrue();
        }
        assertThatThrownBy(() -> new RawClient(port).close()).isInstanceOf(IOException.class);
    }

    @Test
    void closesConnectionsIdleForConnectionsMaxIdleMs() throws Exception {
        NetworkSettings settings = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, 1 << 20, 1, 1, 100, -1, -1,
            Duration.ofSeconds(1), Duration.ofMillis(300));
        try (KafkaServer server = new KafkaServer(settings)) {
            int port = server.start(HandlerRegistry.of(List.of())).getPort();
            try (RawClient c = new RawClient(port)) {
                assertThat(c.apiVersions((short) 3, 1).errorCode()).isZero();
                long began = System.nanoTime();
                assertThat(c.closedByServer()).isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - began)).isGreaterThan(Duration.ofMillis(200));
            }
        }
    }
}
