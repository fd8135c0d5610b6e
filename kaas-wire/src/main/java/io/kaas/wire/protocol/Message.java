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
     * tagged fields are skipped. {@code records} fields become slices of {@code buf} (not retained): they are
     * valid as long as {@code buf} is.
     *
     * @throws IndexOutOfBoundsException  if {@code buf} ends early
     * @throws MalformedMessageException  if a length or null marker is invalid
     */
    void read(ByteBuf buf, short version);

    /**
     * Encodes this instance as {@code version} at the writer index of {@code buf}. Does not change the reader
     * index of any {@code records} buffer.
     *
     * @throws UnsupportedVersionException if a non-ignorable field that {@code version} lacks is not at its default
     * @throws NullPointerException        if a field that is not nullable in {@code version} is null
     */
    void write(ByteBuf buf, short version);

    /** The exact number of bytes {@link #write} produces for {@code version}. */
    int size(short version);

    short lowestSupportedVersion();

    short highestSupportedVersion();
}
