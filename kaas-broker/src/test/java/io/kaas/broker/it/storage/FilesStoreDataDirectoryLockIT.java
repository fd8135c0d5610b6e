package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files cluster store holds its data directory for one broker: a second broker process started on the directory
 * of a running one (with the default {@code cluster.store=files}) refuses to start with one line naming the holder,
 * and the running one is unharmed; once that one stops, a broker starts on the directory again.
 */
class FilesStoreDataDirectoryLockIT {
    @TempDir
    Path dir;

    @Test
    void aSecondBrokerOnTheDataDirectoryOfARunningOneRefusesToStartWithOneLineNamingIt() throws Exception {
        Path data = dir.resolve("data");
        try (TestBroker first = TestBroker.start(data)) {
            first.createTopic("kept", 1);
            Path log = dir.resolve("second-broker.log");
            Process second = launch(data, log);
            try {
                assertThat(second.waitFor(60, TimeUnit.SECONDS)).as("the second broker gives up").isTrue();
            } finally {
                second.destroyForcibly();
            }
            String output = Files.readString(log);
            assertThat(second.exitValue()).as(output).isEqualTo(1);
            List<String> lines = output.lines().filter(l -> l.startsWith("kaas: ")).toList();
            assertThat(lines).as(output).hasSize(1);
            assertThat(lines.get(0)).contains("data directory " + data.toRealPath()
                    + " is in use by broker 1 (pid " + ProcessHandle.current().pid() + " on host "
                    + InetAddress.getLocalHost().getHostName()
                    + ") with the files cluster store; a second broker needs cluster.store=zookeeper");

            try (KafkaProducer<String, String> producer = first.producer()) {
                producer.send(new ProducerRecord<>("kept", "k", "v")).get(30, TimeUnit.SECONDS);
            }
        }
        try (TestBroker again = TestBroker.start(data); Admin admin = again.admin()) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).isEqualTo(Set.of("kept"));
        }
    }

    /** {@code io.kaas.broker.Main} as node 2 over {@code data}, in its own JVM; does not wait for it. */
    private static Process launch(Path data, Path log) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "io.kaas.broker.Main",
                "--override", "node.id=2", "--override", "listeners=PLAINTEXT://127.0.0.1:0",
                "--override", "admin.listener=none",
                "--override", "log.dirs=" + data));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
