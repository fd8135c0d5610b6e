package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;

/**
 * A protocol struct that can encode and decode itself in every version of its schema. Instances are mutable
 * and not thread-safe.
 */
public interface Message {

    /**
     * Replaces this instance's fields by decoding {@code version} from the reader index of {@code buf}, consuming
     * exactly the bytes of this struct. Fields absent in {@code version} are reset to their defaults; unknown
     * tagged fields are skipped. {@code records} fields become {@link BufferRecords} over slices of
     * {@code buf} (not retained): they are valid as long as {@code buf} is.
     *
     * @throws IndexOutOfBoundsException  if {@code buf} ends early
     * @throws MalformedMessageException  if a length or null marker is invalid
     */
    void read(ByteBuf buf, short version);

    /**
     * Encodes this instance as {@code version} at the writer index of {@code buf}, record bytes copied in.
     * Does not change the reader index of any {@code records} buffer.
     *
     * @throws UnsupportedVersionException if a non-ignorable field that {@code version} lacks is not at its default
     * @throws NullPointerException        if a field that is not nullable in {@code version} is null
     */
    default void write(ByteBuf buf, short version) {
        write(buf, RecordsWriter.COPY, version);
    }

    /**
     * As {@link #write(ByteBuf, short)}, with the bytes of each {@code records} field handed to {@code records}
     * right after the field's length prefix is written to {@code buf}.
     */
    void write(ByteBuf buf, RecordsWriter records, short version);

    /** The exact number of bytes {@link #write} produces for {@code version}, record bytes included. */
    int size(short version);

    /**
     * The bytes of the {@code records} fields present in {@code version}, nested structs included: the part of
     * {@link #size} a {@link RecordsWriter} may send without copying them into the frame.
     */
    default int recordsSize(short version) {
        return 0;
    }

    short lowestSupportedVersion();

    short highestSupportedVersion();
}
