package io.kaas.broker.it.tls;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OutputEncryptor;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * A throw-away certificate authority for TLS tests, made with BouncyCastle when a test runs (no key is ever
 * committed): it signs server certificates (for 127.0.0.1 and localhost, so the Java client's host name
 * check passes) and client certificates with a chosen subject, and writes them as PKCS12, JKS or PEM.
 */
public final class TestPki {

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair caKeys;
    private final X509Certificate ca;

    private TestPki(KeyPair caKeys, X509Certificate ca) {
        this.caKeys = caKeys;
        this.ca = ca;
    }

    /** A new CA named {@code CN=<name>}. */
    public static TestPki create(String name) throws Exception {
        KeyPair keys = rsa();
        X500Name subject = name("CN=" + name);
        X509v3CertificateBuilder b = builder(subject, subject, keys);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        return new TestPki(keys, sign(b, keys.getPrivate()));
    }

    public X509Certificate caCertificate() {
        return ca;
    }

    /** A key and certificate for {@code subject} (an X.500 name, e.g. {@code CN=alice,OU=eng}), signed by this CA. */
    public Identity issue(String subject) throws Exception {
        KeyPair keys = rsa();
        X509v3CertificateBuilder b = builder(X500Name.getInstance(ca.getSubjectX500Principal().getEncoded()),
            name(subject), keys);
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
        return new Identity(keys.getPrivate(), new X509Certificate[] {sign(b, caKeys.getPrivate()), ca});
    }

    /** A trust store holding this CA's certificate. */
    public Path trustStore(Path file, String type, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance(type);
        ks.load(null, null);
        ks.setCertificateEntry("ca", ca);
        return store(ks, file, password);
    }

    /** This CA's certificate as PEM. */
    public String caPem() throws IOException {
        return pem(ca);
    }

    /** A private key with its certificate chain (own certificate first, then the CA). */
    public record Identity(PrivateKey key, X509Certificate[] chain) {

        /** A key store of {@code type} (PKCS12 or JKS) with the key under alias {@code key}, one password for both. */
        public Path keyStore(Path file, String type, String password) throws Exception {
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(null, null);
            ks.setKeyEntry("key", key, password.toCharArray(), chain);
            return store(ks, file, password);
        }

        /** The certificate chain as PEM. */
        public String chainPem() throws IOException {
            StringBuilder out = new StringBuilder();
            for (X509Certificate c : chain) {
                out.append(pem(c));
            }
            return out.toString();
        }

        /** The private key as PKCS#8 PEM, encrypted with {@code password} unless it is null. */
        public String keyPem(String password) throws Exception {
            if (password == null) {
                return pemObject(new JcaPKCS8Generator(key, null).generate());
            }
            OutputEncryptor encryptor = new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                .setProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider()).setRandom(RANDOM).setPassword(password.toCharArray()).build();
            return pemObject(new JcaPKCS8Generator(key, encryptor).generate());
        }
    }

    private static Path store(KeyStore ks, Path file, String password) throws IOException, GeneralSecurityException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            ks.store(out, password == null ? new char[0] : password.toCharArray());
        }
        return Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The X.500 name the JDK writes as {@code dn} (RFC 2253 order: most specific first). */
    private static X500Name name(String dn) {
        return X500Name.getInstance(new javax.security.auth.x500.X500Principal(dn).getEncoded());
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048, RANDOM);
        return g.generateKeyPair();
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
            Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), subject, keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer) throws Exception {
        ContentSigner cs = new JcaContentSignerBuilder("SHA256withRSA").build(signer);
        return new JcaX509CertificateConverter().getCertificate(b.build(cs));
    }

    private static String pem(Certificate c) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(c);
        }
        return w.toString();
    }

    private static String pemObject(PemObject o) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(o);
        }
        return w.toString();
    }
}
