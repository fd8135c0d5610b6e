package io.kaas.broker.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** {@code io.kaas.broker.Main} in its own JVM on this test's class path, for tests that kill it with SIGKILL. */
public final class BrokerJvm {
    private final Process process;

    private BrokerJvm(Process process) {
        this.process = process;
    }

    /** A port that was free a moment ago, for a broker that must come back on the same port after a kill. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /**
     * Starts a broker over {@code data} on 127.0.0.1:{@code port}, its output appended to {@code log}, with
     * {@code overrides} ({@code key=value}) on top; returns once it accepts connections (at most 30 s).
     */
    public static BrokerJvm start(Path data, int port, Path log, String... overrides) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "io.kaas.broker.Main", "--override", "node.id=1",
                "--override", "listeners=PLAINTEXT://127.0.0.1:" + port,
                "--override", "admin.listener=http://127.0.0.1:0",
                "--override", "log.dirs=" + data));
        for (String override : overrides) {
            command.add("--override");
            command.add(override);
        }
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        BrokerJvm broker = new BrokerJvm(pb.start());
        broker.awaitListening(port, log);
        return broker;
    }

    private void awaitListening(int port, Path log) throws IOException {
        try {
            Awaitility.await("broker listening on 127.0.0.1:" + port).atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("broker exited: " + Files.readString(log));
                        }
                        return accepts(port);
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("broker not listening after 30 s: " + Files.readString(log), e);
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

    /** SIGKILL: no shutdown hook, no flush, no clean-shutdown marker. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
