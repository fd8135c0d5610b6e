package io.kaas.broker.it.scram;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.tools.StorageTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kaas-storage.sh format --add-scram}: a credential seeded before the first start is the store's, and
 * Kafka's SCRAM client logs in with it; bad arguments are answered with a message and exit code 1.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StorageToolIT {
    @TempDir
    Path dir;

    record Run(int exitCode, String out, String err) {
    }

    static Run storage(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = StorageTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path config(Path data) throws Exception {
        return Files.writeString(dir.resolve("server.properties"), "node.id=1\nlisteners=PLAINTEXT://127.0.0.1:0\nadmin.listener=none\n"
                + "log.dirs=" + data + "\n");
    }

    @Test
    void formatSeedsCredentialsTheBrokerThenServes() throws Exception {
        Path data = dir.resolve("data");
        Path config = config(data);
        Run run = storage("format", "--config", config.toString(),
                "--add-scram", "SCRAM-SHA-256=[name=alice,password=alice-secret]",
                "-S", "SCRAM-SHA-512=[name=alice,iterations=8192,salt=\"c2FsdHNhbHQ=\",password=\"alice-512\"]",
                "--add-scram", "SCRAM-SHA-256=[name=admin,iterations=16384,password=admin-secret]");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Formatted data directory " + data)
                .contains("SCRAM-SHA-256 of alice (4096 iterations)").contains("SCRAM-SHA-512 of alice (8192 iterations)")
                .doesNotContain("alice-secret");
        assertThat(run.err()).isEmpty();

        try (TestBroker broker = TestBroker.builder(dir).dataDir(data).start(); Admin admin = broker.admin()) {
            Map<String, UserScramCredentialsDescription> all = admin.describeUserScramCredentials().all().get(20, TimeUnit.SECONDS);
            assertThat(all).containsOnlyKeys("alice", "admin");
            assertThat(all.get("alice").credentialInfos()).containsExactlyInAnyOrder(
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192));
            assertThat(broker.broker.clusterStore().scramCredentials("alice")).anySatisfy(r -> assertThat(r.salt())
                    .isEqualTo("saltsalt".getBytes(StandardCharsets.US_ASCII)));
            ScramCredentialsIT.authenticates(broker,
                    org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_512, "alice", "alice-512");
            ScramCredentialsIT.authenticates(broker,
                    org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256, "admin", "admin-secret");
        }

        Run again = storage("format", "--config", config.toString(), "--add-scram", "SCRAM-SHA-256=[name=bob,password=b]");
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("Data directory " + data + " is already formatted. Use --ignore-formatted");
        Run ignored = storage("format", "--config", config.toString(), "-g", "--add-scram", "SCRAM-SHA-256=[name=bob,password=b]");
        assertThat(ignored.exitCode()).as(ignored.err()).isZero();
        assertThat(ignored.out()).contains("already formatted: left as it is");
    }

    @Test
    void badArgumentsAreAnsweredWithAMessageAndExitCode1() throws Exception {
        Path data = dir.resolve("data");
        String config = config(data).toString();
        Map<List<String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(List.of(), "no command given");
        refused.put(List.of("info"), "unknown command 'info'");
        refused.put(List.of("format"), "--config is required");
        refused.put(List.of("format", "--config"), "--config needs a value");
        refused.put(List.of("format", "--config", dir.resolve("missing.properties").toString()), "config file not found");
        refused.put(List.of("format", "--config", config, "--bogus"), "unknown option '--bogus'");
        refused.put(List.of("format", "--config", config, "-t", "abc"), "--cluster-id is not supported");
        refused.put(scram(config, "SCRAM-SHA-256"), "Failed to find equals sign in SCRAM argument 'SCRAM-SHA-256'");
        refused.put(scram(config, "SCRAM-SHA-1=[name=a,password=p]"), "The add-scram mechanism SCRAM-SHA-1 is not supported.");
        refused.put(scram(config, "SCRAM-SHA-256=name=a,password=p]"), "Expected configuration string to start with [");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password=p"), "Expected configuration string to end with ]");
        refused.put(scram(config, "SCRAM-SHA-256=[password=p]"), "You must supply 'name' to add-scram");
        refused.put(scram(config, "SCRAM-SHA-256=[name=,password=p]"), "You must supply 'name' to add-scram");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a]"), "You must supply one of 'password' or 'saltedpassword' to add-scram");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,saltedpassword=AAAA]"), "You must supply 'salt' with 'saltedpassword'");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password=p,colour=red]"), "Unknown SCRAM configurations: colour");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password]"), "No equals sign found in SCRAM component 2 of 2");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password=se,cret]"), "No equals sign found in SCRAM component 3 of 3");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password=p,iterations=4095]"),
                "The 'iterations' value must be >= 4096 for add-scram using SCRAM-SHA-256");
        refused.put(scram(config, "SCRAM-SHA-512=[name=a,password=p,iterations=16385]"),
                "The 'iterations' value must be <= 16384 for add-scram using SCRAM-SHA-512");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password=p,iterations=many]"), "Failed to parse iterations count: many");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password=p,salt=*]"), "Failed to decode given salt");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,password=p,salt=]"), "The 'salt' must not be empty");
        refused.put(scram(config, "SCRAM-SHA-256=[name=a,salt=AAAA,saltedpassword=%]"), "Failed to decode given saltedpassword");
        refused.put(List.of("format", "--config", config, "-S", "SCRAM-SHA-256=[name=a,password=p]",
                "-S", "SCRAM-SHA-256=[name=a,password=q]"), "--add-scram names SCRAM-SHA-256 of user 'a' twice");
        for (Map.Entry<List<String>, String> e : refused.entrySet()) {
            Run run = storage(e.getKey().toArray(String[]::new));
            assertThat(run.exitCode()).as(e.getKey().toString()).isEqualTo(1);
            assertThat(run.err()).as(e.getKey().toString()).startsWith("kaas-storage: ").contains(e.getValue())
                    .doesNotContain("=p]").doesNotContain("password=p,").doesNotContain("cret");
        }
        assertThat(data).as("nothing was written").doesNotExist();
        Run help = storage("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.err()).contains("USAGE: kaas-storage.sh format --config");
    }

    private static List<String> scram(String config, String spec) {
        return new ArrayList<>(List.of("format", "--config", config, "--add-scram", spec));
    }
}
