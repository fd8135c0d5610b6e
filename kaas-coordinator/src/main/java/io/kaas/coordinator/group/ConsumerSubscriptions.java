package io.kaas.coordinator.group;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the topics out of a {@code consumer} protocol subscription (ConsumerProtocolSubscription: an
 * int16 version, then the topics as an int32-counted array of int16-length strings, in every version).
 * The coordinator otherwise treats member metadata as opaque; only OffsetDelete and offset expiry of
 * non-empty consumer groups look inside, as Kafka does.
 */
final class ConsumerSubscriptions {
    static final String CONSUMER_PROTOCOL_TYPE = "consumer";

    private ConsumerSubscriptions() {
    }

    /** The subscribed topics, or empty if the bytes are not a readable subscription. */
    static Optional<Set<String>> topics(byte[] metadata) {
        if (metadata == null) {
            return Optional.empty();
        }
        try {
            ByteBuffer buf = ByteBuffer.wrap(metadata);
            short version = buf.getShort();
            int count = buf.getInt();
            if (version < 0 || count < 0 || count > buf.remaining() / 2) {
                return Optional.empty();
            }
            Set<String> topics = new HashSet<>();
            for (int i = 0; i < count; i++) {
                short len = buf.getShort();
                if (len < 0 || len > buf.remaining()) {
                    return Optional.empty();
                }
                byte[] name = new byte[len];
                buf.get(name);
                topics.add(new String(name, StandardCharsets.UTF_8));
            }
            return Optional.of(topics);
        } catch (BufferUnderflowException e) {
            return Optional.empty();
        }
    }

    /**
     * The topics the members of a consumer group subscribe to in its current protocol, or empty when
     * the group is not a consumer group or a subscription cannot be read. Called under the group's monitor.
     */
    static Optional<Set<String>> subscribedTopics(ClassicGroup group) {
        if (!CONSUMER_PROTOCOL_TYPE.equals(group.protocolType) || group.protocolName == null) {
            return Optional.empty();
        }
        Set<String> all = new HashSet<>();
        for (ClassicMember m : group.members.values()) {
            Optional<Set<String>> topics = topics(m.metadata(group.protocolName));
            if (topics.isEmpty()) {
                return Optional.empty();
            }
            all.addAll(topics.get());
        }
        return Optional.of(all);
    }
}
