package io.kaas.broker.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.config.AdminListener;
import io.kaas.broker.metrics.BrokerMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The console's static route: every file with its type and headers, unknown names 404, traversal refused. */
class ConsoleAssetsTest {

    private static final Path SOURCES = Path.of("src/main/resources/io/kaas/broker/console/assets");
    private final ConsoleAssets assets = ConsoleAssets.load();

    @Test
    void everyFileInTheSourcesIsListedAndServedWithItsTypeAndTheSecurityHeaders() throws IOException {
        Set<String> onDisk;
        try (Stream<Path> files = Files.list(SOURCES)) {
            onDisk = files.map(f -> f.getFileName().toString()).filter(n -> !n.equals("assets.txt"))
                .collect(Collectors.toSet());
        }
        assertThat(assets.names()).containsExactlyInAnyOrderElementsOf(onDisk);
        for (String name : onDisk) {
            Answer served = assets.get("/console/" + name).orElseThrow();
            assertThat(served.status()).as(name).isEqualTo(200);
            assertThat(served.body()).as(name).isEqualTo(Files.readAllBytes(SOURCES.resolve(name)));
            assertThat(served.headers()).as(name)
                .containsEntry("Cache-Control", "no-cache")
                .containsEntry("X-Content-Type-Options", "nosniff")
                .containsEntry("Content-Security-Policy", ConsoleAssets.CONTENT_SECURITY_POLICY);
        }
        assertThat(assets.get("/console/app.js").orElseThrow().contentType()).isEqualTo("text/javascript; charset=utf-8");
        assertThat(assets.get("/console/style.css").orElseThrow().contentType()).isEqualTo("text/css; charset=utf-8");
        assertThat(assets.get("/console/favicon.svg").orElseThrow().contentType()).isEqualTo("image/svg+xml");
        assertThat(assets.get("/console/index.html").orElseThrow().contentType()).isEqualTo("text/html; charset=utf-8");
    }

    @Test
    void theRootServesTheIndexAndTheBareNameRedirectsToIt() {
        Answer root = assets.get("/console/").orElseThrow();
        assertThat(root.status()).isEqualTo(200);
        assertThat(root.contentType()).isEqualTo("text/html; charset=utf-8");
        assertThat(new String(root.body(), StandardCharsets.UTF_8)).contains("<script type=\"module\" src=\"app.js\">");
        Answer bare = assets.get("/console").orElseThrow();
        assertThat(bare.status()).isEqualTo(302);
        assertThat(bare.headers()).containsEntry("Location", "/console/");
    }

    @Test
    void anUnknownFileIs404() {
        Answer served = assets.get("/console/nope.js").orElseThrow();
        assertThat(served.status()).isEqualTo(404);
        assertThat(new String(served.body(), StandardCharsets.UTF_8)).contains("not found: /console/nope.js");
        assertThat(served.headers()).containsEntry("Cache-Control", "no-store");
        assertThat(assets.get("/console/assets.txt").orElseThrow().status()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/console/../metrics", "/console/..", "/console/./index.html", "/console/.",
        "/console/%2e%2e/metrics", "/console/%2E%2E%2Fmetrics", "/console/..%2fmetrics", "/console/.%2e/metrics",
        "/console//etc/passwd", "/console/a\\..\\b", "/console/index.html%00", "/console/%69ndex.html",
        "/console/../../../../etc/passwd", "/console/..;/metrics", "/console/.hidden"})
    void traversalAndEncodedPathsAreRefused(String path) {
        Answer served = assets.get(path).orElseThrow();
        assertThat(served.status()).isEqualTo(400);
        assertThat(new String(served.body(), StandardCharsets.UTF_8)).startsWith("refused path: ");
    }

    /** The CSP forbids inline script and style attributes: the pages must not need them. */
    @Test
    void thePagesUseNoInlineScriptNorInlineStyleNorHtmlParsing() throws IOException {
        String index = Files.readString(SOURCES.resolve("index.html"));
        Matcher scripts = Pattern.compile("<script([^>]*)>(.*?)</script>", Pattern.DOTALL).matcher(index);
        int count = 0;
        while (scripts.find()) {
            count++;
            assertThat(scripts.group(1)).contains("src=");
            assertThat(scripts.group(2)).isBlank();
        }
        assertThat(count).isEqualTo(1);
        assertThat(index).doesNotContainPattern("\\son[a-z]+=").doesNotContain("style=");
        for (String name : assets.names()) {
            if (name.endsWith(".js")) {
                String js = Files.readString(SOURCES.resolve(name)).replace("\"http://www.w3.org/2000/svg\"", "")
                    .replace("'http://www.w3.org/2000/svg'", "");
                assertThat(js).as(name).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "eval(",
                    "new Function", "document.write", "'style'", "\"style\"", "http://", "https://");
            }
        }
    }

    @Test
    void overHttpTheRawPathIsCheckedAndTheHeadersSent() throws Exception {
        BrokerMetrics metrics = new BrokerMetrics();
        try (AdminServer server = AdminServer.start(new AdminListener("127.0.0.1", 0), metrics,
                new Readiness(() -> true, () -> true, () -> null), true)) {
            server.assets(ConsoleAssets.load());
            for (String path : List.of("/console/../metrics", "/console/%2e%2e/metrics", "/console/..%2Fmetrics")) {
                String answer = get(server.port(), path);
                assertThat(answer).as(path).startsWith("HTTP/1.1 400 ").contains("refused path")
                    .doesNotContain("jvm_");
            }
            String app = get(server.port(), "/console/app.js");
            assertThat(app).startsWith("HTTP/1.1 200 ")
                .containsIgnoringCase("content-type: text/javascript; charset=utf-8")
                .containsIgnoringCase("cache-control: no-cache")
                .containsIgnoringCase("content-security-policy: " + ConsoleAssets.CONTENT_SECURITY_POLICY)
                .contains("import { overviewPage }");
            assertThat(get(server.port(), "/console")).startsWith("HTTP/1.1 302 ")
                .containsIgnoringCase("location: /console/");
            assertThat(get(server.port(), "/console/missing.css")).startsWith("HTTP/1.1 404 ");
            assertThat(request(server.port(), "POST /console/app.js HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                + "Connection: close\r\n\r\n")).startsWith("HTTP/1.1 405 ");
        } finally {
            metrics.close();
        }
    }

    private static String get(int port, String path) throws IOException {
        return request(port, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    }

    private static String request(int port, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
