package io.kaas.security.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.KafkaPrincipal;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK engine path of a listener's TLS (OpenSSL is not on this module's test class path): a server context
 * from Kafka keys, a real in-memory handshake with a JDK client, and the principal it yields. Keys made by
 * keytool here.
 */
class ServerTlsJdkHandshakeTest {
    private static final String PW = "test-pass-1";

    @TempDir
    static Path dir;
    static Path serverP12;
    static Path clientP12;
    static Path serverCrt;
    static Path clientCrt;

    @BeforeAll
    static void keys() throws Exception {
        serverP12 = dir.resolve("server.p12");
        clientP12 = dir.resolve("client.p12");
        serverCrt = dir.resolve("server.crt");
        clientCrt = dir.resolve("client.crt");
        keytool("-genkeypair", "-alias", "s", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
            "-validity", "2", "-storetype", "PKCS12", "-keystore", serverP12.toString(), "-storepass", PW);
        keytool("-genkeypair", "-alias", "c", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=Alice,OU=eng,O=kaas",
            "-validity", "2", "-storetype", "PKCS12", "-keystore", clientP12.toString(), "-storepass", PW);
        keytool("-exportcert", "-rfc", "-alias", "s", "-keystore", serverP12.toString(), "-storepass", PW, "-file",
            serverCrt.toString());
        keytool("-exportcert", "-rfc", "-alias", "c", "-keystore", clientP12.toString(), "-storepass", PW, "-file",
            clientCrt.toString());
    }

