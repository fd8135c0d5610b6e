package io.kaas.security.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A listener's dynamic key store change: Kafka's DN and SAN rules and their {@code ssl.allow.*.changes} switches. */
class ServerTlsReconfigureTest {
    private static final String PW = "test-pass-2";

    @TempDir
    static Path dir;

    @BeforeAll
    static void keys() throws Exception {
        store("old.p12", "CN=broker1,O=kaas", "SAN=dns:localhost,ip:127.0.0.1");
        store("same.p12", "CN=broker1,O=kaas", "SAN=dns:localhost,ip:127.0.0.1,dns:extra");
        store("fewer-sans.p12", "CN=broker1,O=kaas", "SAN=dns:localhost");
        store("other-dn.p12", "CN=broker2,O=kaas", "SAN=dns:localhost,ip:127.0.0.1");
    }

    private static void store(String file, String dn, String san) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "k", "-keyalg", "RSA", "-keysize", "2048", "-dname", dn, "-ext", san,
            "-validity", "2", "-storetype", "PKCS12", "-keystore", dir.resolve(file).toString(), "-storepass", PW);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    private static ServerTls tls(Map<String, String> extra) {
        Map<String, String> ssl = new HashMap<>(Map.of(SslKeys.KEYSTORE_TYPE, "PKCS12",
            SslKeys.KEYSTORE_LOCATION, dir.resolve("old.p12").toString(), SslKeys.KEYSTORE_PASSWORD, PW));
        ssl.putAll(extra);
        return ServerTls.create("SSL", ssl);
    }

    private static Map<String, String> keyStore(String file) {
        return Map.of(SslKeys.KEYSTORE_LOCATION, dir.resolve(file).toString());
    }

    @Test
    void sameDnAndMoreSansIsTakenOnceAndUnchangedValuesChangeNothing() {
        ServerTls tls = tls(Map.of());
        assertThat(tls.reconfigure(keyStore("old.p12"))).isFalse();
        assertThat(tls.reconfigure(keyStore("same.p12"))).isTrue();
        assertThat(tls.reconfigure(keyStore("same.p12"))).isFalse();
        assertThat(tls.watchedFiles()).containsExactly(dir.resolve("same.p12").toAbsolutePath());
    }

    @Test
    void aChangedDnOrALostSanIsRefusedAndKeepsTheStoreInUse() {
        ServerTls tls = tls(Map.of());
        assertThatThrownBy(() -> tls.reconfigure(keyStore("other-dn.p12"))).isInstanceOf(TlsConfigException.class)
            .hasMessage("Keystore DistinguishedName does not match:  existing={alias=k, DN=CN=broker1, O=kaas}, "
                + "new={alias=k, DN=CN=broker2, O=kaas}");
        assertThatThrownBy(() -> tls.check(keyStore("fewer-sans.p12"))).isInstanceOf(TlsConfigException.class)
            .hasMessageStartingWith("Keystore SubjectAltNames do not match:  existing={alias=k, SAN=");
        assertThatThrownBy(() -> tls.reconfigure(Map.of(SslKeys.KEYSTORE_PASSWORD, "wrong")))
            .isInstanceOf(TlsConfigException.class).hasMessageContaining("wrong password");
        assertThat(tls.watchedFiles()).containsExactly(dir.resolve("old.p12").toAbsolutePath());
        assertThat(tls.reconfigure(keyStore("old.p12"))).isFalse();
    }

    @Test
    void theAllowSwitchesLetTheDnAndSansChange() {
        assertThat(tls(Map.of(SslKeys.ALLOW_DN_CHANGES, "true")).reconfigure(keyStore("other-dn.p12"))).isTrue();
        assertThat(tls(Map.of(SslKeys.ALLOW_SAN_CHANGES, "true")).reconfigure(keyStore("fewer-sans.p12"))).isTrue();
        assertThatThrownBy(() -> tls(Map.of(SslKeys.ALLOW_SAN_CHANGES, "true")).check(keyStore("other-dn.p12")))
            .hasMessageStartingWith("Keystore DistinguishedName does not match");
    }
}
