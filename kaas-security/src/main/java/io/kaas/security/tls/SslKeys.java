package io.kaas.security.tls;

import java.util.List;
import java.util.Set;

/** Kafka's {@code ssl.*} config keys a listener's TLS reads, with Kafka's defaults. */
public final class SslKeys {

    public static final String PROTOCOL = "ssl.protocol";
    public static final String ENABLED_PROTOCOLS = "ssl.enabled.protocols";
    public static final String CIPHER_SUITES = "ssl.cipher.suites";
    public static final String KEYSTORE_TYPE = "ssl.keystore.type";
    public static final String KEYSTORE_LOCATION = "ssl.keystore.location";
    public static final String KEYSTORE_PASSWORD = "ssl.keystore.password";
    public static final String KEY_PASSWORD = "ssl.key.password";
    public static final String KEYSTORE_KEY = "ssl.keystore.key";
    public static final String KEYSTORE_CERTIFICATE_CHAIN = "ssl.keystore.certificate.chain";
    public static final String TRUSTSTORE_TYPE = "ssl.truststore.type";
    public static final String TRUSTSTORE_LOCATION = "ssl.truststore.location";
    public static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";
    public static final String TRUSTSTORE_CERTIFICATES = "ssl.truststore.certificates";
    public static final String KEYMANAGER_ALGORITHM = "ssl.keymanager.algorithm";
    public static final String TRUSTMANAGER_ALGORITHM = "ssl.trustmanager.algorithm";
    public static final String CLIENT_AUTH = "ssl.client.auth";
    public static final String PRINCIPAL_MAPPING_RULES = "ssl.principal.mapping.rules";
    /** Kafka's broker keys that let a dynamic key store change the certificate's DN / drop SANs (default false). */
    public static final String ALLOW_DN_CHANGES = "ssl.allow.dn.changes";
    public static final String ALLOW_SAN_CHANGES = "ssl.allow.san.changes";

    public static final String DEFAULT_PROTOCOL = "TLSv1.3";
    public static final String DEFAULT_ENABLED_PROTOCOLS = "TLSv1.2,TLSv1.3";
    public static final String DEFAULT_STORE_TYPE = "JKS";
    public static final String DEFAULT_CLIENT_AUTH = "none";
    public static final String DEFAULT_PRINCIPAL_MAPPING_RULES = "DEFAULT";
    public static final String PEM = "PEM";

    /** Every key above, in the order DescribeConfigs lists them. */
    public static final List<String> ALL = List.of(PROTOCOL, ENABLED_PROTOCOLS, CIPHER_SUITES, KEYSTORE_TYPE,
        KEYSTORE_LOCATION, KEYSTORE_PASSWORD, KEY_PASSWORD, KEYSTORE_KEY, KEYSTORE_CERTIFICATE_CHAIN, TRUSTSTORE_TYPE,
        TRUSTSTORE_LOCATION, TRUSTSTORE_PASSWORD, TRUSTSTORE_CERTIFICATES, KEYMANAGER_ALGORITHM, TRUSTMANAGER_ALGORITHM,
        CLIENT_AUTH, PRINCIPAL_MAPPING_RULES);

    /** The secrets among them (Kafka's PASSWORD type): never logged, DescribeConfigs answers null. */
    public static final Set<String> SENSITIVE = Set.of(KEYSTORE_PASSWORD, KEY_PASSWORD, KEYSTORE_KEY,
        KEYSTORE_CERTIFICATE_CHAIN, TRUSTSTORE_PASSWORD, TRUSTSTORE_CERTIFICATES);

    /**
     * The keys a listener takes as per-broker dynamic configs ({@code listener.name.<l>.<key>}, KIP-226): the key
     * store and trust store files, their types and passwords.
     */
    public static final Set<String> DYNAMIC = Set.of(KEYSTORE_TYPE, KEYSTORE_LOCATION, KEYSTORE_PASSWORD, KEY_PASSWORD,
        TRUSTSTORE_TYPE, TRUSTSTORE_LOCATION, TRUSTSTORE_PASSWORD);

    private SslKeys() {
    }
}