    private static void keytool(String... args) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> cmd = new java.util.ArrayList<>(List.of(keytool.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    private static Map<String, String> serverKeys() throws Exception {
        Map<String, String> ssl = new HashMap<>();
        ssl.put(SslKeys.KEYSTORE_TYPE, "PKCS12");
        ssl.put(SslKeys.KEYSTORE_LOCATION, serverP12.toString());
        ssl.put(SslKeys.KEYSTORE_PASSWORD, PW);
        ssl.put(SslKeys.TRUSTSTORE_TYPE, "PEM");
        ssl.put(SslKeys.TRUSTSTORE_CERTIFICATES, Files.readString(clientCrt));
        ssl.put(SslKeys.PRINCIPAL_MAPPING_RULES, "RULE:^CN=([^,]+),OU=eng,.*$/$1/L,DEFAULT");
        return ssl;
    }

    @Test
    void theJdkEngineIsUsedWithoutOpenSsl() {
        assertThat(ServerSslContextFactory.provider()).isEqualTo(SslProvider.JDK);
    }

    @Test
    void aClientCertificateGivesTheMappedPrincipalAndNoneGivesAnonymous() throws Exception {
        Map<String, String> ssl = serverKeys();
        ssl.put(SslKeys.CLIENT_AUTH, "requested");
        ServerTls tls = ServerTls.create("SSL", ssl);
        SSLEngine server = serverEngine(tls);
        handshake(clientEngine(true), server);
        assertThat(tls.principal(server.getSession())).isEqualTo(new KafkaPrincipal("User", "alice"));
        assertThat(server.getSession().getProtocol()).isEqualTo("TLSv1.3");

        SSLEngine anonymous = serverEngine(tls);
        handshake(clientEngine(false), anonymous);
        assertThat(tls.principal(anonymous.getSession())).isEqualTo(KafkaPrincipal.ANONYMOUS);
    }

    @Test
    void aRequiredCertificateThatIsMissingFailsTheHandshake() throws Exception {
        Map<String, String> ssl = serverKeys();
        ssl.put(SslKeys.CLIENT_AUTH, "required");
        ServerTls tls = ServerTls.create("SSL", ssl);
        assertThatThrownBy(() -> handshake(clientEngine(false), serverEngine(tls))).isInstanceOf(SSLException.class);
    }

    @Test
    void onlyTheEnabledProtocolsAreOffered() throws Exception {
        Map<String, String> ssl = serverKeys();
        ssl.put(SslKeys.ENABLED_PROTOCOLS, "TLSv1.2");
        ServerTls tls = ServerTls.create("SSL", ssl);
        SSLEngine server = serverEngine(tls);
        handshake(clientEngine(true), server);
        assertThat(server.getSession().getProtocol()).isEqualTo("TLSv1.2");
    }

    @Test
    void anUnmatchedDnWithoutDefaultHasNoPrincipal() throws Exception {
        Map<String, String> ssl = serverKeys();
        ssl.put(SslKeys.CLIENT_AUTH, "required");
        ssl.put(SslKeys.PRINCIPAL_MAPPING_RULES, "RULE:^CN=([^,]+),OU=ops,.*$/$1/");
        ServerTls tls = ServerTls.create("SSL", ssl);
        SSLEngine server = serverEngine(tls);
        handshake(clientEngine(true), server);
        assertThatThrownBy(() -> tls.principal(server.getSession())).isInstanceOf(ServerTls.NoMatchingRuleException.class)
            .hasMessageContaining("No rules apply to CN=Alice,OU=eng,O=kaas");
    }

    @Test
    void anEncryptedPemKeyLoadsWithTheJdkAloneAndAWrongKeyPasswordNamesTheKey() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(serverP12)) {
            ks.load(in, PW.toCharArray());
        }
        java.security.PrivateKey key = (java.security.PrivateKey) ks.getKey("s", PW.toCharArray());
        // PKCS#8 encrypted with PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC) by openssl, the usual way such files are made.
        Path openssl = Path.of("/usr/bin/openssl");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(openssl), "no openssl");
        Path plain = Files.writeString(dir.resolve("plain-key.pem"), "-----BEGIN PRIVATE KEY-----\n"
            + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
        Path encrypted = dir.resolve("encrypted-key.pem");
        Process p = new ProcessBuilder(openssl.toString(), "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-v2prf", "hmacWithSHA256",
            "-in", plain.toString(), "-out", encrypted.toString(), "-passout", "pass:pem-pass").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        String pem = Files.readString(encrypted) + Files.readString(serverCrt);
        assertThat(pem).contains("BEGIN ENCRYPTED PRIVATE KEY");
        Path file = Files.writeString(dir.resolve("server-encrypted.pem"), pem);
        Map<String, String> ssl = serverKeys();
        ssl.remove(SslKeys.KEYSTORE_PASSWORD);
        ssl.put(SslKeys.KEYSTORE_TYPE, "PEM");
        ssl.put(SslKeys.KEYSTORE_LOCATION, file.toString());
        ssl.put(SslKeys.KEY_PASSWORD, "pem-pass");
        ServerTls tls = ServerTls.create("SSL", ssl);
        SSLEngine server = serverEngine(tls);
        handshake(clientEngine(true), server);
        assertThat(server.getSession().getProtocol()).isEqualTo("TLSv1.3");

        ssl.put(SslKeys.KEY_PASSWORD, "wrong");
        assertThatThrownBy(() -> ServerTls.create("SSL", ssl)).isInstanceOf(TlsConfigException.class)
            .satisfies(e -> assertThat(((TlsConfigException) e).key()).isEqualTo(SslKeys.KEY_PASSWORD))
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("wrong"));
    }

    /** The inter-broker client's context: Kafka keys, the server's certificate checked, its own offered. */
    private static Map<String, String> clientKeys() {
        Map<String, String> ssl = new HashMap<>();
        ssl.put(SslKeys.TRUSTSTORE_TYPE, "PEM");
        ssl.put(SslKeys.TRUSTSTORE_LOCATION, serverCrt.toString());
        ssl.put(SslKeys.KEYSTORE_TYPE, "PKCS12");
        ssl.put(SslKeys.KEYSTORE_LOCATION, clientP12.toString());
        ssl.put(SslKeys.KEYSTORE_PASSWORD, PW);
        return ssl;
    }

    @Test
    void theInterBrokerClientContextTrustsItsTrustStoreOffersItsKeyStoreAndChecksTheHost() throws Exception {
        Map<String, String> ssl = serverKeys();
        ssl.put(SslKeys.CLIENT_AUTH, "required");
        ServerTls tls = ServerTls.create("INTERNAL", ssl);
        SSLEngine server = serverEngine(tls);
        handshake(ClientSslContextFactory.build(clientKeys()).newEngine(ByteBufAllocator.DEFAULT, "localhost", 9093),
            server);
        assertThat(tls.principal(server.getSession())).isEqualTo(new KafkaPrincipal("User", "alice"));

        // Kafka's default ssl.endpoint.identification.algorithm=https: the certificate names localhost, not this host.
        assertThatThrownBy(() -> handshake(ClientSslContextFactory.build(clientKeys())
            .newEngine(ByteBufAllocator.DEFAULT, "broker2.example", 9093), serverEngine(tls)))
            .isInstanceOf(SSLException.class);
        Map<String, String> noHostCheck = clientKeys();
        noHostCheck.put(ClientSslContextFactory.ENDPOINT_IDENTIFICATION_ALGORITHM, "");
        SSLEngine other = serverEngine(tls);
        handshake(ClientSslContextFactory.build(noHostCheck).newEngine(ByteBufAllocator.DEFAULT, "broker2.example",
            9093), other);
        assertThat(tls.principal(other.getSession())).isEqualTo(new KafkaPrincipal("User", "alice"));
    }

    @Test
    void badInterBrokerClientKeysNameTheKey() {
        Map<String, String> missing = clientKeys();
        missing.put(SslKeys.TRUSTSTORE_TYPE, "PKCS12");
        missing.put(SslKeys.TRUSTSTORE_LOCATION, dir.resolve("no-such.p12").toString());
        missing.put(SslKeys.TRUSTSTORE_PASSWORD, PW);
        assertThatThrownBy(() -> ClientSslContextFactory.build(missing)).isInstanceOf(TlsConfigException.class)
            .satisfies(e -> assertThat(((TlsConfigException) e).key()).isEqualTo(SslKeys.TRUSTSTORE_LOCATION));
        Map<String, String> noPassword = clientKeys();
        noPassword.remove(SslKeys.KEYSTORE_PASSWORD);
        assertThatThrownBy(() -> ClientSslContextFactory.build(noPassword)).isInstanceOf(TlsConfigException.class)
            .satisfies(e -> assertThat(((TlsConfigException) e).key()).isEqualTo(SslKeys.KEYSTORE_PASSWORD));
        Map<String, String> wrongPassword = clientKeys();
        wrongPassword.put(SslKeys.KEYSTORE_PASSWORD, "not-the-password");
        assertThatThrownBy(() -> ClientSslContextFactory.build(wrongPassword)).isInstanceOf(TlsConfigException.class)
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not-the-password"));
    }

    private static SSLEngine serverEngine(ServerTls tls) {
        SslHandler handler = tls.newHandler(ByteBufAllocator.DEFAULT);
        return handler.engine();
    }

    private static SSLEngine clientEngine(boolean withCertificate) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(serverCrt)) {
            trust.setCertificateEntry("s", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (withCertificate) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(clientP12)) {
                ks.load(in, PW.toCharArray());
            }
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PW.toCharArray());
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        SSLEngine engine = ctx.createSSLEngine("localhost", 9093);
        engine.setUseClientMode(true);
        return engine;
    }

    /** Runs both engines' handshake in memory until both are done (bounded). */
    private static void handshake(SSLEngine client, SSLEngine server) throws SSLException {
        ByteBuffer empty = ByteBuffer.allocate(0);
        ByteBuffer toServer = ByteBuffer.allocate(1 << 17);
        ByteBuffer toClient = ByteBuffer.allocate(1 << 17);
        ByteBuffer sink = ByteBuffer.allocate(1 << 17);
        client.beginHandshake();
        server.beginHandshake();
        for (int i = 0; i < 200; i++) {
            step(client, empty, toServer, toClient, sink);
            step(server, empty, toClient, toServer, sink);
            if (done(client) && done(server) && toServer.position() == 0 && toClient.position() == 0) {
                return;
            }
        }
        throw new AssertionError("handshake did not finish");
    }

    private static void step(SSLEngine engine, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer sink)
            throws SSLException {
        HandshakeStatus hs = engine.getHandshakeStatus();
        while (hs == HandshakeStatus.NEED_TASK) {
            engine.getDelegatedTask().run();
            hs = engine.getHandshakeStatus();
        }
        if (hs == HandshakeStatus.NEED_WRAP) {
            engine.wrap(empty, out);
        }
        in.flip();
        if (in.hasRemaining()) {
            sink.clear();
            engine.unwrap(in, sink);
        }
        in.compact();
        while (engine.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
            engine.getDelegatedTask().run();
        }
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus hs = engine.getHandshakeStatus();
        return hs == HandshakeStatus.NOT_HANDSHAKING || hs == HandshakeStatus.FINISHED;
    }
}
