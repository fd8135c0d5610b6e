/**
 * The message contract ({@link io.kaas.wire.protocol.Message}, {@link io.kaas.wire.protocol.ApiMessage}),
 * the primitive encodings the generated classes use ({@link io.kaas.wire.protocol.ByteBufAccessors}), and the
 * small helpers a broker needs around headers and responses.
 *
 * <p>Decoding errors: a truncated buffer raises Netty's {@link java.lang.IndexOutOfBoundsException}; a
 * structurally invalid one raises {@link io.kaas.wire.protocol.MalformedMessageException}. Both mean
 * Kafka's {@code INVALID_REQUEST} / {@code CORRUPT_MESSAGE}.
 */
package io.kaas.wire.protocol;
