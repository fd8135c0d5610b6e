package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * kaas from the built distribution, through its own {@code bin/kaas-server-start.sh} (so its
 * documented JVM flags are the ones measured) with its default durability: fsync before answering
 * {@code acks=all} ({@code flush.messages=1}).
 */
final class KaasUnderTest extends BrokerUnderTest {
    private final Path home;

    KaasUnderTest(Path home) {
        this.home = home;
    }

    @Override
    String label() {
        return "kaas";
    }

    @Override
    String describe() {
        return "kaas default: fsync before acks=all answers; bin/kaas-server-start.sh defaults (-Xms256m -Xmx1g, G1)";
    }

    @Override
    List<String> command(Path workDir, Path dataDir, int port) throws IOException {
        Path script = home.resolve("bin/kaas-server-start.sh");
        if (!Files.isRegularFile(script)) {
            throw new IOException("no kaas distribution at " + home + " (build it: ./mvnw -pl distribution -am install -DskipTests)");
        }
        return List.of("bash", script.toString(), home.resolve("config/server.properties").toString(),
                "--override", "log.dirs=" + dataDir,
                "--override", "listeners=PLAINTEXT://127.0.0.1:" + port,
                "--override", "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "--override", "auto.create.topics.enable=false");
    }
}
