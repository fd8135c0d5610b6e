package io.kaas.cluster.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import io.kaas.cluster.zookeeper.ZooKeeperClusterStoreProvider;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The store's settings under Kafka's names: parsing, defaults, the TLS mapping and every malformed value's line. */
class ZkConfigTest {
    private static ZkConfig config(Map<String, String> values) {
        return ZkConfig.of(PluginConfig.of(values));
    }

    @Test
    void aConnectStringIsServersWithAnOptionalChroot() {
        ConnectString c = ConnectString.parse("zookeeper.connect", "zk1:2181,zk2:2182,[::1]:2183/kaas/prod");
        assertThat(c.hosts()).containsExactly("zk1:2181", "zk2:2182", "[::1]:2183");
        assertThat(c.chroot()).contains("/kaas/prod");
        assertThat(c.full()).isEqualTo("zk1:2181,zk2:2182,[::1]:2183/kaas/prod");
        ConnectString plain = ConnectString.parse("zookeeper.connect", " localhost ");
        assertThat(plain.hosts()).containsExactly("localhost:2181");
        assertThat(plain.chroot()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "zk1:2181,", ",zk1:2181", "zk1:abc", "zk1:0", "zk1:65536", "zk1:2181/", "zk1:2181/kaas/",
            "zk1:2181/kaas//prod", "zk1:2181/kaas/../x", ":2181", "zk1:2181:2182", "[::1:2181", "zk 1:2181", "zk1:2181/a\u0001b"})
    void aMalformedConnectStringFailsOpenWithOneLineNamingTheKey(String value) {
        assertThatThrownBy(() -> new ZooKeeperClusterStoreProvider().open(new ClusterStoreContext(Path.of("unused"),
                PluginConfig.of(Map.of("zookeeper.connect", value)), 1)))
                .isInstanceOf(PluginConfigException.class)
                .hasMessageStartingWith("Invalid value for config 'zookeeper.connect': expected host:port[,host:port...][/chroot]")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"))
                .satisfies(e -> assertThat(((PluginConfigException) e).key()).isEqualTo("zookeeper.connect"));
    }

    @Test
    void aMissingConnectStringIsNamed() {
        assertThatThrownBy(() -> config(Map.of())).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'zookeeper.connect'");
    }

    @Test
    void theShortNameOfClusterZookeeperKeysIsReadAndNamedInErrors() {
        ZkConfig c = config(Map.of("connect", "zk1:2181/k", "session.timeout.ms", "6000"));
        assertThat(c.connect.full()).isEqualTo("zk1:2181/k");
        assertThat(c.sessionTimeoutMs).isEqualTo(6000);
        assertThatThrownBy(() -> config(Map.of("connect", "zk1:x"))).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'cluster.zookeeper.connect'");
        assertThat(config(Map.of("zookeeper.connect", "a:1", "connect", "b:2")).connect.full()).isEqualTo("a:1");
    }

    @Test
    void timeoutsDefaultToSixSeconds() {
        ZkConfig c = config(Map.of("zookeeper.connect", "zk1:2181"));
        assertThat(c.sessionTimeoutMs).isEqualTo(6_000);
        assertThat(c.connectionTimeoutMs).isEqualTo(6_000);
        assertThat(c.setAcl).isFalse();
        assertThat(c.tls).isFalse();
        ZkConfig set = config(Map.of("zookeeper.connect", "zk1:2181", "zookeeper.session.timeout.ms", "9000"));
        assertThat(set.connectionTimeoutMs).as("the connection timeout defaults to the session timeout").isEqualTo(9000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zookeeper.session.timeout.ms=0", "zookeeper.session.timeout.ms=-5", "zookeeper.session.timeout.ms=ten",
            "zookeeper.connection.timeout.ms=0", "zookeeper.connection.timeout.ms=1.5", "zookeeper.set.acl=yes",
            "zookeeper.ssl.client.enable=1", "zookeeper.ssl.crl.enable=on", "zookeeper.ssl.ocsp.enable=maybe"})
    void aMalformedValueIsNamed(String setting) {
        String key = setting.substring(0, setting.indexOf('='));
        Map<String, String> values = new HashMap<>(Map.of("zookeeper.connect", "zk1:2181"));
        values.put(key, setting.substring(setting.indexOf('=') + 1));
        assertThatThrownBy(() -> config(values)).isInstanceOf(PluginConfigException.class)
                .hasMessageStartingWith("Invalid value for config '" + key + "'");
    }

