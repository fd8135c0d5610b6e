package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The certificates of the TLS runs, made once per run with the JDK's {@code keytool} (never committed): a
 * self-signed server key store for 127.0.0.1 that both brokers use, and the clients' trust store holding its
 * certificate, both PKCS12.
 */
final class TlsMaterial {
    static final String PASSWORD = "bench-tls-pass";

    final Path keyStore;
    final Path trustStore;
    final Path clientConfig;

    private TlsMaterial(Path keyStore, Path trustStore, Path clientConfig) {
        this.keyStore = keyStore;
        this.trustStore = trustStore;
        this.clientConfig = clientConfig;
    }

    /** Makes the stores under {@code dir} (created if absent). */
    static TlsMaterial create(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path ks = dir.resolve("server.p12");
        Path ts = dir.resolve("client-trust.p12");
        Path cert = dir.resolve("server.crt");
        Files.deleteIfExists(ks);
        Files.deleteIfExists(ts);
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "7",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", ks.toString(), "-storepass", PASSWORD);
        keytool("-exportcert", "-alias", "broker", "-keystore", ks.toString(), "-storepass", PASSWORD,
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "broker", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", ts.toString(), "-storepass", PASSWORD);
        Path config = dir.resolve("client-ssl.properties");
        List<String> lines = new ArrayList<>();
        clientProperties(ts).forEach((k, v) -> lines.add(k + "=" + v));
        Files.write(config, lines);
        return new TlsMaterial(ks, ts, config);
    }

    /** The client settings of an SSL connection trusting the server certificate. */
    Map<String, String> clientProperties() {
        return clientProperties(trustStore);
    }

    private static Map<String, String> clientProperties(Path trustStore) {
        return Map.of("security.protocol", "SSL", "ssl.truststore.type", "PKCS12",
                "ssl.truststore.location", trustStore.toString(), "ssl.truststore.password", PASSWORD);
    }

    /** The broker-side keys of the server key store, as {@code key=value}. */
    List<String> brokerKeys() {
        return List.of("ssl.keystore.type=PKCS12", "ssl.keystore.location=" + keyStore, "ssl.keystore.password=" + PASSWORD);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + out);
        }
    }
}
