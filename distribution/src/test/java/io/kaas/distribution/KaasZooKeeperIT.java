package io.kaas.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trial ZooKeeper of the tarball: {@code bin/kaas-zookeeper-start.sh config/zookeeper.properties} from the unpacked
 * installation (on a free port), answered with ZooKeeper's four-letter words, stopped with
 * {@code bin/kaas-zookeeper-stop.sh}; its server and dependencies only in {@code lib/zookeeper/}.
 */
class KaasZooKeeperIT {
    private static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private Path install;
    private Path work;
    private final List<Process> started = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();

    @BeforeEach
    void unpackTarball() throws Exception {
        install = Tarball.unpack(tmp);
        work = Files.createDirectories(tmp.resolve("work"));
    }

    /** Kills (by pid) any server still running, then keeps its output under target/it-logs. */
    @AfterEach
    void stopAndKeepLogs(TestInfo test) throws Exception {
        for (Process p : started) {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        Path keep = Path.of(System.getProperty("kaas.it.logs", "target/it-logs"))
            .resolve(getClass().getSimpleName() + "-" + test.getTestMethod().orElseThrow().getName());
        Files.createDirectories(keep);
        for (Path log : logs) {
            Files.copy(log, keep.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void theShippedConfigStartsAStandaloneServerThatAnswersAndStops() throws Exception {
        assertThat(Files.getPosixFilePermissions(install.resolve("bin/kaas-zookeeper-start.sh")))
            .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
        assertThat(Files.getPosixFilePermissions(install.resolve("bin/kaas-zookeeper-stop.sh")))
            .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
        int port = freePort();
        Path config = shippedConfigOnPort(port);
        Path log = work.resolve("zookeeper.log");
        Process zk = start(log, config.toString());

        awaitAnswer(zk, log, port);
        assertThat(fourLetterWord(port, "srvr")).contains("Mode: standalone").contains("Zookeeper version: 3.9.5");
        // dataDir=./data/zookeeper resolves against the directory it was started from, like the broker's ./data.
        assertThat(work.resolve("data/zookeeper/version-2")).isDirectory();
        // Only the whitelisted words are answered.
        assertThat(fourLetterWord(port, "conf")).contains("is not executed because it is not in the whitelist");

        Process stop = new ProcessBuilder(install.resolve("bin/kaas-zookeeper-stop.sh").toString())
            .redirectErrorStream(true).start();
        assertThat(stop.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(stop.exitValue()).as(new String(stop.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        assertThat(zk.waitFor(30, TimeUnit.SECONDS)).as("ZooKeeper exits on SIGTERM\n%s", Files.readString(log)).isTrue();

        Process again = new ProcessBuilder(install.resolve("bin/kaas-zookeeper-stop.sh").toString())
            .redirectErrorStream(true).start();
        assertThat(again.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).isEqualTo(1);
        assertThat(new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
            .contains("No kaas ZooKeeper server to stop");
    }

    /**
     * The server's class path is lib/zookeeper/ alone (the start script names nothing else, and the first test runs
     * it); a folder in lib/ without a module descriptor is no module to the broker's {@code -p lib}.
     */
    @Test
    void theServerAndWhatItNeedsAreInLibZooKeeper() throws IOException {
        assertThat(install.resolve("lib/zookeeper/module-info.class")).doesNotExist();
        List<String> zookeeper;
        try (Stream<Path> jars = Files.list(install.resolve("lib/zookeeper"))) {
            zookeeper = jars.map(p -> p.getFileName().toString()).toList();
        }
        for (String artifact : List.of("zookeeper-3.9.5.jar", "zookeeper-jute-3.9.5.jar", "audience-annotations-",
                "commons-io-", "metrics-core-", "snappy-java-", "slf4j-api-", "logback-classic-", "netty-handler-")) {
            assertThat(zookeeper).as("lib/zookeeper/").anyMatch(jar -> jar.startsWith(artifact));
        }
        assertThat(zookeeper).as("lib/zookeeper/ (nothing of kaas)").noneMatch(jar -> jar.startsWith("kaas-"));
        assertThat(install.resolve("config/zookeeper.properties")).isRegularFile();
        assertThat(install.resolve("config/zookeeper-logback.xml")).isRegularFile();
    }

    @Test
    void badInvocationsAndConfigsFailWithALineThatSaysWhy() throws Exception {
        Path log = work.resolve("no-args.log");
        Process none = start(log);
        assertThat(none.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(none.exitValue()).isEqualTo(1);
        assertThat(Files.readString(log)).contains("USAGE:").contains("zookeeper.properties");

        Path missingLog = work.resolve("missing.log");
        Process missing = start(missingLog, "no-such.properties");
        assertThat(missing.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(missing.exitValue()).isEqualTo(1);
        assertThat(Files.readString(missingLog)).contains("config file not found: no-such.properties");

        Path bad = work.resolve("bad.properties");
        Files.writeString(bad, Files.readString(shippedConfigOnPort(freePort())).replace("tickTime=2000", "tickTime=often"));
        Path badLog = work.resolve("bad.log");
        Process invalid = start(badLog, bad.toString());
        assertThat(invalid.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(invalid.exitValue()).as(Files.readString(badLog)).isNotZero();
        assertThat(Files.readString(badLog)).contains("Invalid config").contains(bad.toString());
    }

    /** The installation's config/zookeeper.properties, with only the client port changed, in the work folder. */
    private Path shippedConfigOnPort(int port) throws IOException {
        String shipped = Files.readString(install.resolve("config/zookeeper.properties"));
        assertThat(shipped).contains("\nclientPort=2181\n").contains("\ndataDir=./data/zookeeper\n");
        Path config = work.resolve("zookeeper-" + port + ".properties");
        Files.writeString(config, shipped.replace("\nclientPort=2181\n", "\nclientPort=" + port + "\n"));
        return config;
    }

    private Process start(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(install.resolve("bin/kaas-zookeeper-start.sh").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("KAAS_ZOOKEEPER_HEAP_OPTS", "-Xms32m -Xmx128m");
        Process process = builder.start();
        started.add(process);
        logs.add(log);
        return process;
    }

    private static void awaitAnswer(Process zk, Path log, int port) throws IOException {
        try {
            Awaitility.await("ZooKeeper answers ruok and serves on " + HOST + ":" + port).atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(200)).pollInSameThread()
                .until(() -> {
                    if (!zk.isAlive()) {
                        throw new AssertionError("ZooKeeper exited with " + zk.exitValue() + "\n" + Files.readString(log));
                    }
                    try {
                        // imok comes as soon as the port is open; srvr says when it serves requests.
                        return fourLetterWord(port, "ruok").equals("imok")
                            && fourLetterWord(port, "srvr").contains("Mode: standalone");
                    } catch (IOException e) {
                        return false;
                    }
                });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("ZooKeeper did not answer within " + START_TIMEOUT + "\n" + Files.readString(log), e);
        }
    }

    private static String fourLetterWord(int port, String word) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 2000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }
}
