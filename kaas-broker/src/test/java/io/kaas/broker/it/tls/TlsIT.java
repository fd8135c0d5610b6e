package io.kaas.broker.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * SSL listeners with the real Java client: server authentication with every store format, mutual TLS whose
 * certificate subject is the principal (mapped by {@code ssl.principal.mapping.rules}, checked through the ACL
 * authorizer), a PLAINTEXT and an SSL listener side by side, bad input (plaintext bytes, no client certificate,
 * unusable stores) and a certificate rotation picked up without a restart. Certificates are made here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsIT {
    static final String PASSWORD = "store-pass-1";

    @TempDir
    static Path certs;
    static TestPki pki;
    static TestPki.Identity server;
    static Path serverP12;
    static Path trustP12;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeCertificates() throws Exception {
        pki = TestPki.create("kaas-test-ca");
        server = pki.issue("CN=kaas-broker,O=kaas");
        serverP12 = server.keyStore(certs.resolve("server.p12"), "PKCS12", PASSWORD);
        trustP12 = pki.trustStore(certs.resolve("trust.p12"), "PKCS12", PASSWORD);
    }

    /** Broker keys of an SSL listener named SSL on 127.0.0.1, key store {@code serverP12}. */
    static Map<String, String> sslListener() {
        Map<String, String> c = new HashMap<>();
        c.put("listeners", "SSL://127.0.0.1:0");
        c.put("ssl.keystore.type", "PKCS12");
        c.put("ssl.keystore.location", serverP12.toString());
        c.put("ssl.keystore.password", PASSWORD);
        return c;
    }

    /** Client keys for SSL, trusting the test CA. */
    static Map<String, Object> clientSsl() {
        Map<String, Object> c = new HashMap<>();
        c.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        c.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        c.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustP12.toString());
        c.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, PASSWORD);
        return c;
    }

    /** {@link #clientSsl()} with the key store of {@code subject}, issued now by the test CA. */
    static Map<String, Object> clientCertificate(String subject, Path where) throws Exception {
        Map<String, Object> c = clientSsl();
        Path ks = pki.issue(subject).keyStore(where.resolve(subject.replaceAll("[^A-Za-z0-9]", "_") + ".p12"), "PKCS12",
            PASSWORD);
        c.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
        c.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, ks.toString());
        c.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, PASSWORD);
        return c;
    }

    static Admin admin(String bootstrap, Map<String, Object> extra) {
        return KafkaClients.at(bootstrap).admin(extra);
    }

    /** Creates topic {@code t}, produces {@code values} with acks=all and reads them back, all over {@code extra}. */
    static void produceAndConsume(KafkaClients clients, Map<String, Object> extra, List<String> values) throws Exception {
        try (Admin admin = admin(clients.bootstrap(), extra)) {
            KafkaClients.createTopic(admin, "t", 1, Map.of());
        }
        Map<String, Object> producerExtra = new HashMap<>(extra);
        producerExtra.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = clients.producer(producerExtra)) {
            for (String v : values) {
                producer.send(new ProducerRecord<>("t", v)).get(20, TimeUnit.SECONDS);
            }
        }
        try (KafkaConsumer<String, String> consumer = clients.consumer(extra)) {
            TopicPartition tp = new TopicPartition("t", 0);
            assertThat(KafkaClients.readAll(consumer, tp, Duration.ofSeconds(20))).extracting(ConsumerRecord::value)
                .containsExactlyElementsOf(values);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"PKCS12", "JKS", "PEM file", "PEM file, encrypted key", "PEM inline"})
    void theJavaClientProducesAndConsumesOverSslWithEveryStoreFormat(String format) throws Exception {
        Map<String, String> c = new HashMap<>();
        c.put("listeners", "SSL://127.0.0.1:0");
        Path stores = Files.createDirectories(dir.resolve("stores"));
        switch (format) {
            case "PKCS12" -> c.putAll(sslListener());
            case "JKS" -> {
                c.put("ssl.keystore.location", server.keyStore(stores.resolve("server.jks"), "JKS", PASSWORD).toString());
                c.put("ssl.keystore.password", PASSWORD);
            }
            case "PEM file" -> {
                c.put("ssl.keystore.type", "PEM");
                c.put("ssl.keystore.location", Files.writeString(stores.resolve("server.pem"),
                    server.keyPem(null) + server.chainPem()).toString());
            }
            case "PEM file, encrypted key" -> {
                c.put("ssl.keystore.type", "PEM");
                c.put("ssl.keystore.location", Files.writeString(stores.resolve("server-enc.pem"),
                    server.chainPem() + server.keyPem("key-pass-2")).toString());
                c.put("ssl.key.password", "key-pass-2");
            }
            default -> {
                c.put("ssl.keystore.type", "PEM");
                c.put("ssl.keystore.key", server.keyPem(null));
                c.put("ssl.keystore.certificate.chain", server.chainPem());
            }
        }
        try (TestBroker broker = TestBroker.builder(dir).config(c).start()) {
            produceAndConsume(broker, clientSsl(), List.of("a", "b", "c"));
        }
    }

    @Test
    void mutualTlsMakesTheMappedCertificateSubjectThePrincipal() throws Exception {
        Map<String, String> c = sslListener();
        c.put("ssl.client.auth", "required");
        c.put("ssl.truststore.type", "PEM");
        c.put("ssl.truststore.certificates", pki.caPem());
        // CN=alice,OU=eng,O=kaas -> alice; the rule needs OU=eng, so CN=bob,OU=ops,O=kaas keeps its DN.
        c.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+),OU=eng,.*$/$1/L, DEFAULT");
        TestBroker.Builder b = TestBroker.builder(dir).config(c).acl("""
            allow * CREATE cluster
            allow User:alice WRITE topic:t
            allow User:alice READ topic:t
            allow User:CN=bob,OU=ops,O=kaas DESCRIBE topic:t
            """);
        try (TestBroker broker = b.start()) {
            Map<String, Object> alice = clientCertificate("CN=Alice,OU=eng,O=kaas", dir);
            produceAndConsume(broker, alice, List.of("from alice"));
            Map<String, Object> bob = clientCertificate("CN=bob,OU=ops,O=kaas", dir);
            bob.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
            bob.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
            try (KafkaProducer<String, String> producer = broker.producer(bob)) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("t", "from bob")).get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
            // Bob may Describe t (his unmapped DN is in the ACLs): Metadata shows it to him, not to an unknown DN.
            try (Admin admin = admin(broker.bootstrap(), bob)) {
                assertThat(admin.describeTopics(List.of("t")).allTopicNames().get(15, TimeUnit.SECONDS)).containsKey("t");
            }
            try (Admin admin = admin(broker.bootstrap(), clientCertificate("CN=carol,OU=ops,O=kaas", dir))) {
                assertThatThrownBy(() -> admin.describeTopics(List.of("t")).allTopicNames().get(15, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
        }
    }

    @Test
    void aClientWithoutCertificateFailsTheHandshakeWhenOneIsRequiredAndIsAnonymousWhenRequested() throws Exception {
        Map<String, String> c = sslListener();
        c.put("listener.name.ssl.ssl.client.auth", "required");
        c.put("ssl.truststore.type", "PKCS12");
        c.put("ssl.truststore.location", trustP12.toString());
        c.put("ssl.truststore.password", PASSWORD);
        try (TestBroker broker = TestBroker.builder(dir).config(c).start();
             Admin admin = admin(broker.bootstrap(), clientSsl())) {
            assertThatThrownBy(() -> admin.describeCluster().nodes().get(15, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SslAuthenticationException.class);
        }
        c.put("listener.name.ssl.ssl.client.auth", "requested");
        try (TestBroker broker = TestBroker.builder(dir.resolve("requested")).config(c).start(); Admin admin = admin(broker.bootstrap(), clientSsl())) {
            assertThat(admin.describeCluster().nodes().get(15, TimeUnit.SECONDS)).hasSize(1);
        }
    }

    @Test
    void aPlaintextAndAnSslListenerServeOneBrokerEachAnsweringItsOwnAddress() throws Exception {
        Map<String, String> c = sslListener();
        c.put("listeners", "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0");
        try (TestBroker broker = TestBroker.builder(dir).config(c).start()) {
            int plain = broker.broker.boundPort("PLAINTEXT");
            int ssl = broker.broker.boundPort("SSL");
            KafkaClients overSsl = KafkaClients.at("127.0.0.1:" + ssl);
            try (Admin admin = admin(overSsl.bootstrap(), clientSsl())) {
                assertThat(admin.describeCluster().nodes().get(15, TimeUnit.SECONDS)).extracting(Node::port)
                    .containsExactly(ssl);
            }
            try (Admin admin = broker.admin()) {
                assertThat(admin.describeCluster().nodes().get(15, TimeUnit.SECONDS)).extracting(Node::port)
                    .containsExactly(plain);
                KafkaClients.createTopic(admin, "t", 1, Map.of());
                // DescribeConfigs, as Kafka: a secret is sensitive, typed PASSWORD, and answered null.
                ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
                Config config = admin.describeConfigs(List.of(node)).all().get(15, TimeUnit.SECONDS).get(node);
                ConfigEntry password = config.get("ssl.keystore.password");
                assertThat(password.value()).isNull();
                assertThat(password.isSensitive()).isTrue();
                assertThat(password.type()).isEqualTo(ConfigEntry.ConfigType.PASSWORD);
                assertThat(config.get("ssl.keystore.location").value()).isEqualTo(serverP12.toString());
                assertThat(config.get("ssl.enabled.protocols").value()).isEqualTo("TLSv1.2,TLSv1.3");
            }
            try (KafkaProducer<String, String> producer = broker.producer()) {
                producer.send(new ProducerRecord<>("t", "plain")).get(20, TimeUnit.SECONDS);
            }
            try (KafkaConsumer<String, String> consumer = overSsl.consumer(clientSsl())) {
                assertThat(KafkaClients.readAll(consumer, new TopicPartition("t", 0), Duration.ofSeconds(20)))
                    .extracting(ConsumerRecord::value).containsExactly("plain");
            }
        }
    }

    @Test
    void plaintextBytesToTheSslPortCloseTheConnectionWithOneLogLine() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger tlsLog = (Logger) LoggerFactory.getLogger("io.kaas.broker.network.TlsHandshakeHandler");
        log.start();
        tlsLog.addAppender(log);
        try (TestBroker broker = TestBroker.builder(dir).config(sslListener()).start();
             Socket s = new Socket("127.0.0.1", broker.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            // An ApiVersions v3 request frame, in the clear.
            out.write(new byte[] {0, 0, 0, 13, 0, 18, 0, 3, 0, 0, 0, 1, 0, 3, 'c', 'l', 'i', 0, 0});
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[256];
            int n;
            while ((n = in.read(buf)) > 0) {
                assertThat(n).isPositive(); // a TLS alert may come first; then the connection closes
            }
            assertThat(n).isEqualTo(-1);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .filteredOn(m -> m.contains("TLS with /127.0.0.1:") && m.contains("on listener SSL failed"))
                    .hasSize(1).allSatisfy(m -> assertThat(m).contains("NotSslRecordException")));
        } finally {
            tlsLog.detachAppender(log);
        }
    }

    @Test
    void aCertificateNoMappingRuleMatchesIsClosedAfterItsHandshakeWithOneLogLine() throws Exception {
        Map<String, String> c = sslListener();
        c.put("ssl.client.auth", "required");
        c.put("ssl.truststore.type", "PEM");
        c.put("ssl.truststore.certificates", pki.caPem());
        c.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+),OU=eng,.*$/$1/");
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger tlsLog = (Logger) LoggerFactory.getLogger("io.kaas.broker.network.TlsHandshakeHandler");
        log.start();
        tlsLog.addAppender(log);
        try (TestBroker broker = TestBroker.builder(dir).config(c).start()) {
            Path ks = pki.issue("CN=mallory,OU=ops").keyStore(dir.resolve("mallory.p12"), "PKCS12", PASSWORD);
            javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance("PKIX");
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(ks)) {
                store.load(in, PASSWORD.toCharArray());
            }
            kmf.init(store, PASSWORD.toCharArray());
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
            java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(trustP12)) {
                trust.load(in, PASSWORD.toCharArray());
            }
            tmf.init(trust);
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLSv1.3");
            ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) ctx.getSocketFactory()
                    .createSocket("127.0.0.1", broker.port())) {
                s.setSoTimeout(10_000);
                s.startHandshake();
                // An ApiVersions v3 request: never answered, the connection closes.
                s.getOutputStream().write(new byte[] {0, 0, 0, 13, 0, 18, 0, 3, 0, 0, 0, 1, 0, 3, 'c', 'l', 'i', 0, 0});
                s.getOutputStream().flush();
                int n;
                try {
                    n = s.getInputStream().read();
                } catch (javax.net.ssl.SSLException | java.net.SocketException closed) {
                    n = -1;
                }
                assertThat(n).isEqualTo(-1);
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .filteredOn(m -> m.contains("ssl.principal.mapping.rules"))
                    .singleElement().satisfies(m -> assertThat(m).contains("No rules apply to CN=mallory,OU=ops")));
        } finally {
            tlsLog.detachAppender(log);
        }
    }

    @Test
    void unusableStoresFailStartUpWithOneLineNamingTheKey() throws Exception {
        assertStartFails(Map.of("ssl.keystore.password", "wrong"), "ssl.keystore.password", "wrong password");
        assertStartFails(Map.of("listener.name.ssl.ssl.keystore.password", "wrong"),
            "listener.name.ssl.ssl.keystore.password", "wrong password");
        assertStartFails(Map.of("ssl.keystore.location", dir.resolve("missing.p12").toString()), "ssl.keystore.location",
            "no such file");
        assertStartFails(Map.of("ssl.keystore.type", "NOPE"), "ssl.keystore.type", "unknown store type 'NOPE'");
        assertStartFails(Map.of("ssl.keystore.type", "PEM"), "ssl.keystore.password",
            "SSL key store password cannot be specified with PEM format");
        Path notAStore = Files.writeString(dir.resolve("garbage.p12"), "not a key store");
        assertStartFails(Map.of("ssl.keystore.location", notAStore.toString()), "ssl.keystore.location",
            "Failed to load SSL keystore");
        assertStartFails(Map.of("ssl.enabled.protocols", "TLSv1.3,TLSv9"), "ssl.enabled.protocols",
            "unknown or unsupported protocol 'TLSv9'");
        assertStartFails(Map.of("ssl.protocol", "NOPE"), "ssl.protocol", "unknown TLS protocol");
        assertStartFails(Map.of("ssl.cipher.suites", "TLS_NO_SUCH_CIPHER"), "ssl.cipher.suites", "");
        assertStartFails(Map.of("ssl.client.auth", "always"), "ssl.client.auth",
            "Invalid value always for configuration ssl.client.auth: String must be one of: required, requested, none");
        assertStartFails(Map.of("ssl.principal.mapping.rules", "RULE:^CN=(.*)$/$1"), "ssl.principal.mapping.rules",
            "Invalid rule");
        assertStartFails(Map.of("ssl.truststore.location", trustP12.toString(), "ssl.truststore.password", "wrong"),
            "ssl.truststore.password", "wrong password");
        Map<String, String> noKeyStore = new HashMap<>(sslListener());
        noKeyStore.remove("ssl.keystore.location");
        noKeyStore.remove("ssl.keystore.password");
        assertThatThrownBy(() -> TestBroker.builder(dir).config(noKeyStore).start()).isInstanceOf(ConfigException.class)
            .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo("ssl.keystore.location"));
        assertThatThrownBy(() -> TestBroker.builder(dir).config(Map.of("listeners", "SSL://127.0.0.1:0",
                "listener.security.protocol.map", "SSL:TLS")).start())
            .isInstanceOf(ConfigException.class).hasMessageContaining("'TLS' is not a security protocol");
    }

    private void assertStartFails(Map<String, String> change, String key, String message) {
        Map<String, String> c = sslListener();
        c.putAll(change);
        assertThatThrownBy(() -> TestBroker.builder(dir).config(c).start())
            .isInstanceOf(ConfigException.class)
            .satisfies(e -> assertThat(((ConfigException) e).key()).as(change.toString()).isEqualTo(key))
            .hasMessageContaining(message)
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain(PASSWORD).doesNotContain("\n"));
    }

    @Test
    void aRotatedKeyStoreServesNewConnectionsWithoutRestartAndABrokenOneKeepsTheOld() throws Exception {
        TestPki next = TestPki.create("kaas-next-ca");
        Path trustNext = next.trustStore(dir.resolve("trust-next.p12"), "PKCS12", PASSWORD);
        Path live = Files.copy(serverP12, dir.resolve("live.p12"));
        Map<String, String> c = sslListener();
        c.put("ssl.keystore.location", live.toString());
        c.put("tls.store.check.interval.ms", "200");
        Map<String, Object> trustsNext = clientSsl();
        trustsNext.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustNext.toString());
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger tlsLog = (Logger) LoggerFactory.getLogger("io.kaas.security.tls.ServerTls");
        log.start();
        tlsLog.addAppender(log);
        try (TestBroker broker = TestBroker.builder(dir).config(c).start()) {
            try (Admin admin = admin(broker.bootstrap(), trustsNext)) {
                assertThatThrownBy(() -> admin.describeCluster().nodes().get(15, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SslAuthenticationException.class);
            }
            // A half-written file: the old certificate stays in use, one WARN.
            Files.write(live, new byte[] {1, 2, 3});
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(m -> assertThat(m).contains("changed but cannot be used", "keeping the previous stores")));
            try (Admin admin = admin(broker.bootstrap(), clientSsl())) {
                assertThat(admin.describeCluster().nodes().get(15, TimeUnit.SECONDS)).hasSize(1);
            }
            next.issue("CN=kaas-broker-2").keyStore(live, "PKCS12", PASSWORD);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(m -> assertThat(m).contains("reloaded its key and trust stores")));
            try (Admin admin = admin(broker.bootstrap(), trustsNext)) {
                assertThat(admin.describeCluster().nodes().get(15, TimeUnit.SECONDS)).hasSize(1);
            }
        } finally {
            tlsLog.detachAppender(log);
        }
    }
}
