/**
 * Netty handlers for Kafka's framing: every request and response is an int32 big-endian size followed by
 * that many bytes.
 */
package io.kaas.wire.netty;
