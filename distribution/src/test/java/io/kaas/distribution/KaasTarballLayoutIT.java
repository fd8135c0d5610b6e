package io.kaas.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unpacked tarball has what an operator expects: runnable scripts, config, the module path. */
class KaasTarballLayoutIT {

    @TempDir
    Path tmp;

    @Test
    void scriptsAreExecutableAndConfigAndPluginsFolderArePresent() throws Exception {
        Path install = Tarball.unpack(tmp);
        for (String script : List.of("bin/kaas-server-start.sh", "bin/kaas-server-stop.sh", "bin/kaas-storage.sh")) {
            assertThat(Files.getPosixFilePermissions(install.resolve(script)))
                .as(script + " mode")
                .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE,
                    PosixFilePermission.OTHERS_EXECUTE);
        }
        assertThat(install.resolve("config/server.properties")).isRegularFile();
        assertThat(install.resolve("config/logback-example.xml")).isRegularFile();
        assertThat(install.resolve("config/logback.xml")).doesNotExist();
        assertThat(install.resolve("plugins/README.md")).isRegularFile();
    }

    @Test
    void libHoldsEveryModuleAndRuntimeDependencyButNoKafkaJar() throws Exception {
        Path install = Tarball.unpack(tmp);
        List<String> lib;
        try (Stream<Path> jars = Files.list(install.resolve("lib"))) {
            lib = jars.map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String artifact : List.of("kaas-api-", "kaas-records-", "kaas-wire-", "kaas-plugins-", "kaas-coordinator-", "kaas-broker-",
                "kaas-engine-segments-", "kaas-cluster-files-", "netty-transport-", "netty-codec-base-",
                "slf4j-api-", "logback-classic-", "jackson-core-")) {
            assertThat(lib).as("lib/").anyMatch(jar -> jar.startsWith(artifact));
        }
        assertThat(lib).as("lib/ (the epoll native library)")
            .anyMatch(jar -> jar.startsWith("netty-transport-native-epoll-") && jar.endsWith("-linux-x86_64.jar"));
        assertThat(lib).as("lib/ (the real Kafka clients and tools are test-only)")
            .noneMatch(jar -> jar.startsWith("kafka-"));
    }
}
