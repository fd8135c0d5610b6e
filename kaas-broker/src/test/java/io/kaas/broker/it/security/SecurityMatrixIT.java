package io.kaas.broker.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.broker.it.ExternalProcesses;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.it.sasl.Tokens;
import io.kaas.broker.it.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every listener type with every SASL mechanism, from real clients: one broker with a PLAINTEXT, an SSL, a
 * SASL_PLAINTEXT and a SASL_SSL listener (certificates made here), PLAIN users from the JAAS config and SCRAM users
 * created through the Admin on the PLAINTEXT listener (so they live in the cluster-state store), OAUTHBEARER tokens
 * signed here and checked against a JWKS file. The Java
 * Producer, Consumer and Admin on each combination; kcat (librdkafka) with SCRAM on both SASL listeners; kafkajs
 * with SCRAM; wrong passwords refused with Kafka's message.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SecurityMatrixIT {

    private static final String PASSWORD = "store-secret";
    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";
    private static final String OAUTH_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
    private static final String ALLOWED_URLS = "org.apache.kafka.sasl.oauthbearer.allowed.urls";

    @TempDir
    static Path dir;
    static TestPki pki;
    static Path trustP12;
    static Path caPem;
    static Path tokenFile;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create("matrix-ca");
        Path serverP12 = pki.issue("CN=kaas-broker").keyStore(dir.resolve("server.p12"), "PKCS12", PASSWORD);
        trustP12 = pki.trustStore(dir.resolve("trust.p12"), "PKCS12", PASSWORD);
        caPem = Files.writeString(dir.resolve("ca.pem"), pki.caPem());
        // OAUTHBEARER: an identity provider made here; the broker checks tokens against its JWKS file, the
        // clients read a signed token from a file (Kafka's OAuthBearerLoginCallbackHandler).
        Tokens idp = new Tokens("matrix-key");
        String jwks = idp.writeJwks(dir.resolve("jwks.json")).toUri().toString();
        tokenFile = Files.writeString(dir.resolve("token.jwt"), idp.token("svc-dave", 600));
        System.setProperty(ALLOWED_URLS, jwks + "," + tokenFile.toUri());
        String plainUsers = PLAIN_MODULE + " required user_alice=\"alice-secret\" user_bob=\"bob-secret\";";
        Map<String, String> c = new HashMap<>();
        c.put("listeners", "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0");
        c.put("ssl.keystore.type", "PKCS12");
        c.put("ssl.keystore.location", serverP12.toString());
        c.put("ssl.keystore.password", PASSWORD);
        c.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER");
        c.put("sasl.oauthbearer.jwks.endpoint.url", jwks);
        c.put("sasl.oauthbearer.expected.audience", "kaas");
        c.put("sasl.oauthbearer.expected.issuer", "https://idp.test");
        for (String listener : List.of("sasl_plaintext", "sasl_ssl")) {
            c.put("listener.name." + listener + ".oauthbearer.sasl.jaas.config", OAUTH_MODULE + " required;");
            c.put("listener.name." + listener + ".oauthbearer.sasl.server.callback.handler.class",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler");
        }
        c.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", plainUsers);
        c.put("listener.name.sasl_ssl.plain.sasl.jaas.config", plainUsers);
        broker = TestBroker.builder(dir.resolve("data")).config(c).start();
        try (Admin admin = admin("PLAINTEXT", Map.of())) {
            // One request per mechanism: Kafka refuses a user named twice in one request.
            admin.alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("carol", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192),
                    "carol-secret"))).all().get(20, TimeUnit.SECONDS);
            admin.alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("carol", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
                    "carol-secret-512"))).all().get(20, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() {
        System.clearProperty(ALLOWED_URLS);
        if (broker != null) {
            broker.close();
        }
    }

    private static String bootstrap(String listener) {
        return "127.0.0.1:" + broker.broker.boundPort(listener);
    }

    /** Client keys for {@code listener} (named after its protocol) as {@code user} with {@code mechanism} ("-": none). */
    static Map<String, Object> client(String listener, String mechanism, String user, String password) {
        Map<String, Object> p = new HashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, listener);
        if (listener.endsWith("SSL")) {
            p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
            p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustP12.toString());
            p.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, PASSWORD);
        }
        if (mechanism.equals("OAUTHBEARER")) {
            p.put(SaslConfigs.SASL_MECHANISM, mechanism);
            p.put(SaslConfigs.SASL_JAAS_CONFIG, OAUTH_MODULE + " required;");
            p.put(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS,
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
            p.put(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, tokenFile.toUri().toString());
        } else if (listener.startsWith("SASL")) {
            p.put(SaslConfigs.SASL_MECHANISM, mechanism);
            String module = mechanism.equals("PLAIN") ? PLAIN_MODULE : SCRAM_MODULE;
            p.put(SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + user + "\" password=\"" + password + "\";");
        }
        return p;
    }

    static Admin admin(String listener, Map<String, Object> security) {
        return KafkaClients.at(bootstrap(listener)).admin(security);
    }

    @ParameterizedTest(name = "{0} {1} as {2}")
    @CsvSource({
        "SSL, -, -, -",
        "SASL_PLAINTEXT, PLAIN, alice, alice-secret",
        "SASL_PLAINTEXT, SCRAM-SHA-256, carol, carol-secret",
        "SASL_PLAINTEXT, SCRAM-SHA-512, carol, carol-secret-512",
        "SASL_SSL, PLAIN, bob, bob-secret",
        "SASL_SSL, SCRAM-SHA-256, carol, carol-secret",
        "SASL_SSL, SCRAM-SHA-512, carol, carol-secret-512",
        "SASL_PLAINTEXT, OAUTHBEARER, svc-dave, -",
        "SASL_SSL, OAUTHBEARER, svc-dave, -",
    })
    void theJavaClientsProduceConsumeAndAdministerOverEveryListenerAndMechanism(String listener, String mechanism,
                                                                               String user, String password) throws Exception {
        Map<String, Object> security = client(listener, mechanism, user, password);
        String topic = ("matrix-" + listener + "-" + mechanism).toLowerCase().replace('_', '-');
        try (Admin admin = admin(listener, security)) {
            KafkaClients.createTopic(admin, topic, 1, Map.of());
            assertThat(admin.describeCluster().nodes().get(20, TimeUnit.SECONDS))
                .singleElement().satisfies(n -> assertThat(n.port()).isEqualTo(broker.broker.boundPort(listener)));
        }
        KafkaClients clients = KafkaClients.at(bootstrap(listener));
        Map<String, Object> producerKeys = new HashMap<>(security);
        producerKeys.put(ProducerConfig.ACKS_CONFIG, "all");
        List<String> values = IntStream.range(0, 20).mapToObj(i -> user + "-" + i).toList();
        try (KafkaProducer<String, String> producer = clients.producer(producerKeys)) {
            for (String v : values) {
                producer.send(new ProducerRecord<>(topic, 0, "k", v)).get(20, TimeUnit.SECONDS);
            }
        }
        try (KafkaConsumer<String, String> consumer = clients.consumer(security)) {
            assertThat(KafkaClients.readAll(consumer, new TopicPartition(topic, 0), Duration.ofSeconds(20)))
                .extracting(ConsumerRecord::value).containsExactlyElementsOf(values);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"SASL_PLAINTEXT, SCRAM-SHA-256", "SASL_SSL, SCRAM-SHA-512", "SASL_SSL, PLAIN"})
    void aWrongPasswordIsRefusedWithKafkasMessage(String listener, String mechanism) {
        String expected = mechanism.equals("PLAIN") ? "Authentication failed: Invalid username or password"
            : "Authentication failed during authentication due to invalid credentials with SASL mechanism " + mechanism;
        try (Admin admin = admin(listener, client(listener, mechanism, mechanism.equals("PLAIN") ? "alice" : "carol",
                "wrong"))) {
            assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining(expected);
        }
    }

    @ParameterizedTest(name = "kcat {0} {1}")
    @CsvSource({"SASL_PLAINTEXT, SCRAM-SHA-256, carol-secret", "SASL_SSL, SCRAM-SHA-512, carol-secret-512"})
    void kcatProducesAndConsumesWithScram(String listener, String mechanism, String password) throws Exception {
        String kcat = ExternalProcesses.onPath("kcat");
        assumeTrue(kcat != null, "kcat is not installed");
        String topic = ("kcat-" + listener + "-" + mechanism).toLowerCase().replace('_', '-');
        try (Admin admin = admin("PLAINTEXT", Map.of())) {
            KafkaClients.createTopic(admin, topic, 1, Map.of());
        }
        List<String> args = new ArrayList<>(List.of(kcat, "-b", bootstrap(listener),
            "-X", "security.protocol=" + listener.toLowerCase(), "-X", "sasl.mechanisms=" + mechanism,
            "-X", "sasl.username=carol", "-X", "sasl.password=" + password));
        if (listener.endsWith("SSL")) {
            args.addAll(List.of("-X", "ssl.ca.location=" + caPem));
        }
        String lines = String.join("\n", IntStream.range(0, 50).mapToObj(i -> "k" + i + ":v" + i).toList()) + "\n";
        Path input = Files.writeString(dir.resolve(topic + ".in"), lines);
        List<String> produce = new ArrayList<>(args);
        produce.addAll(List.of("-P", "-t", topic, "-p", "0", "-K", ":", "-X", "acks=all", "-l", input.toString()));
        ExternalProcesses.run(dir, Duration.ofSeconds(60), produce.toArray(String[]::new));
        List<String> consume = new ArrayList<>(args);
        consume.addAll(List.of("-C", "-t", topic, "-p", "0", "-o", "beginning", "-e", "-q", "-f", "%k=%s@%o\\n"));
        String out = ExternalProcesses.run(dir, Duration.ofSeconds(60), consume.toArray(String[]::new));
        assertThat(out.lines().filter(l -> l.contains("=")).toList())
            .containsExactlyElementsOf(IntStream.range(0, 50).mapToObj(i -> "k" + i + "=v" + i + "@" + i).toList());

        List<String> wrong = new ArrayList<>(args);
        wrong.set(wrong.indexOf("sasl.password=" + password), "sasl.password=wrong");
        wrong.addAll(List.of("-L", "-m", "5"));
        Process p = new ProcessBuilder(wrong).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String refused = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(refused).isNotZero();
        assertThat(refused).contains("Authentication failed");
    }

    @Test
    void kafkajsLogsInWithScramProducesAndConsumes() throws Exception {
        Path work = ExternalProcesses.kafkajs();
        Path script = work.resolve("scram.js");
        try (var in = SecurityMatrixIT.class.getResourceAsStream("kafkajs-scram.js")) {
            Files.write(script, in.readAllBytes());
        }
        String out = ExternalProcesses.run(work, Duration.ofSeconds(120), "node", script.toString(),
            bootstrap("SASL_PLAINTEXT"), "scram-sha-256", "carol", "carol-secret", "kafkajs-scram", "kafkajs-scram-group");
        assertThat(out).contains("REFUSED KafkaJSSASLAuthenticationError")
            .contains("SEEN [\"js-1\",\"js-2\",\"js-3\"]");
    }
}
