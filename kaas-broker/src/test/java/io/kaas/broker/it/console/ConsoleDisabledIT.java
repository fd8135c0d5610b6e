package io.kaas.broker.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code admin.console.enabled=false}: the admin endpoint serves /metrics, /health and /ready only. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleDisabledIT {

    @TempDir
    Path dir;

    @Test
    void theConsoleRoutesAreNotServed() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("admin.console.enabled", "false").start()) {
            ConsoleHttp http = new ConsoleHttp(broker.broker.adminPort());
            assertThat(http.get("/api/v1/overview").status()).isEqualTo(404);
            assertThat(http.get("/console/").status()).isEqualTo(404);
            assertThat(http.get("/").status()).isEqualTo(404);
            assertThat(http.post("/api/v1/topics", Map.of("name", "t", "partitions", 1)).status()).isEqualTo(404);
            assertThat(http.get("/health").status()).isEqualTo(200);
            assertThat(http.get("/metrics").status()).isEqualTo(200);
            try (var admin = broker.admin()) {
                assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).doesNotContain("t");
            }
        }
    }
}
