package io.kaas.broker.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web console's static files under {@code /console/}: the pages' HTML, JavaScript modules, CSS and icon, built
 * into this jar (resources {@code io/kaas/broker/console/assets/}, the served names listed in its
 * {@code assets.txt}) and read once into memory. Only listed names are served, each with its content type,
 * {@code Cache-Control: no-cache} (so an upgraded broker's pages are picked up at once) and a strict
 * Content-Security-Policy (scripts and styles from this origin only, no inline script, no framing). Paths with
 * {@code ..}, {@code .}, empty segments, backslashes or percent-encoding are refused with 400 before any lookup.
 */
public final class ConsoleAssets implements StaticAssets {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleAssets.class);
    /** The console's root; {@code /console} itself redirects here. */
    public static final String ROOT = "/console/";
    static final String RESOURCES = "/io/kaas/broker/console/assets/";
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
        + "img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
        + "form-action 'self'; frame-ancestors 'none'";
    private static final Pattern SAFE_PATH = Pattern.compile("/console(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*/?");

    private final Map<String, byte[]> files;

    private ConsoleAssets(Map<String, byte[]> files) {
        this.files = files;
    }

    /** Reads every asset {@code assets.txt} lists from this module's resources. */
    public static ConsoleAssets load() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        String list = new String(read("assets.txt"), StandardCharsets.UTF_8);
        for (String line : list.split("\n")) {
            String name = line.trim();
            if (!name.isEmpty() && !name.startsWith("#")) {
                files.put(name, read(name));
            }
        }
        return new ConsoleAssets(Map.copyOf(files));
    }

    private static byte[] read(String name) {
        try (InputStream in = ConsoleAssets.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("console asset " + RESOURCES + name + " is missing from the broker jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read console asset " + RESOURCES + name, e);
        }
    }

    /** The names served (relative to {@code /console/}). */
    public java.util.Set<String> names() {
        return files.keySet();
    }

    /**
     * The answer for a request path (as received, without the query string) equal to {@code /console} or under
     * {@code /console/}: 302 to {@code /console/}, the asset, 400 for a refused path, 404 for an unknown one
     * (never empty: the refusals carry the same security headers as the assets).
     */
    @Override
    public Optional<Answer> get(String rawPath) {
        return Optional.of(answer(rawPath));
    }

    private Answer answer(String rawPath) {
        if (rawPath.equals("/console")) {
            Map<String, String> headers = securityHeaders();
            headers.put("Location", ROOT);
            return text(302, "moved to " + ROOT, headers);
        }
        if (!SAFE_PATH.matcher(rawPath).matches()) {
            LOG.atWarn().addKeyValue("path", rawPath)
                .log("console: refused the path {} (only plain file names under {} are served; no '..', '.', "
                    + "'//', '\\' or %-encoding)", printable(rawPath), ROOT);
            return text(400, "refused path: " + printable(rawPath) + " (the console serves plain file names under "
                + ROOT + ")", securityHeaders());
        }
        String name = rawPath.equals(ROOT) ? "index.html" : rawPath.substring(ROOT.length());
        byte[] body = files.get(name);
        if (body == null) {
            return text(404, "not found: " + rawPath + " (no such console file)", securityHeaders());
        }
        Map<String, String> headers = securityHeaders();
        headers.put("Cache-Control", "no-cache");
        return new Answer(200, contentType(name), body, headers);
    }

    static String contentType(String name) {
        String ext = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        switch (ext) {
            case "html":
                return "text/html; charset=utf-8";
            case "js":
                return "text/javascript; charset=utf-8";
            case "css":
                return "text/css; charset=utf-8";
            case "svg":
                return "image/svg+xml";
            case "json":
                return "application/json; charset=utf-8";
            case "png":
                return "image/png";
            case "txt":
                return "text/plain; charset=utf-8";
            default:
                return "application/octet-stream";
        }
    }

    private static Map<String, String> securityHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Cache-Control", "no-store");
        return headers;
    }

    private static Answer text(int status, String text, Map<String, String> headers) {
        return new Answer(status, Answer.PLAIN, (text + "\n").getBytes(StandardCharsets.UTF_8), headers);
    }

    /** The path as it may be logged and echoed: control characters replaced, at most 200 characters. */
    private static String printable(String path) {
        String p = path.length() > 200 ? path.substring(0, 200) + "..." : path;
        return p.replaceAll("\\p{Cntrl}", "?");
    }
}
