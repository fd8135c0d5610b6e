package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Clients that are not Java (kafkajs through node, kcat): found on the PATH, run with a bounded wait. */
public final class ExternalProcesses {

    private ExternalProcesses() {
    }

    /** The executable {@code command} on the PATH, or null. */
    public static String onPath(String command) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, command);
            if (!d.isEmpty() && Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /**
     * kafkajs 2 from npm, installed once under {@code target/kafkajs} (skips the test when node or npm is missing);
     * the directory to run scripts in.
     */
    public static Path kafkajs() throws Exception {
        assumeTrue(onPath("node") != null && onPath("npm") != null, "node and npm are not installed: kafkajs tests skipped");
        Path work = Files.createDirectories(Path.of("target", "kafkajs").toAbsolutePath());
        if (!Files.exists(work.resolve("node_modules/kafkajs/package.json"))) {
            run(work, Duration.ofSeconds(240), "npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix",
                work.toString(), "kafkajs@2");
        }
        return work;
    }

    /** Runs {@code command} in {@code work}, at most {@code timeout}; its output (stdout and stderr); fails on a non-zero exit. */
    public static String run(Path work, Duration timeout, String... command) throws Exception {
        Path log = Files.createTempFile(work, "run-", ".log");
        Process p = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        p.getOutputStream().close();
        boolean exited = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(exited).as("%s finished in %s: %s", List.of(command), timeout, output).isTrue();
        assertThat(p.exitValue()).as("%s: %s", List.of(command), output).isZero();
        return output;
    }
}
