package io.kaas.distribution;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A broker started through the distribution's {@code bin/kaas-server-start.sh}, as an operator
 * would, with its console output in a log file. The script {@code exec}s the JVM, so this
 * process is the broker's JVM and {@link #stop} sends SIGTERM straight to it.
 */
final class BrokerProcess implements AutoCloseable {

    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path log;

    private BrokerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Runs {@code bin/kaas-server-start.sh args…} from {@code workDir}; does not wait for readiness. */
    static BrokerProcess start(Path installDir, Path workDir, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(installDir.resolve("bin/kaas-server-start.sh").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Map<String, String> env = builder.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("KAAS_HEAP_OPTS", "-Xms64m -Xmx512m");
        env.put("KAAS_OPTS", "-Dio.netty.leakDetection.level=paranoid");
        return new BrokerProcess(builder.start(), log);
    }

    /**
     * Waits, at most {@link #START_TIMEOUT}, until the port accepts and an Admin client can list
     * topics; fails early, with the broker's output, if the broker exits.
     */
    void awaitReady(String host, int port) throws IOException {
        AtomicReference<Exception> last = new AtomicReference<>();
        try {
            Awaitility.await("broker ready on " + host + ":" + port).atMost(START_TIMEOUT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250)).pollInSameThread()
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("broker exited with " + process.exitValue() + " before it was ready\n"
                            + output());
                    }
                    return accepts(host, port) && listsTopics(host + ":" + port, last);
                });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("broker not ready within " + START_TIMEOUT + " (last error: " + last.get() + ")\n"
                + output(), last.get());
        }
    }

    private static boolean listsTopics(String bootstrap, AtomicReference<Exception> last) {
        try (Admin admin = admin(bootstrap)) {
            admin.listTopics().names().get(5, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            last.set(e);
            return false;
        }
    }

    /** Sends SIGTERM and waits, at most {@link #STOP_TIMEOUT}, for the exit code. */
    int stop() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("broker did not exit within " + STOP_TIMEOUT + " of SIGTERM\n" + output());
        }
        return process.exitValue();
    }

    /** Waits, at most {@link #START_TIMEOUT}, for a broker expected to give up on its own. */
    int awaitExit() throws IOException, InterruptedException {
        if (!process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("broker still running after " + START_TIMEOUT + "\n" + output());
        }
        return process.exitValue();
    }

    String output() throws IOException {
        return "---- broker output (" + log + ") ----\n" + Files.readString(log) + "---- end of broker output ----";
    }

    /** Kills the broker if still running (a failed test must not leave a JVM behind). */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        return Admin.create(props);
    }

    private static boolean accepts(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
