/**
 * SASL/OAUTHBEARER (RFC 7628) as Kafka's broker serves it: the client's first message, tokens validated as JWTs
 * against a JWKS ({@code sasl.oauthbearer.jwks.endpoint.url}, {@code file:} or {@code https:}) with jose4j, or
 * (only when Kafka's unsecured validator is named) unsigned tokens as Kafka's test-only validator accepts them.
 */
package io.kaas.security.oauth;
