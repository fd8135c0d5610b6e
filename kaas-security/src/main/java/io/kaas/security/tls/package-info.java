/**
 * TLS for a listener, from Kafka's {@code ssl.*} keys: the server {@link io.netty.handler.ssl.SslContext}
 * (JKS, PKCS12 or PEM stores; OpenSSL when available, else the JDK's engine), its reload when a store
 * file changes, and the principal of a client certificate ({@code ssl.principal.mapping.rules}).
 */
package io.kaas.security.tls;
