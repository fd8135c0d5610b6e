/** Command-line tools that work on a broker's data while it is stopped, as Kafka's {@code kafka-storage}. */
package io.kaas.broker.tools;
