package io.kaas.broker.it.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One kaas broker ({@code io.kaas.broker.Main}) in a JVM of its own, on this test's class path, so that a test can
 * SIGKILL it, freeze it with SIGSTOP and resume it with SIGCONT by its pid. Its output goes to its own log file.
 */
public final class BrokerProcess {
    private final int nodeId;
    private final int port;
    private final Path log;
    private final Process process;

    private BrokerProcess(int nodeId, int port, Path log, Process process) {
        this.nodeId = nodeId;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    /**
     * Starts broker {@code nodeId} on 127.0.0.1:{@code port} with {@code settings} ({@code key=value}, passed as
     * {@code --override}); returns once it accepts connections (at most 60 s).
     */
    public static BrokerProcess start(int nodeId, int port, Path log, List<String> settings) throws IOException {
        Process p = launch(nodeId, port, log, settings);
        BrokerProcess broker = new BrokerProcess(nodeId, port, log, p);
        broker.awaitListening();
        return broker;
    }

    /** Starts a broker that is expected to refuse to start; returns its process (wait for its exit). */
    public static Process launch(int nodeId, int port, Path log, List<String> settings) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), "io.kaas.broker.Main",
                "--override", "node.id=" + nodeId,
                "--override", "listeners=PLAINTEXT://127.0.0.1:" + port,
                "--override", "admin.listener=http://127.0.0.1:0"));
        for (String s : settings) {
            command.add("--override");
            command.add(s);
        }
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    private void awaitListening() throws IOException {
        try {
            Awaitility.await("broker " + nodeId + " listening on 127.0.0.1:" + port).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("broker " + nodeId + " exited: " + Files.readString(log));
                        }
                        return accepts(port);
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("broker " + nodeId + " not listening after 60 s: " + Files.readString(log), e);
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    public int nodeId() {
        return nodeId;
    }

    public int port() {
        return port;
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no flush, no clean-shutdown marker; waits for the process to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM: a graceful shutdown; waits for it (at most 60 s, then SIGKILL). */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            kill();
        }
    }

    /** SIGSTOP: the JVM stops running (as in a long GC pause, or a host frozen); its sockets stay open. */
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #freeze}: the JVM runs on where it stopped. */
    public void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }
}