    @Test
    void tlsSettingsMapToZooKeepersClientPropertiesAsKafkaMapsThem() {
        ZKClientConfig zk = config(Map.ofEntries(Map.entry("zookeeper.connect", "zk1:2182"),
                Map.entry("zookeeper.ssl.client.enable", "true"),
                Map.entry("zookeeper.ssl.keystore.location", "/k.p12"), Map.entry("zookeeper.ssl.keystore.password", "kpw"),
                Map.entry("zookeeper.ssl.keystore.type", "PKCS12"), Map.entry("zookeeper.ssl.truststore.location", "/t.jks"),
                Map.entry("zookeeper.ssl.truststore.password", "tpw"), Map.entry("zookeeper.ssl.truststore.type", "JKS"),
                Map.entry("zookeeper.ssl.enabled.protocols", "TLSv1.3"), Map.entry("zookeeper.ssl.cipher.suites", "TLS_AES_128_GCM_SHA256"),
                Map.entry("zookeeper.ssl.endpoint.identification.algorithm", ""), Map.entry("zookeeper.ssl.crl.enable", "true"),
                Map.entry("zookeeper.ssl.ocsp.enable", "true"))).clientConfig();
        assertThat(zk.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
        assertThat(zk.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET)).isEqualTo("org.apache.zookeeper.ClientCnxnSocketNetty");
        assertThat(zk.getProperty("zookeeper.ssl.keyStore.location")).isEqualTo("/k.p12");
        assertThat(zk.getProperty("zookeeper.ssl.keyStore.password")).isEqualTo("kpw");
        assertThat(zk.getProperty("zookeeper.ssl.keyStore.type")).isEqualTo("PKCS12");
        assertThat(zk.getProperty("zookeeper.ssl.trustStore.location")).isEqualTo("/t.jks");
        assertThat(zk.getProperty("zookeeper.ssl.trustStore.password")).isEqualTo("tpw");
        assertThat(zk.getProperty("zookeeper.ssl.trustStore.type")).isEqualTo("JKS");
        assertThat(zk.getProperty("zookeeper.ssl.protocol")).isEqualTo("TLSv1.2");
        assertThat(zk.getProperty("zookeeper.ssl.enabledProtocols")).isEqualTo("TLSv1.3");
        assertThat(zk.getProperty("zookeeper.ssl.ciphersuites")).isEqualTo("TLS_AES_128_GCM_SHA256");
        assertThat(zk.getProperty("zookeeper.ssl.hostnameVerification")).isEqualTo("false");
        assertThat(zk.getProperty("zookeeper.ssl.crl")).isEqualTo("true");
        assertThat(zk.getProperty("zookeeper.ssl.ocsp")).isEqualTo("true");
        assertThat(System.getProperty("zookeeper.ssl.keyStore.location")).as("never through System properties").isNull();
    }

    @Test
    void withoutTlsNoSecureClientIsSetAndAGivenSocketIsKept() {
        ZKClientConfig plain = config(Map.of("zookeeper.connect", "zk1:2181")).clientConfig();
        assertThat(plain.getBoolean(ZKClientConfig.SECURE_CLIENT)).isFalse();
        ZKClientConfig tls = config(Map.of("zookeeper.connect", "zk1:2181", "zookeeper.ssl.client.enable", "true",
                "zookeeper.clientCnxnSocket", "com.example.Socket")).clientConfig();
        assertThat(tls.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET)).isEqualTo("com.example.Socket");
        assertThat(tls.getProperty("zookeeper.ssl.hostnameVerification")).as("HTTPS by default").isEqualTo("true");
    }

    @Test
    void theProviderListsEveryKeyItReads() {
        assertThat(new ZooKeeperClusterStoreProvider().configKeys()).containsAll(List.of("zookeeper.connect",
                "zookeeper.session.timeout.ms", "zookeeper.connection.timeout.ms", "zookeeper.set.acl",
                "zookeeper.clientCnxnSocket", "zookeeper.ssl.client.enable", "zookeeper.ssl.keystore.location",
                "zookeeper.ssl.keystore.password", "zookeeper.ssl.keystore.type", "zookeeper.ssl.truststore.location",
                "zookeeper.ssl.truststore.password", "zookeeper.ssl.truststore.type", "zookeeper.ssl.protocol",
                "zookeeper.ssl.enabled.protocols", "zookeeper.ssl.cipher.suites",
                "zookeeper.ssl.endpoint.identification.algorithm", "zookeeper.ssl.crl.enable", "zookeeper.ssl.ocsp.enable"));
        assertThat(new ZooKeeperClusterStoreProvider().name()).isEqualTo("zookeeper");
    }

    @Test
    void groupAndUserNamesOfAnyCharactersBecomeSafeNodeNamesAndBack() {
        for (String id : List.of("", ".", "..", "a/b", "ünïcödé ✓", "%41", "plain-id_1", "CON")) {
            String name = NodeNames.encode(id);
            assertThat(name).matches("[A-Za-z0-9_%-]+").isNotIn(".", "..");
            assertThat(NodeNames.decode(name)).isEqualTo(id);
        }
        assertThatThrownBy(() -> NodeNames.decode("ab%4")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Optional.of(NodeNames.encode("a.b"))).contains("a%2Eb");
    }
}
