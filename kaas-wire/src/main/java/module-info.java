/**
 * The Kafka protocol over Netty: length-prefixed frames with a size cap, and message classes generated at
 * build time from Kafka's JSON protocol schemas. No broker behaviour lives here.
 */
module io.kaas.wire {
    requires transitive io.netty.buffer;
    requires transitive io.netty.transport;
    requires transitive io.netty.codec;
    requires io.netty.common;
    requires org.slf4j;

    exports io.kaas.wire.protocol;
    exports io.kaas.wire.message;
    exports io.kaas.wire.netty;
}
