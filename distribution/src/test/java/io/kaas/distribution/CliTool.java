package io.kaas.distribution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a Kafka CLI tool class from kafka-tools as its own JVM, on this test's class path, the way
 * {@code kafka-run-class.sh} would. Output goes to files (no pipe can fill up and stall the tool),
 * the run is bounded, and a tool that overruns is killed.
 */
final class CliTool {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private final Path workDir;
    private final Path logbackConfig;
    private int runs;

    /** @param workDir where the tools' stdin/stdout/stderr files go */
    CliTool(Path workDir, Path logbackConfig) {
        this.workDir = workDir;
        this.logbackConfig = logbackConfig;
    }

    /** What a tool printed and how it exited. */
    record Result(String command, int exitCode, String stdout, String stderr) {

        List<String> stdoutLines() {
            return stdout.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        }

        @Override
        public String toString() {
            return command + "\n  exit code: " + exitCode + "\n  stdout:\n" + stdout + "\n  stderr:\n" + stderr;
        }
    }

    Result run(String mainClass, String... args) throws IOException, InterruptedException {
        return runWithInput(mainClass, "", args);
    }

    /** Runs {@code mainClass} with {@code args}, feeding it {@code stdin}; waits at most {@link #TIMEOUT}. */
    Result runWithInput(String mainClass, String stdin, String... args) throws IOException, InterruptedException {
        int n = ++runs;
        String name = String.format("%02d-%s", n, mainClass.substring(mainClass.lastIndexOf('.') + 1));
        Path in = Files.writeString(workDir.resolve(name + ".stdin"), stdin, StandardCharsets.UTF_8);
        Path out = workDir.resolve(name + ".stdout");
        Path err = workDir.resolve(name + ".stderr");

        List<String> command = new ArrayList<>(List.of(
            javaExecutable().toString(),
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-Dlogback.configurationFile=" + logbackConfig,
            "-cp", System.getProperty("java.class.path"),
            mainClass));
        command.addAll(List.of(args));
        String shown = mainClass + " " + String.join(" ", args);

        Process process = new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectInput(in.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
        try {
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("timed out after " + TIMEOUT + ": " + shown
                    + "\n  stdout:\n" + Files.readString(out) + "\n  stderr:\n" + Files.readString(err));
            }
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
        return new Result(shown, process.exitValue(), Files.readString(out), Files.readString(err));
    }

    static Path javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }
}
