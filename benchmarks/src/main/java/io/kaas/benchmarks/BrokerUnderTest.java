package io.kaas.benchmarks;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One broker configuration of the comparison, started as its own JVM with a fresh data dir. */
abstract class BrokerUnderTest {

    /**
     * A started broker: its process, its (PLAINTEXT) port, the port the workloads' clients use (an SSL listener's
     * in a TLS run, else the same), and when it was started and first answered Metadata.
     */
    record Running(Process process, int port, int clientPort, long startedNanos, long firstMetadataNanos) {
        /** The PLAINTEXT listener: start-up probe, topic creation. */
        String bootstrap() {
            return "127.0.0.1:" + port;
        }

        /** Where the workloads connect. */
        String clientBootstrap() {
            return "127.0.0.1:" + clientPort;
        }

        double startupMillis() {
            return (firstMetadataNanos - startedNanos) / 1e6;
        }

        void stop() throws InterruptedException {
            process.destroy(); // SIGTERM: both brokers shut down cleanly on it
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The label in the results, e.g. {@code kaas}, {@code kafka}, {@code kafka-flush1}. */
    abstract String label();

    /** One line on durability and JVM settings for the report. */
    abstract String describe();

    /** The command that starts the broker in the foreground. */
    abstract List<String> command(Path workDir, Path dataDir, int port) throws IOException;

    /** The certificates of a TLS run (the broker adds an SSL listener, the clients use it), or null. */
    TlsMaterial tls() {
        return null;
    }

    /** The SSL listener's port in a TLS run, chosen by {@link #start}; 0 otherwise. */
    int sslPort;

    /** Starts, and returns once the broker answers Metadata. */
    Running start(Path workDir) throws IOException, InterruptedException {
        Path dataDir = Files.createDirectories(workDir.resolve("data"));
        int port = freePort();
        sslPort = tls() == null ? 0 : freePort();
        List<String> command = command(workDir, dataDir, port);
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(workDir.resolve("broker.log").toFile());
        long started = System.nanoTime();
        Process p = pb.start();
        try {
            long first = MetadataProbe.awaitFirstMetadata(port, started + TimeUnit.SECONDS.toNanos(120), p);
            return new Running(p, port, tls() == null ? port : sslPort, started, first);
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw new IOException(label() + " did not start (see " + workDir.resolve("broker.log") + "): " + e.getMessage(), e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
