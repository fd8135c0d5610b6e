package io.kaas.engine.segments.internal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file side shared by a segment's offset index and time index: fixed-size entries appended with
 * positional writes (not fsynced until {@link #flush}), loaded whole at open, truncated on rollback or
 * recovery. The entries themselves live in memory in the subclass.
 *
 * <p>The index of a segment an earlier leader epoch's writer created is opened read-only: it is loaded, and then
 * every change (a rebuild, the bound at the next epoch's start) stays in memory; the file is never written.
 */
abstract class IndexFile implements Closeable {
    private final Path path;
    private final IoHooks hooks;
    private final int entrySize;
    private final boolean readOnly;
    private volatile FileChannel channel;

    IndexFile(Path path, FileChannel channel, IoHooks hooks, int entrySize, boolean readOnly) {
        this.path = path;
        this.channel = channel;
        this.hooks = hooks;
        this.entrySize = entrySize;
        this.readOnly = readOnly;
    }

    static FileChannel openChannel(Path path, IoHooks hooks) throws IOException {
        return PartitionDirectory.openChannel(path, hooks, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
    }

    /**
     * Opens an earlier epoch's index for reading only; null if it does not exist (an empty index in memory, to be
     * rebuilt there).
     */
    static FileChannel openChannelReadOnly(Path path) throws IOException {
        try {
            return FileChannel.open(path, StandardOpenOption.READ);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }


    /** The whole file, flipped for reading, or null if its size is not a whole number of entries. */
    final ByteBuffer readWhole() throws IOException {
        FileChannel ch = channel;
        if (ch == null) {
            return ByteBuffer.allocate(0);
        }
        long size = ch.size();
        if (size % entrySize != 0 || size > Integer.MAX_VALUE) {
            return null;
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        while (buf.hasRemaining() && ch.read(buf, buf.position()) >= 0) {
            // positional read until full
        }
        return buf.flip();
    }

    Path path() {
        return path;
    }

    /** Writes {@code entry} as entry number {@code index} of the file. */
    final void writeEntry(ByteBuffer entry, int index, IoHooks writeHooks) throws IOException {
        if (readOnly) {
            return;
        }
        writeHooks.beforeWrite(path);
        long at = (long) index * entrySize;
        while (entry.hasRemaining()) {
            at += channel.write(entry, at);
        }
    }

    /** Cuts the file to {@code entries} entries if it is longer or shorter. */
    final void truncateFile(int entries) throws IOException {
        FileChannel ch = channel;
        if (!readOnly && ch != null && ch.size() != (long) entries * entrySize) {
            ch.truncate((long) entries * entrySize);
        }
    }

    final void flush() throws IOException {
        FileChannel ch = channel;
        if (!readOnly && ch != null) {
            PartitionDirectory.sync(ch, path, hooks);
        }
    }

    /** Closes the file; the in-memory entries stay usable for reads. */
    @Override
    public void close() throws IOException {
        FileChannel ch = channel;
        if (ch != null) {
            ch.close();
            channel = null;
        }
    }
}
