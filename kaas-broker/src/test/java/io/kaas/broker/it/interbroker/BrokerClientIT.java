package io.kaas.broker.it.interbroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.interbroker.BrokerClient;
import io.kaas.broker.interbroker.InterBrokerException;
import io.kaas.broker.interbroker.InterBrokerException.Reason;
import io.kaas.broker.interbroker.InterBrokerSecurity;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.it.tls.TestPki;
import io.kaas.wire.message.MetadataRequestData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.protocol.ApiMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inter-broker client against a real broker: Metadata sent with the generated classes over PLAINTEXT, SSL (the
 * listener's trust store decides), SASL_SSL with PLAIN, SASL_PLAINTEXT with SCRAM-SHA-512 and PLAIN (the listener's JAAS username and
 * password), wrong credentials and an untrusted certificate refused; a request the target never answers fails at
 * request.timeout.ms; a target that is not a Kafka broker fails the request with a log line; a restarted target is
 * reconnected to.
 */
class BrokerClientIT {
    private static final String PASSWORD = "changeit";
    private static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";
    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

    @TempDir
    Path dir;

    private static MetadataRequestData metadata() {
        return new MetadataRequestData().setTopics(List.of()).setAllowAutoTopicCreation(false);
    }

    /** Sends Metadata to node {@code nodeId} and returns the broker ports it lists. */
    private static List<Integer> brokerPorts(BrokerClient client, int nodeId) throws Exception {
        ApiMessage answer = client.send(nodeId, metadata(), (short) 1).get(20, TimeUnit.SECONDS);
        return ((MetadataResponseData) answer).brokers().stream().map(MetadataResponseData.MetadataResponseBroker::port)
            .toList();
    }

    private static InterBrokerException failure(CompletableFuture<?> f) {
        try {
            f.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return InterBrokerException.find(e);
        } catch (Exception e) {
            throw new AssertionError("no answer and no failure: " + e, e);
        }
        throw new AssertionError("the request succeeded");
    }

