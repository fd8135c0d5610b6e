package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.TopicRecord;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The data directory lock between processes: a second broker JVM ({@link LockingBrokerMain}) on one directory. */
@Timeout(120)
class DirectoryLockProcessTest {
    @TempDir
    Path dataDir;

    private Path clusterDir() {
        return dataDir.resolve("__cluster");
    }

    @Test
    void aSecondBrokerProcessIsRefusedWithOneLineNamingThisBroker() throws Exception {
        try (FileClusterStore store = FileClusterStore.open(clusterDir(), 1)) {
            Process child = start(2, "try");
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String stderr = new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            String stdout = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.exitValue()).as("stdout %s, stderr %s", stdout, stderr).isEqualTo(2);
            assertThat(stdout).doesNotContain("opened");
            // Only our line: SLF4J's own note that this test class path has no logging provider aside.
            List<String> lines = stderr.lines().filter(l -> !l.startsWith("SLF4J")).toList();
            assertThat(lines).containsExactly("data directory " + dataDir.toRealPath() + " is in use by broker 1 (pid "
                    + ProcessHandle.current().pid() + " on host " + LockHolder.thisProcess(1).host()
                    + ") with the files cluster store; a second broker needs cluster.store=zookeeper");
            store.createTopic(new TopicRecord("still-mine", UUID.randomUUID(), 1, Map.of()));
        }
    }

    @Test
    void aBrokerProcessHoldingTheDirectoryIsNamedWhenThisOneIsRefused() throws Exception {
        Process child = start(3, "hold");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            awaitHolding(out);
            assertThatThrownBy(() -> FileClusterStore.open(clusterDir(), 1))
                    .isInstanceOf(ClusterStateException.class)
                    .hasMessage("data directory " + dataDir.toRealPath() + " is in use by broker 3 (pid " + child.pid()
                            + " on host " + LockHolder.thisProcess(1).host()
                            + ") with the files cluster store; a second broker needs cluster.store=zookeeper");
            child.getOutputStream().close();
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).isZero();
        } finally {
            child.destroyForcibly();
        }
        try (FileClusterStore store = FileClusterStore.open(clusterDir(), 1)) {
            assertThat(store.topics()).isEmpty();
        }
    }

    @Test
    void theDirectoryOfAKilledHolderIsTakenOver() throws Exception {
        Process child = start(4, "hold");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            awaitHolding(out);
        } finally {
            child.destroyForcibly();
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // The killed holder left its record in the file; the operating system released its lock.
        assertThat(LockHolder.fromJson(Files.readAllBytes(clusterDir().resolve(DirectoryLock.FILE))).pid())
                .isEqualTo(child.pid());
        try (FileClusterStore store = FileClusterStore.open(clusterDir(), 1)) {
            LockHolder holder = LockHolder.fromJson(Files.readAllBytes(clusterDir().resolve(DirectoryLock.FILE)));
            assertThat(holder.nodeId()).isEqualTo(1);
            assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
        }
    }

    private static void awaitHolding(BufferedReader out) throws IOException {
        for (String line = out.readLine(); ; line = out.readLine()) {
            assertThat(line).as("the child ended before it held the directory").isNotNull();
            if (line.equals("holding")) {
                return;
            }
        }
    }

    private Process start(int nodeId, String mode) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(classPath());
        command.add(LockingBrokerMain.class.getName());
        command.add(clusterDir().toString());
        command.add(Integer.toString(nodeId));
        command.add(mode);
        return new ProcessBuilder(command).start();
    }

    /** This JVM's module path and class path, as one class path (the child runs without modules). */
    private static String classPath() {
        return Stream.of(System.getProperty("jdk.module.path"), System.getProperty("java.class.path"))
                .filter(p -> p != null && !p.isEmpty())
                .collect(Collectors.joining(File.pathSeparator));
    }
}
