package io.kaas.broker.admin;

import io.kaas.broker.metrics.BrokerMetrics;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The admin endpoint's answers by method, path and Accept header: /metrics, /health, /ready; 404 and 405 else. */
final class AdminRoutes {

    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final String PLAIN = "text/plain; charset=utf-8";

    /** One answer: status, content type, body, extra response headers. */
    record Answer(int status, String contentType, byte[] body, Map<String, String> headers) {
        Answer(int status, String contentType, byte[] body) {
            this(status, contentType, body, Map.of());
        }

        static Answer text(int status, String text) {
            return new Answer(status, PLAIN, (text + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private final BrokerMetrics metrics;
    private final Readiness readiness;
    private final ConsoleAssets console = ConsoleAssets.load();

    AdminRoutes(BrokerMetrics metrics, Readiness readiness) {
        this.metrics = metrics;
        this.readiness = readiness;
    }

    Answer answer(String method, String uri, String accept) {
        String path = uri == null ? "" : uri;
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        if (path.equals("/console") || path.startsWith("/console/")) {
            if (!"GET".equals(method)) {
                return Answer.text(405, "method " + method + " not allowed on " + path + " (use GET)");
            }
            ConsoleAssets.Served served = console.get(path);
            return new Answer(served.status(), served.contentType(), served.body(), served.headers());
        }
        boolean known = path.equals("/metrics") || path.equals("/health") || path.equals("/ready");
        if (!known) {
            return Answer.text(404, "not found: " + path + " (the admin endpoint serves /metrics, /health, /ready)");
        }
        if (!"GET".equals(method)) {
            return Answer.text(405, "method " + method + " not allowed on " + path + " (use GET)");
        }
        switch (path) {
            case "/health":
                return Answer.text(200, "ok");
            case "/ready": {
                Optional<String> reason = readiness.notReadyReason();
                return reason.map(r -> Answer.text(503, "not ready: " + r)).orElseGet(() -> Answer.text(200, "ready"));
            }
            default: {
                boolean openMetrics = accept != null
                    && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text");
                String type = openMetrics ? OPENMETRICS_TEXT : PROMETHEUS_TEXT;
                return new Answer(200, type, metrics.scrape(type).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
