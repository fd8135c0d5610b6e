package io.kaas.broker.it;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Kafka Connect's distributed worker ({@code org.apache.kafka.connect.cli.ConnectDistributed}) in a JVM of its own,
 * on the class path connect-peer copies (the {@code connect.worker.lib} system property): the Connect release whose
 * FileStream connectors Maven Central serves, with that release's clients, kept off this test's class path.
 */
final class ConnectWorkerJvm implements AutoCloseable {
    private static final String LIB_PROPERTY = "connect.worker.lib";

    private final Process process;
    private final Thread stopOnJvmExit;
    final Path log;
    final URI rest;

    private ConnectWorkerJvm(Process process, Path log, URI rest) {
        this.process = process;
        this.log = log;
        this.rest = rest;
        this.stopOnJvmExit = new Thread(process::destroyForcibly, "stop-connect-worker-" + process.pid());
        Runtime.getRuntime().addShutdownHook(stopOnJvmExit);
    }

    /** The worker's jars, as connect-peer's build left them; fails with what to build when they are missing. */
    static Path lib() throws IOException {
        String dir = System.getProperty(LIB_PROPERTY);
        if (dir == null) {
            throw new IllegalStateException(LIB_PROPERTY + " is not set: run this test through kaas-broker's Failsafe");
        }
        Path lib = Path.of(dir);
        try (var jars = Files.list(lib)) {
            if (jars.noneMatch(j -> j.getFileName().toString().startsWith("connect-runtime-"))) {
                throw new IllegalStateException("no connect-runtime jar in " + lib + ": build with -am (connect-peer)");
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalStateException(lib + " does not exist: build with -am (connect-peer)", e);
        }
        return lib;
    }

    /**
     * Starts a worker of {@code group} against {@code bootstrap} with its REST API on 127.0.0.1:{@code restPort},
     * its properties, logger configuration and output in {@code dir} (the output appended to worker.log).
     */
    static ConnectWorkerJvm start(Path dir, String bootstrap, int restPort, Map<String, String> extra)
            throws IOException {
        Map<String, String> p = new TreeMap<>();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", "kaas-connect");
        p.put("listeners", "http://127.0.0.1:" + restPort);
        p.put("rest.advertised.host.name", "127.0.0.1");
        p.put("rest.advertised.port", Integer.toString(restPort));
        p.put("config.storage.topic", "connect-configs");
        p.put("offset.storage.topic", "connect-offsets");
        p.put("status.storage.topic", "connect-status");
        p.put("config.storage.replication.factor", "1");
        p.put("offset.storage.replication.factor", "1");
        p.put("status.storage.replication.factor", "1");
        p.put("offset.storage.partitions", "3");
        p.put("status.storage.partitions", "2");
        p.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        p.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        p.put("offset.flush.interval.ms", "500");
        // the connectors from their ServiceLoader manifests on the worker's class path: no scan of every jar
        p.put("plugin.discovery", "service_load");
        p.put("scheduled.rebalance.max.delay.ms", "0");
        p.putAll(extra);
        Files.createDirectories(dir);
        Path props = Files.writeString(dir.resolve("worker.properties"), p.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\n", "", "\n")));
        Path logback = Files.writeString(dir.resolve("logback.xml"), """
                <configuration>
                  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="org.apache.kafka.connect" level="INFO"/>
                  <root level="WARN"><appender-ref ref="out"/></root>
                </configuration>
                """);
        Path log = dir.resolve("worker.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=" + logback, "-cp", lib() + "/*",
                "org.apache.kafka.connect.cli.ConnectDistributed", props.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        process.getOutputStream().close();
        return new ConnectWorkerJvm(process, log, URI.create("http://127.0.0.1:" + restPort + "/"));
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The worker's output so far, for failure messages. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /**
     * SIGTERM: Connect's own shutdown hook stops the connectors and commits their offsets; SIGKILL if it has not
     * ended after 30 s. Returns the exit status.
     */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnJvmExit);
        } catch (IllegalStateException jvmExiting) {
            // the hook runs anyway
        }
        return process.isAlive() ? -1 : process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }
}
