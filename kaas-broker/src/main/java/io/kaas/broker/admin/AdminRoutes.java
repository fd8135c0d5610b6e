package io.kaas.broker.admin;

import io.kaas.broker.metrics.BrokerMetrics;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The admin endpoint's router: /metrics, /health and /ready as always; with the console enabled
 * ({@code admin.console.enabled}) also {@code /api/v1/...} to the console's JSON API, {@code /console} and
 * {@code /console/...} to its static assets, and {@code /} redirected to {@code /console/}; 404 and 405 else.
 * The console API and assets are attached once the broker has them (the API answers 503 until then).
 */
final class AdminRoutes {

    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    static final String API_PREFIX = "/api/v1";
    static final String CONSOLE_PREFIX = "/console";

    private final BrokerMetrics metrics;
    private final Readiness readiness;
    private final boolean consoleEnabled;
    private volatile ConsoleApi console;
    private volatile StaticAssets assets;

    AdminRoutes(BrokerMetrics metrics, Readiness readiness) {
        this(metrics, readiness, false);
    }

    AdminRoutes(BrokerMetrics metrics, Readiness readiness, boolean consoleEnabled) {
        this.metrics = metrics;
        this.readiness = readiness;
        this.consoleEnabled = consoleEnabled;
    }

    void console(ConsoleApi api) {
        this.console = api;
    }

    void assets(StaticAssets staticAssets) {
        this.assets = staticAssets;
    }

    /** The answer to a GET-style request without body (the tests' and /metrics' form). */
    Answer answer(String method, String uri, String accept) {
        AdminRequest request = AdminRequest.of(method, uri);
        if (accept != null) {
            request = new AdminRequest(request.method(), request.path(), request.query(), Map.of("accept", accept),
                request.body(), null);
        }
        return answer(request);
    }

    Answer answer(AdminRequest request) {
        String path = request.path();
        String method = request.method();
        if (consoleEnabled) {
            if (path.equals(API_PREFIX) || path.startsWith(API_PREFIX + "/")) {
                ConsoleApi api = console;
                return api == null ? ConsoleErrors.json(503, "NOT_READY", "the console API is not available until "
                    + "the broker has started") : api.handle(request);
            }
            if (path.equals(CONSOLE_PREFIX) || path.startsWith(CONSOLE_PREFIX + "/")) {
                if (!"GET".equals(method) && !"HEAD".equals(method)) {
                    return Answer.text(405, "method " + method + " not allowed on " + path + " (use GET)");
                }
                StaticAssets a = assets;
                Optional<Answer> found = a == null ? Optional.empty() : a.get(path);
                return found.orElseGet(() -> Answer.text(404, "not found: " + path));
            }
            if (path.equals("/") || path.isEmpty()) {
                return Answer.redirect(CONSOLE_PREFIX + "/");
            }
        }
        boolean known = path.equals("/metrics") || path.equals("/health") || path.equals("/ready");
        if (!known) {
            return Answer.text(404, "not found: " + path + " (the admin endpoint serves /metrics, /health, /ready"
                + (consoleEnabled ? ", /console/ and /api/v1/" : "") + ")");
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
                String accept = request.header("accept");
                boolean openMetrics = accept != null
                    && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text");
                String type = openMetrics ? OPENMETRICS_TEXT : PROMETHEUS_TEXT;
                return new Answer(200, type, metrics.scrape(type).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
