/**
 * Broker configuration: Kafka's {@code server.properties} names and defaults (Apache Kafka 4.x
 * semantics, with the few kaas defaults documented on each key), loaded from a file plus
 * {@code --override key=value} arguments and bound to typed accessors.
 */
package io.kaas.broker.config;
