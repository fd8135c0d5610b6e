package io.kaas.cluster.files.internal;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/** UUIDs in Kafka's text form: URL-safe base64 of the 16 bytes, without padding (22 characters). */
final class KafkaUuids {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private KafkaUuids() {
    }

    /** A random id as Kafka makes them: never the zero UUID, and its text never starts with '-'. */
    static UUID random() {
        while (true) {
            UUID id = UUID.randomUUID();
            boolean reserved = id.getMostSignificantBits() == 0
                    && (id.getLeastSignificantBits() == 0 || id.getLeastSignificantBits() == 1);
            if (!reserved && !toText(id).startsWith("-")) {
                return id;
            }
        }
    }

    static String toText(UUID id) {
        ByteBuffer buf = ByteBuffer.allocate(16);
        buf.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return ENCODER.encodeToString(buf.array());
    }

    /** @throws IllegalArgumentException if {@code text} is not 22 characters of URL-safe base64 */
    static UUID fromText(String text) {
        if (text.length() != 22) {
            throw new IllegalArgumentException("expected 22 characters of URL-safe base64, got '" + text + "'");
        }
        byte[] bytes = DECODER.decode(text);
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        return new UUID(buf.getLong(), buf.getLong());
    }
}
