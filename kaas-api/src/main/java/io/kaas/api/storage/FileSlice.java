package io.kaas.api.storage;

import java.nio.channels.FileChannel;

/**
 * A region of an open file. The engine keeps {@code channel} open until the broker has sent the
 * region (the broker never closes it); an engine that deletes the file underneath must defer closing
 * the channel, or the send fails and the consumer retries.
 */
public record FileSlice(FileChannel channel, long position, int sizeInBytes) implements LogSlice {
}
