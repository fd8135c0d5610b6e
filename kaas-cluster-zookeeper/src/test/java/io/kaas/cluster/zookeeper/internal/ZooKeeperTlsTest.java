package io.kaas.cluster.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.plugin.PluginConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store over TLS to a ZooKeeper server that listens only on a TLS port (Netty, client certificates required):
 * the {@code zookeeper.ssl.*} keys reach ZooKeeper's client through the store's ZKClientConfig. The key pair and
 * certificate are made in the test with the JDK's keytool. With {@code zookeeper.set.acl=true} the certificate is the
 * creator of every node (x509), the world may read all but the SCRAM credentials.
 */
@Timeout(120)
class ZooKeeperTlsTest {
    private static final String PASSWORD = "test-pass";

    @TempDir
    Path dir;
    private Properties savedSystemProperties;

    @BeforeEach
    void saveSystemProperties() {
        savedSystemProperties = (Properties) System.getProperties().clone();
    }

    /** The server reads its ssl.* settings from System properties: they go when the test ends. */
    @AfterEach
    void restoreSystemProperties() {
        System.setProperties(savedSystemProperties);
    }

    private void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool %s: %s", args[0], out).isZero();
    }

    @Test
    void theStoreTalksTlsWithTheSslKeysAndNotWithoutThem() throws Exception {
        Path keystore = dir.resolve("zk.p12");
        Path cert = dir.resolve("zk.crt");
        Path truststore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "zk", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-alias", "zk", "-keystore", keystore.toString(), "-storepass", PASSWORD, "-rfc",
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", cert.toString(), "-keystore", truststore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD);

        int securePort;
        try (ServerSocket s = new ServerSocket(0)) {
            securePort = s.getLocalPort();
        }
        Map<String, Object> server = new HashMap<>();
        server.put("secureClientPort", Integer.toString(securePort));
        server.put("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
        server.put("ssl.keyStore.location", keystore.toString());
        server.put("ssl.keyStore.password", PASSWORD);
        server.put("ssl.trustStore.location", truststore.toString());
        server.put("ssl.trustStore.password", PASSWORD);
        InstanceSpec spec = new InstanceSpec(dir.resolve("zk").toFile(), -1, -1, -1, true, 1, 100, 0, server, "127.0.0.1");
        try (TestingServer zk = new TestingServer(spec, true)) {
            assertThat(zk.getPort()).as("the plaintext port, which the store does not use").isPositive();
            String connect = "127.0.0.1:" + securePort + "/kaas-tls";
            Map<String, String> tls = new HashMap<>(Map.of("zookeeper.connect", connect,
                    "zookeeper.session.timeout.ms", "4000", "zookeeper.connection.timeout.ms", "4000",
                    "zookeeper.ssl.client.enable", "true",
                    "zookeeper.ssl.keystore.location", keystore.toString(), "zookeeper.ssl.keystore.password", PASSWORD,
                    "zookeeper.ssl.keystore.type", "PKCS12",
                    "zookeeper.ssl.truststore.location", truststore.toString(), "zookeeper.ssl.truststore.password", PASSWORD,
                    "zookeeper.ssl.truststore.type", "PKCS12"));
            // Kafka's default is TLSv1.2; ZooKeeper 3.9's server offers TLSv1.3 only unless told otherwise
            tls.put("zookeeper.ssl.protocol", "TLSv1.3");
            try (ZooKeeperClusterStore store = ZooKeeperClusterStore.open(new ClusterStoreContext(dir, PluginConfig.of(tls), 1))) {
                store.createTopic(new TopicRecord("over-tls", UUID.randomUUID(), 1, Map.of()));
                assertThat(store.topic("over-tls")).isPresent();
                assertThat(store.session().leaseValid()).isTrue();
            }

            // zookeeper.set.acl=true: the certificate authenticates the store (x509), its nodes are its own
            Map<String, String> secured = new HashMap<>(tls);
            secured.put("zookeeper.connect", "127.0.0.1:" + securePort + "/kaas-acl");
            secured.put("zookeeper.set.acl", "true");
            try (ZooKeeperClusterStore store = ZooKeeperClusterStore.open(new ClusterStoreContext(dir, PluginConfig.of(secured), 1))) {
                store.createTopic(new TopicRecord("guarded", UUID.randomUUID(), 1, Map.of()));
                store.alterScramCredentials(List.of(new io.kaas.api.cluster.ScramCredentialRecord(
                        new io.kaas.api.cluster.ScramCredentialRef("alice", "SCRAM-SHA-256"), new byte[] {1}, new byte[] {2},
                        new byte[] {3}, 4096)), List.of());
                List<ACL> topicAcl = store.zooKeeper().getACL("/topics/guarded", new Stat());
                assertThat(topicAcl).anySatisfy(a -> {
                    assertThat(a.getId().getScheme()).isEqualTo("x509");
                    assertThat(a.getPerms()).isEqualTo(ZooDefs.Perms.ALL);
                });
                assertThat(topicAcl).contains(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
                List<ACL> scramAcl = store.zooKeeper().getACL("/config/users/alice", new Stat());
                assertThat(scramAcl).singleElement().satisfies(a -> assertThat(a.getId().getScheme()).isEqualTo("x509"));
            }

            Map<String, String> plain = Map.of("zookeeper.connect", connect, "zookeeper.session.timeout.ms", "4000",
                    "zookeeper.connection.timeout.ms", "1500");
            assertThatThrownBy(() -> ZooKeeperClusterStore.open(new ClusterStoreContext(dir, PluginConfig.of(plain), 1)))
                    .as("without zookeeper.ssl.client.enable the TLS port does not answer")
                    .isInstanceOf(ClusterStateException.class).hasMessageContaining("Could not connect to ZooKeeper at 127.0.0.1:" + securePort);
        }
    }
}
