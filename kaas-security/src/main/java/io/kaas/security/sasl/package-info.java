/** The server side of SASL for a listener: Kafka's JAAS syntax and the mechanisms, as {@link javax.security.sasl.SaslServer}s. */
package io.kaas.security.sasl;
