package io.kaas.broker.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.ClusterSession;
import io.kaas.api.cluster.SessionState;
import io.kaas.broker.metrics.BrokerMetrics;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ReadinessTest {

    /** A session in {@code state} whose lease lasts a minute from now (the store's own view, not a mock client). */
    private static ClusterSession session(SessionState state) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        return new ClusterSession() {
            @Override
            public SessionState state() {
                return state;
            }

            @Override
            public long leaseDeadlineNanos() {
                return deadline;
            }

            @Override
            public long sessionTimeoutMs() {
                return 18_000;
            }
        };
    }

    private final AtomicBoolean bound = new AtomicBoolean();
    private final AtomicBoolean opened = new AtomicBoolean();
    private final AtomicReference<ClusterSession> store = new AtomicReference<>();
    private final Readiness readiness = new Readiness(bound::get, opened::get, store::get);

    @Test
    void namesTheFirstThingNotReadyUntilEverythingIs() {
        assertThat(readiness.notReadyReason()).hasValue("cluster store not connected yet");
        store.set(session(SessionState.SUSPENDED));
        assertThat(readiness.notReadyReason()).hasValue("cluster store session not valid (state SUSPENDED)");
        store.set(session(SessionState.CONNECTED));
        assertThat(readiness.notReadyReason()).hasValue("listeners not bound yet");
        bound.set(true);
        assertThat(readiness.notReadyReason()).hasValue("partitions assigned to this broker not all opened yet");
        opened.set(true);
        assertThat(readiness.notReadyReason()).isEmpty();
        store.set(session(SessionState.EXPIRED));
        assertThat(readiness.notReadyReason()).hasValue("cluster store session not valid (state EXPIRED)");
    }

    @Test
    void readyAnswers503WithTheReasonThen200() {
        try (BrokerMetrics metrics = new BrokerMetrics()) {
            AdminRoutes routes = new AdminRoutes(metrics, readiness);
            Answer notReady = routes.answer("GET", "/ready", null);
            assertThat(notReady.status()).isEqualTo(503);
            assertThat(new String(notReady.body(), StandardCharsets.UTF_8))
                .isEqualTo("not ready: cluster store not connected yet\n");
            store.set(session(SessionState.CONNECTED));
            bound.set(true);
            opened.set(true);
            assertThat(routes.answer("GET", "/ready", null).status()).isEqualTo(200);
            assertThat(routes.answer("GET", "/health", null).status()).isEqualTo(200);
            assertThat(routes.answer("HEAD", "/health", null).status()).isEqualTo(405);
            assertThat(routes.answer("GET", "/metrics/x", null).status()).isEqualTo(404);
            assertThat(routes.answer("GET", "/metrics", "text/plain").contentType())
                .isEqualTo(AdminRoutes.PROMETHEUS_TEXT);
            assertThat(routes.answer("GET", "/metrics", "application/openmetrics-text;q=1").contentType())
                .isEqualTo(AdminRoutes.OPENMETRICS_TEXT);
        }
    }
}
