/**
 * SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677) as Kafka speaks them: the credential derivation,
 * the server side of the exchange as a {@link javax.security.sasl.SaslServer}, and the lookup through
 * which it reads stored credentials (the broker backs it with the cluster-state store).
 */
package io.kaas.security.scram;
