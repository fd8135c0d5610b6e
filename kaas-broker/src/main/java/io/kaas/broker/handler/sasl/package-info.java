/**
 * SASL authentication of a connection: SaslHandshake and SaslAuthenticate (KIP-152, KIP-368), the mechanisms of
 * each SASL listener ({@link io.kaas.broker.handler.sasl.SaslMechanisms}) and what a failed authentication does.
 */
package io.kaas.broker.handler.sasl;
