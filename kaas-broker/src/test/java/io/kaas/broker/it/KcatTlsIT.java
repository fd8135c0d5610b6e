package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.broker.it.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * librdkafka (kcat) over an SSL listener that requires a client certificate: it checks the broker's certificate
 * against the test CA (PEM), presents its own (PEM key and chain), produces and consumes. Skipped without kcat.
 */
@Timeout(120)
class KcatTlsIT {
    @TempDir
    static Path dir;
    static TestBroker broker;
    static List<String> tlsArgs;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(KcatIT.kcatPath() != null, "kcat is not installed");
        TestPki pki = TestPki.create("kcat-ca");
        TestPki.Identity server = pki.issue("CN=kaas-broker");
        TestPki.Identity client = pki.issue("CN=kcat-client");
        Path ca = Files.writeString(dir.resolve("ca.pem"), pki.caPem());
        Path cert = Files.writeString(dir.resolve("client.pem"), client.chainPem());
        Path key = Files.writeString(dir.resolve("client.key"), client.keyPem(null));
        broker = TestBroker.builder(dir).config(Map.of(
            "listeners", "SSL://127.0.0.1:0",
            "ssl.keystore.type", "PEM",
            "ssl.keystore.key", server.keyPem(null),
            "ssl.keystore.certificate.chain", server.chainPem(),
            "ssl.truststore.type", "PEM",
            "ssl.truststore.location", ca.toString(),
            "ssl.client.auth", "required",
            "auto.create.topics.enable", "true")).start();
        tlsArgs = List.of("-X", "security.protocol=ssl", "-X", "ssl.ca.location=" + ca,
            "-X", "ssl.certificate.location=" + cert, "-X", "ssl.key.location=" + key);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static String kcat(String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(KcatIT.kcatPath(), "-b", broker.bootstrap()));
        cmd.addAll(tlsArgs);
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kcat finished").isTrue();
        assertThat(p.exitValue()).as("kcat exit code; stderr: %s", err).isZero();
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void kcatProducesAndConsumesOverMutualTls() throws Exception {
        assertThat(kcat(null, "-L")).contains("broker 1 at 127.0.0.1:" + broker.port());
        String lines = String.join("\n", IntStream.range(0, 100).mapToObj(i -> "k" + i + ":v" + i).toList()) + "\n";
        kcat(lines, "-P", "-t", "kcat-tls", "-p", "0", "-K", ":", "-z", "lz4", "-X", "acks=all");
        String out = kcat(null, "-C", "-t", "kcat-tls", "-p", "0", "-o", "beginning", "-e", "-f", "%k=%s@%o\n");
        assertThat(out.lines().toList())
            .containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> "k" + i + "=v" + i + "@" + i).toList());
    }
}
