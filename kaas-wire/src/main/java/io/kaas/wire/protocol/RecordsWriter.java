package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;

/**
 * How a generated encoder writes the bytes of a {@code records} field, once it has written the field's length
 * prefix at the writer index of {@code buf}: {@link #COPY} puts them into {@code buf}; the part writer of
 * {@link ResponseWriter#writeParts} cuts the frame there and keeps the records as parts of their own
 * (Kafka's generated code does the same through {@code Writable.writeRecords}).
 */
public interface RecordsWriter {

    /** Copies every record byte into the frame: file regions are read, buffers copied. */
    RecordsWriter COPY = (buf, records) -> records.writeTo(new CopyingOutput(buf));

    /** Writes the {@link Records#sizeInBytes()} bytes of {@code records}, right after its length prefix in {@code buf}. */
    void write(ByteBuf buf, Records records);
}
