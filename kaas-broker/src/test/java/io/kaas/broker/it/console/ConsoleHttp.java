package io.kaas.broker.it.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/** The console's JSON API over the JDK's HttpClient, as a browser's page calls it. */
public final class ConsoleHttp {
    public static final ObjectMapper JSON = new ObjectMapper();

    /** One answer: status, parsed JSON body (null if not JSON), headers. */
    public record Reply(int status, JsonNode json, String body, HttpResponse<String> raw) {
        public String error() {
            return json == null || json.get("error") == null ? null : json.get("error").asText();
        }

        public String message() {
            return json == null || json.get("message") == null ? null : json.get("message").asText();
        }

        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final String authorization;

    public ConsoleHttp(int port) {
        this(port, null);
    }

    private ConsoleHttp(int port, String authorization) {
        this.base = "http://127.0.0.1:" + port;
        this.authorization = authorization;
    }

    /** The same endpoint with HTTP Basic credentials. */
    public ConsoleHttp as(String user, String password) {
        String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return new ConsoleHttp(Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)), "Basic " + token);
    }

    public Reply get(String path) throws IOException, InterruptedException {
        return send(builder(path).GET().build());
    }

    /** A console action: JSON body, Content-Type and X-Kaas-Console set. */
    public Reply post(String path, Object body) throws IOException, InterruptedException {
        return send(action(path).POST(HttpRequest.BodyPublishers.ofString(text(body))).build());
    }

    public Reply patch(String path, Object body) throws IOException, InterruptedException {
        return send(action(path).method("PATCH", HttpRequest.BodyPublishers.ofString(text(body))).build());
    }

    /** A POST with only the headers given. */
    public Reply rawPost(String path, String body, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = builder(path).POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return send(b.build());
    }

    private HttpRequest.Builder action(String path) {
        return builder(path).header("Content-Type", "application/json").header("X-Kaas-Console", "1");
    }

    private HttpRequest.Builder builder(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    private static String text(Object body) throws IOException {
        return body instanceof String s ? s : JSON.writeValueAsString(body);
    }

    private Reply send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        JsonNode json = null;
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("application/json")) {
            json = JSON.readTree(r.body());
        }
        return new Reply(r.statusCode(), json, r.body(), r);
    }
}
