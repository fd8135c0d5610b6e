package io.kaas.broker.it.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.broker.it.TestBroker;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** librdkafka (kcat) over SASL_PLAINTEXT with PLAIN: another client's SASL exchange. Skipped where kcat is missing. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KcatSaslIT {

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static String kcatPath() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, "kcat");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    private static Run kcat(TestBroker broker, String password, String stdin, String... args) throws Exception {
        return run(broker, List.of("-X", "sasl.mechanisms=PLAIN", "-X", "sasl.username=alice", "-X", "sasl.password=" + password),
            stdin, args);
    }

    private static Run run(TestBroker broker, List<String> sasl, String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(kcatPath(), "-b", broker.bootstrap(), "-X", "security.protocol=SASL_PLAINTEXT"));
        cmd.addAll(sasl);
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kcat finished").isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), err);
    }

    @Test
    void kcatProducesAndConsumesWithPlainAndIsRefusedAWrongPassword() throws Exception {
        assumeTrue(kcatPath() != null, "kcat is not installed");
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of()).start()) {
            try (Admin admin = SaslClients.admin(broker, SaslClients.plain("alice", "alice-secret"))) {
                admin.createTopics(List.of(new NewTopic("k", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            Run produced = kcat(broker, "alice-secret", "one\ntwo\nthree\n", "-P", "-t", "k", "-p", "0");
            assertThat(produced.exit()).as(produced.err()).isZero();
            Run consumed = kcat(broker, "alice-secret", null, "-C", "-t", "k", "-p", "0", "-o", "beginning", "-e", "-q");
            assertThat(consumed.exit()).as(consumed.err()).isZero();
            assertThat(consumed.out().lines()).containsExactly("one", "two", "three");

            Run refused = kcat(broker, "wrong", null, "-L", "-m", "5");
            assertThat(refused.exit()).isNotZero();
            assertThat(refused.err()).contains("Authentication failed: Invalid username or password");
        }
    }

    @Test
    void kcatLogsInWithAnUnsecuredOAuthBearerTokenWhenKafkasUnsecuredValidatorIsNamed() throws Exception {
        assumeTrue(kcatPath() != null, "kcat is not installed");
        String module = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
        try (TestBroker broker = TestBroker.builder(dir)
                .config("listeners", "SASL_PLAINTEXT://127.0.0.1:0")
                .config("sasl.enabled.mechanisms", "OAUTHBEARER")
                .config("listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config", module + " required;")
                .config("listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class",
                    "org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredValidatorCallbackHandler")
                .start()) {
            Run listed = run(broker, List.of("-X", "sasl.mechanisms=OAUTHBEARER", "-X", "enable.sasl.oauthbearer.unsecure.jwt=true",
                "-X", "sasl.oauthbearer.config=principal=dev"), null, "-L", "-m", "10");
            assertThat(listed.exit()).as(listed.err()).isZero();
            assertThat(listed.out()).contains("1 brokers");
        }
    }
}
