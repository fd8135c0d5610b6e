/**
 * Client authentication for the broker's listeners, free of the broker: the SASL exchange and its
 * mechanisms ({@code io.kaas.security.sasl}: Kafka's JAAS syntax, PLAIN; {@code io.kaas.security.oauth}:
 * OAUTHBEARER with JWTs checked against a JWKS), TLS contexts and certificate principals
 * ({@code io.kaas.security.tls}).
 */
module io.kaas.security {
    requires transitive io.kaas.api;
    requires transitive java.security.sasl;
    requires transitive io.netty.handler;
    requires io.netty.buffer;
    requires io.netty.common;
    requires org.slf4j;
    requires org.jose4j;

    exports io.kaas.security.sasl;
    exports io.kaas.security.tls;
    exports io.kaas.security.scram;
    exports io.kaas.security.oauth;
}
