package io.kaas.broker.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code kafka-configs} (org.apache.kafka.tools.ConfigCommand, Kafka 4.4's tools) against a broker in its own JVM, as the
 * script runs it, with this test's class path; at most 60 s.
 */
public final class KafkaConfigsTool {

    /** The tool's exit code and its output (stdout and stderr). */
    public record Run(int exitCode, String out) {
    }

    private KafkaConfigsTool() {
    }

    public static Run run(TestBroker broker, String... args) throws IOException, InterruptedException {
        String classpath = System.getProperty("java.class.path");
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null && !modulePath.isEmpty()) {
            classpath = classpath + File.pathSeparator + modulePath;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", classpath, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server", broker.bootstrap()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kafka-configs " + String.join(" ", args) + " did not finish");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
