package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * kaas from the built distribution, through its own {@code bin/kaas-server-start.sh} (so its
 * documented JVM flags are the ones measured) with its default durability: fsync before answering
 * {@code acks=all} ({@code flush.messages=1}).
 */
final class KaasUnderTest extends BrokerUnderTest {
    private final Path home;
    private final String engine;
    private final int transactionVersion;
    private final TlsMaterial tls;

    /**
     * @param engine the storage engine by name: {@code segments} (the default, labelled {@code kaas}) or
     *               another, e.g. {@code rocksdb} from the shipped plugin (labelled {@code kaas-rocksdb})
     */
    KaasUnderTest(Path home, String engine) {
        this(home, engine, 0);
    }

    /**
     * @param transactionVersion kaas's {@code transaction.version} setting (the finalized feature
     *                           level: 1 or 2); 0 for its default (2)
     */
    KaasUnderTest(Path home, String engine, int transactionVersion) {
        this(home, engine, transactionVersion, null);
    }

    /** @param tls with it, an SSL listener (those certificates) beside the PLAINTEXT one, labelled {@code kaas-tls} */
    KaasUnderTest(Path home, String engine, int transactionVersion, TlsMaterial tls) {
        this.home = home;
        this.engine = engine;
        this.transactionVersion = transactionVersion;
        this.tls = tls;
    }

    @Override
    TlsMaterial tls() {
        return tls;
    }

    @Override
    String label() {
        return (engine.equals("segments") ? "kaas" : "kaas-" + engine) + (transactionVersion > 0 ? "-tv" + transactionVersion : "")
                + (tls != null ? "-tls" : "");
    }

    @Override
    String describe() {
        return "kaas, storage.engine=" + engine + (transactionVersion > 0 ? ", transaction.version=" + transactionVersion : "")
                + ": fsync before acks=all answers; bin/kaas-server-start.sh defaults (-Xms256m -Xmx1g, G1)"
                + (tls != null ? "; clients over an SSL listener (PKCS12 key store, TLSv1.3)" : "");
    }

    @Override
    List<String> command(Path workDir, Path dataDir, int port) throws IOException {
        Path script = home.resolve("bin/kaas-server-start.sh");
        if (!Files.isRegularFile(script)) {
            throw new IOException("no kaas distribution at " + home + " (build it: ./mvnw -pl distribution -am install -DskipTests)");
        }
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString(), home.resolve("config/server.properties").toString(),
                "--override", "log.dirs=" + dataDir,
                "--override", "listeners=PLAINTEXT://127.0.0.1:" + port + ssl(),
                "--override", "admin.listener=http://127.0.0.1:0",
                "--override", "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + ssl(),
                "--override", "auto.create.topics.enable=false",
                // As the Kafka broker under test (Kafka's sample server.properties), so group joins compare fairly.
                "--override", "group.initial.rebalance.delay.ms=0",
                "--override", "storage.engine=" + engine));
        if (transactionVersion > 0) {
            cmd.addAll(List.of("--override", "transaction.version=" + transactionVersion));
        }
        if (tls != null) {
            tls.brokerKeys().forEach(k -> cmd.addAll(List.of("--override", k)));
        }
        return cmd;
    }

    private String ssl() {
        return tls == null ? "" : ",SSL://127.0.0.1:" + sslPort;
    }
}
