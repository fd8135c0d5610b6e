package io.kaas.broker.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.metrics.BrokerMetrics;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The admin endpoint's router with the console on and off ({@code admin.console.enabled}). */
class AdminRoutesTest {

    private final Readiness ready = new Readiness(() -> true, () -> true, () -> null);

    private static String body(Answer a) {
        return new String(a.body(), StandardCharsets.UTF_8);
    }

    @Test
    void withTheConsoleOffOnlyMetricsHealthAndReadyAreServed() {
        try (BrokerMetrics metrics = new BrokerMetrics()) {
            AdminRoutes routes = new AdminRoutes(metrics, ready, false);
            routes.console(request -> Answer.text(200, "console"));
            routes.assets(path -> Optional.of(Answer.text(200, "asset")));
            assertThat(routes.answer("GET", "/api/v1/overview", null).status()).isEqualTo(404);
            assertThat(routes.answer("GET", "/console/", null).status()).isEqualTo(404);
            assertThat(routes.answer("GET", "/", null).status()).isEqualTo(404);
            assertThat(routes.answer("GET", "/health", null).status()).isEqualTo(200);
        }
    }

    @Test
    void withTheConsoleOnItsRoutesGoToTheApiAndTheAssets() {
        try (BrokerMetrics metrics = new BrokerMetrics()) {
            AdminRoutes routes = new AdminRoutes(metrics, ready, true);
            Answer starting = routes.answer("GET", "/api/v1/overview", null);
            assertThat(starting.status()).isEqualTo(503);
            assertThat(starting.contentType()).startsWith("application/json");
            assertThat(body(starting)).contains("\"error\":\"NOT_READY\"");
            assertThat(routes.answer("GET", "/console/app.js", null).status()).as("no assets yet").isEqualTo(404);

            routes.console(request -> Answer.text(200, "api " + request.method() + " " + request.path() + " "
                + request.query()));
            routes.assets(path -> path.equals("/console/") ? Optional.of(Answer.text(200, "index")) : Optional.empty());
            assertThat(body(routes.answer(new AdminRequest("POST", "/api/v1/topics", "", Map.of(), new byte[0], null))))
                .isEqualTo("api POST /api/v1/topics \n");
            assertThat(body(routes.answer("GET", "/api/v1/topics?q=a", null))).isEqualTo("api GET /api/v1/topics q=a\n");
            assertThat(body(routes.answer("GET", "/console/", null))).isEqualTo("index\n");
            assertThat(routes.answer("GET", "/console/missing.css", null).status()).isEqualTo(404);
            assertThat(routes.answer("POST", "/console/", null).status()).isEqualTo(405);
            Answer root = routes.answer("GET", "/", null);
            assertThat(root.status()).isEqualTo(302);
            assertThat(root.headers()).containsEntry("Location", "/console/");
            assertThat(routes.answer("GET", "/apis", null).status()).isEqualTo(404);
        }
    }
}