    @Test
    void plaintextRequestAndReconnectAfterTheTargetRestarts() throws Exception {
        TestBroker.Builder b = TestBroker.builder(dir);
        TestBroker broker = b.start();
        int port = broker.port();
        TestClusterView view = new TestClusterView(9).broker(1, "PLAINTEXT", "PLAINTEXT", port);
        try (BrokerClient client = BrokerClient.create(view, InterBrokerSecurity.plaintext("PLAINTEXT"), 5_000, 5_000)) {
            assertThat(brokerPorts(client, 1)).containsExactly(port);
            assertThat(brokerPorts(client, 1)).containsExactly(port);
            broker.close();
            assertThat(failure(client.send(1, metadata(), (short) 1)).reason()).isEqualTo(Reason.DISCONNECTED);
            b.config("listeners", "PLAINTEXT://127.0.0.1:" + port);
            try (TestBroker again = b.start()) {
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(brokerPorts(client, 1)).containsExactly(port));
            }
            // Registered again at another endpoint: the next request goes there.
            b.config("listeners", "PLAINTEXT://127.0.0.1:0");
            try (TestBroker moved = b.start()) {
                view.broker(1, "PLAINTEXT", "PLAINTEXT", moved.port());
                assertThat(brokerPorts(client, 1)).containsExactly(moved.port());
            }
            assertThat(failure(client.send(2, metadata(), (short) 1)).reason()).isEqualTo(Reason.NO_ENDPOINT);
        } finally {
            broker.close();
        }
    }

    /** A request pinned to a version range (as the console forwards at its own version) is sent within it. */
    @Test
    void aRequestIsSentWithinItsVersionRange() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).start()) {
            TestClusterView view = new TestClusterView(9).broker(1, "PLAINTEXT", "PLAINTEXT", broker.port());
            try (BrokerClient client = BrokerClient.create(view, InterBrokerSecurity.plaintext("PLAINTEXT"), 5_000,
                    5_000)) {
                // Metadata answers the cluster id from v2: none at v1, one at v12.
                MetadataResponseData v1 = (MetadataResponseData) client.send(1,
                    new MetadataRequestData().setTopics(List.of()), (short) 1, (short) 1).get(20, TimeUnit.SECONDS);
                assertThat(v1.clusterId()).isNull();
                MetadataResponseData v12 = (MetadataResponseData) client.send(1, metadata(), (short) 12, (short) 12)
                    .get(20, TimeUnit.SECONDS);
                assertThat(v12.clusterId()).isNotEmpty();
                InterBrokerException empty = failure(client.send(1, metadata(), (short) 13, (short) 12));
                assertThat(empty.reason()).isEqualTo(Reason.UNSUPPORTED_VERSION);
                assertThat(empty.getMessage()).contains("of Metadata, this request needs 13-12");
            }
        }
    }

    @Test
    void sslTrustsTheListenersTrustStoreOnly() throws Exception {
        TestPki pki = TestPki.create("kaas-interbroker-ca");
        Path keyStore = pki.issue("CN=broker1,O=kaas").keyStore(dir.resolve("server.p12"), "PKCS12", PASSWORD);
        Path trustStore = pki.trustStore(dir.resolve("trust.p12"), "PKCS12", PASSWORD);
        Map<String, String> ssl = new HashMap<>();
        ssl.put("listeners", "SSL://127.0.0.1:0,SASL_SSL://127.0.0.1:0");
        ssl.put("sasl.enabled.mechanisms", "PLAIN");
        ssl.put("listener.name.sasl_ssl.plain.sasl.jaas.config", PLAIN_MODULE
            + " required username=\"broker\" password=\"tls-secret\" user_broker=\"tls-secret\";");
        ssl.put("ssl.keystore.type", "PKCS12");
        ssl.put("ssl.keystore.location", keyStore.toString());
        ssl.put("ssl.keystore.password", PASSWORD);
        ssl.put("ssl.truststore.type", "PKCS12");
        ssl.put("ssl.truststore.location", trustStore.toString());
        ssl.put("ssl.truststore.password", PASSWORD);
        TestBroker.Builder b = TestBroker.builder(dir).config(ssl);
        try (TestBroker broker = b.start()) {
            TestClusterView view = new TestClusterView(9).broker(1, "SSL", "SSL", broker.broker.boundPort("SSL"));
            BrokerConfig config = b.brokerConfig();
            assertThat(InterBrokerSecurity.of(config).toString()).isEqualTo("SSL (SSL)");
            try (BrokerClient client = BrokerClient.create(view, InterBrokerSecurity.of(config), 5_000, 5_000)) {
                assertThat(brokerPorts(client, 1)).containsExactly(broker.broker.boundPort("SSL"));
            }
            // SASL_SSL: TLS with the same trust, then PLAIN with the listener's username and password.
            BrokerConfig saslSsl = TestBroker.builder(dir).config(ssl).config("inter.broker.listener.name", "SASL_SSL")
                .config("sasl.mechanism.inter.broker.protocol", "PLAIN").brokerConfig();
            TestClusterView saslView = new TestClusterView(9).broker(1, "SASL_SSL", "SASL_SSL",
                broker.broker.boundPort("SASL_SSL"));
            assertThat(InterBrokerSecurity.of(saslSsl).toString()).isEqualTo("SASL_SSL (SASL_SSL, PLAIN as broker)");
            try (BrokerClient client = BrokerClient.create(saslView, InterBrokerSecurity.of(saslSsl), 5_000, 5_000)) {
                assertThat(brokerPorts(client, 1)).hasSize(1);
            }
            // Another CA's trust store: the broker's certificate is not trusted, the request fails, no hang.
            TestPki other = TestPki.create("another-ca");
            Path otherTrust = other.trustStore(dir.resolve("other-trust.p12"), "PKCS12", PASSWORD);
            Map<String, String> untrusting = new HashMap<>(ssl);
            untrusting.put("ssl.truststore.location", otherTrust.toString());
            untrusting.put("log.dirs", dir.resolve("unused").toString());
            try (InterBrokerLog log = new InterBrokerLog();
                 BrokerClient client = BrokerClient.create(view, InterBrokerSecurity.of(BrokerConfig.of(untrusting)),
                     5_000, 5_000)) {
                assertThat(failure(client.send(1, metadata(), (short) 1)).reason())
                    .isIn(Reason.AUTHENTICATION_FAILED, Reason.DISCONNECTED);
                assertThat(log.lines()).anyMatch(l -> l.startsWith("Connection to broker 1 at 127.0.0.1:"
                    + broker.broker.boundPort("SSL")
                    + " (listener SSL (SSL)) failed"));
            }
        }
    }

    /** A broker with a PLAINTEXT listener (for the admin) and a SASL_PLAINTEXT one offering SCRAM-SHA-512 and PLAIN. */
    private TestBroker.Builder saslBroker(String mechanism, String scramPassword, String plainPassword) {
        Map<String, String> c = new HashMap<>();
        c.put("listeners", "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0");
        c.put("inter.broker.listener.name", "SASL_PLAINTEXT");
        c.put("sasl.enabled.mechanisms", "SCRAM-SHA-512,PLAIN");
        c.put("sasl.mechanism.inter.broker.protocol", mechanism);
        c.put("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config", SCRAM_MODULE
            + " required username=\"broker\" password=\"" + scramPassword + "\";");
        c.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_MODULE
            + " required username=\"broker\" password=\"" + plainPassword + "\" user_broker=\"plain-secret\";");
        return TestBroker.builder(dir).config(c);
    }

    @Test
    void saslScramAndPlainWithTheListenersCredentials() throws Exception {
        TestBroker.Builder b = saslBroker("SCRAM-SHA-512", "scram-secret", "plain-secret");
        try (TestBroker broker = b.start()) {
            try (Admin admin = broker.admin()) {
                admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("broker",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "scram-secret"))).all()
                    .get(20, TimeUnit.SECONDS);
            }
            int saslPort = broker.broker.boundPort("SASL_PLAINTEXT");
            TestClusterView view = new TestClusterView(9).broker(1, "SASL_PLAINTEXT", "SASL_PLAINTEXT", saslPort);
            InterBrokerSecurity scram = InterBrokerSecurity.of(b.brokerConfig());
            assertThat(scram.toString()).isEqualTo("SASL_PLAINTEXT (SASL_PLAINTEXT, SCRAM-SHA-512 as broker)");
            try (BrokerClient client = BrokerClient.create(view, scram, 5_000, 5_000)) {
                assertThat(brokerPorts(client, 1)).hasSize(1);
            }
            InterBrokerSecurity plain = InterBrokerSecurity.of(saslBroker("PLAIN", "scram-secret", "plain-secret")
                .brokerConfig());
            try (BrokerClient client = BrokerClient.create(view, plain, 5_000, 5_000)) {
                assertThat(brokerPorts(client, 1)).hasSize(1);
            }
            List<InterBrokerSecurity> wrong = List.of(
                InterBrokerSecurity.of(saslBroker("SCRAM-SHA-512", "not-it", "plain-secret").brokerConfig()),
                InterBrokerSecurity.of(saslBroker("PLAIN", "scram-secret", "not-it").brokerConfig()));
            for (InterBrokerSecurity w : wrong) {
                try (InterBrokerLog log = new InterBrokerLog();
                     BrokerClient client = BrokerClient.create(view, w, 5_000, 5_000)) {
                    InterBrokerException e = failure(client.send(1, metadata(), (short) 1));
                    assertThat(e.reason()).isEqualTo(Reason.AUTHENTICATION_FAILED);
                    assertThat(e.getMessage()).doesNotContain("not-it");
                    assertThat(log.lines()).anyMatch(l -> l.contains("authentication failed") && !l.contains("not-it"));
                }
            }
        }
    }

    @Test
    void aConnectionIsReplacedBeforeItsSaslSessionEnds() throws Exception {
        TestBroker.Builder b = saslBroker("PLAIN", "unused", "plain-secret").config("connections.max.reauth.ms", "1000");
        try (TestBroker broker = b.start()) {
            TestClusterView view = new TestClusterView(9).broker(1, "SASL_PLAINTEXT", "SASL_PLAINTEXT",
                broker.broker.boundPort("SASL_PLAINTEXT"));
            try (InterBrokerLog log = new InterBrokerLog();
                 BrokerClient client = BrokerClient.create(view, InterBrokerSecurity.of(b.brokerConfig()), 5_000,
                     5_000)) {
                assertThat(brokerPorts(client, 1)).hasSize(1);
                Thread.sleep(1_500); // past the session: the broker would close the connection at the next request
                assertThat(brokerPorts(client, 1)).hasSize(1);
                assertThat(log.lines()).filteredOn(l -> l.startsWith("Connected to broker 1")).hasSize(2);
                assertThat(log.lines()).noneMatch(l -> l.contains("failed"));
            }
        }
    }

    @Test
    void badInterBrokerSaslSettingsNameTheKey() throws Exception {
        assertThatThrownBy(() -> InterBrokerSecurity.of(saslBroker("GSSAPI", "a", "b").brokerConfig()))
            .isInstanceOf(ConfigException.class).hasMessageContaining("sasl.mechanism.inter.broker.protocol");
        assertThatThrownBy(() -> InterBrokerSecurity.of(saslBroker("SCRAM-SHA-256", "a", "b").brokerConfig()))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms");
        TestBroker.Builder noPassword = saslBroker("PLAIN", "a", "b").config(
            "listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_MODULE + " required user_broker=\"x\";");
        assertThatThrownBy(() -> InterBrokerSecurity.of(noPassword.brokerConfig()))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("listener.name.sasl_plaintext.plain.sasl.jaas.config")
            .hasMessageContaining("username and password");
        // A broker whose inter-broker settings cannot be used still starts; its inter-broker requests fail with why.
        List<RuntimeException> told = new ArrayList<>();
        try (BrokerClient client = BrokerClient.of(saslBroker("GSSAPI", "a", "b").brokerConfig(),
                new TestClusterView(1), told::add)) {
            assertThat(told).hasSize(1);
            InterBrokerException e = failure(client.send(1, metadata(), (short) 1));
            assertThat(e.reason()).isEqualTo(Reason.CONFIG);
            assertThat(e.getMessage()).contains("sasl.mechanism.inter.broker.protocol");
        }
    }

    /** A TCP server on 127.0.0.1 that reads what comes and answers {@code reply} (never, if null). */
    private static final class FakeServer implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        final List<Socket> accepted = new ArrayList<>();
        final Thread thread;

        FakeServer(byte[] reply) throws IOException {
            thread = new Thread(() -> {
                try {
                    while (!socket.isClosed()) {
                        Socket s = socket.accept();
                        synchronized (accepted) {
                            accepted.add(s);
                        }
                        InputStream in = s.getInputStream();
                        in.read(new byte[4096]);
                        if (reply != null) {
                            OutputStream out = s.getOutputStream();
                            out.write(reply);
                            out.flush();
                        }
                    }
                } catch (IOException e) {
                    // closed
                }
            }, "fake-server");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            socket.close();
            synchronized (accepted) {
                for (Socket s : accepted) {
                    s.close();
                }
            }
            thread.join(5_000);
        }
    }

    @Test
    void aTargetThatNeverAnswersTimesOut() throws Exception {
        try (FakeServer silent = new FakeServer(null);
             InterBrokerLog log = new InterBrokerLog();
             BrokerClient client = BrokerClient.create(new TestClusterView(9).broker(3, "PLAINTEXT", "PLAINTEXT",
                 silent.port()), InterBrokerSecurity.plaintext("PLAINTEXT"), 700, 10_000)) {
            long began = System.nanoTime();
            InterBrokerException e = failure(client.send(3, metadata(), (short) 1));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            assertThat(e.reason()).isEqualTo(Reason.TIMED_OUT);
            assertThat(e.getMessage()).contains("request.timeout.ms");
            assertThat(tookMs).isBetween(600L, 10_000L);
            assertThat(log.lines()).anyMatch(l -> l.contains("timed out after 700 ms"));
        }
    }

    @Test
    void aTargetThatIsNotAKafkaBrokerFailsTheRequestWithALogLine() throws Exception {
        byte[] http = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] wrongCorrelation = {0, 0, 0, 8, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0};
        byte[] truncated = {0, 0, 0, 2, 0, 0};
        for (byte[] garbage : List.of(http, wrongCorrelation, truncated)) {
            try (FakeServer server = new FakeServer(garbage);
                 InterBrokerLog log = new InterBrokerLog();
                 BrokerClient client = BrokerClient.create(new TestClusterView(9).broker(4, "PLAINTEXT", "PLAINTEXT",
                     server.port()), InterBrokerSecurity.plaintext("PLAINTEXT"), 10_000, 10_000)) {
                long began = System.nanoTime();
                InterBrokerException e = failure(client.send(4, metadata(), (short) 1));
                assertThat(e.reason()).isEqualTo(Reason.DISCONNECTED);
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(5_000);
                assertThat(log.lines()).anyMatch(l -> l.startsWith("Connection to broker 4 at 127.0.0.1:" + server.port()
                    + " (listener PLAINTEXT (PLAINTEXT)) failed"));
            }
        }
    }
}
