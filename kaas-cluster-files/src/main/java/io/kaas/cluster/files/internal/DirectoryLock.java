package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exclusive hold of one data directory by one broker, for as long as its files store is open: a {@link FileLock}
 * on {@code __cluster/}{@value #FILE} (never blocking: a second broker is refused, not queued), whose content names the
 * holder ({@link LockHolder}). File locks belong to the process, so stores of one JVM are kept apart by a JVM-wide map
 * first. The operating system releases the lock when the holder dies; a new holder overwrites whatever the dead one
 * left in the file (it is rewritten in place: a rename would give the new content another inode than the locked one).
 */
final class DirectoryLock implements AutoCloseable {
    /** The lock file's name in {@code __cluster/}. */
    static final String FILE = "broker.lock";
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryLock.class);
    /** The holders in this JVM, by the real path of the lock file. */
    private static final ConcurrentMap<Path, LockHolder> HELD_HERE = new ConcurrentHashMap<>();

    private final Path file;
    private final LockHolder holder;
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(Path file, LockHolder holder, FileChannel channel, FileLock lock) {
        this.file = file;
        this.holder = holder;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the data directory whose store files are in {@code clusterDir} (an existing directory) for {@code holder}.
     *
     * @throws ClusterStateException in one line naming the data directory and its holder, if another store (in this
     *                               process or another) holds it; or naming the file if it cannot be locked at all
     */
    static DirectoryLock take(Path clusterDir, LockHolder holder) throws IOException {
        Path file = clusterDir.toRealPath().resolve(FILE);
        LockHolder other = HELD_HERE.putIfAbsent(file, holder);
        if (other != null) {
            throw inUse(file, other.describe());
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = tryLock(file, channel);
            if (lock == null) {
                throw inUse(file, describeHolder(channel));
            }
            takeOver(file, channel, holder);
            return new DirectoryLock(file, holder, channel, lock);
        } catch (IOException | RuntimeException e) {
            HELD_HERE.remove(file, holder);
            if (channel != null) {
                closeQuietly(channel, e);
            }
            throw e;
        }
    }

    /** Empties the file (a clean exit leaves no holder named) and releases it. */
    @Override
    public void close() throws IOException {
        try {
            channel.truncate(0);
            channel.force(true);
            lock.release();
        } finally {
            channel.close();
            HELD_HERE.remove(file, holder);
        }
    }

    private static FileLock tryLock(Path file, FileChannel channel) {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // held by this JVM outside the map: another class loader's copy of this store
        } catch (IOException e) {
            throw new ClusterStateException("Cannot lock " + file + " (the file system must support POSIX locks, "
                    + "NFS needs lockd or v4): " + e.getMessage(), e);
        }
    }

    /** Logs what a holder that did not close left in the file, then writes {@code holder} over it, durably. */
    private static void takeOver(Path file, FileChannel channel, LockHolder holder) throws IOException {
        String previous;
        try {
            byte[] left = readAll(channel);
            previous = left.length == 0 ? null : LockHolder.fromJson(left).describe();
        } catch (IOException e) {
            previous = "an unknown holder (the content is unreadable: " + e.getMessage() + ")";
        }
        if (previous != null) {
            LOG.atWarn().setMessage("Taking over the data directory lock {} from {}, which ended without releasing it")
                    .addArgument(file).addArgument(previous).addKeyValue("file", file).log();
        }
        byte[] content = holder.toJson();
        channel.truncate(0);
        ByteBuffer buf = ByteBuffer.wrap(content);
        long position = 0;
        while (buf.hasRemaining()) {
            position += channel.write(buf, position);
        }
        channel.force(true);
    }

    private static String describeHolder(FileChannel channel) {
        try {
            byte[] content = readAll(channel);
            if (content.length > 0) {
                return LockHolder.fromJson(content).describe();
            }
        } catch (IOException e) {
            // The holder is between truncating and writing, or the file is damaged: it is held all the same.
        }
        return "another broker (whose lock file names no holder yet)";
    }

    private static byte[] readAll(FileChannel channel) throws IOException {
        long size = channel.size();
        if (size > 1 << 16) {
            throw new IOException("the lock file is " + size + " bytes, not a holder record");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        while (buf.hasRemaining() && channel.read(buf, buf.position()) >= 0) {
            // read until full or end of file
        }
        buf.flip();
        byte[] bytes = new byte[buf.remaining()];
        buf.get(bytes);
        return bytes;
    }

    private static ClusterStateException inUse(Path file, String holder) {
        Path dataDir = file.getParent().getParent();
        return new ClusterStateException("data directory " + dataDir + " is in use by " + holder
                + " with the files cluster store; a second broker needs cluster.store=zookeeper");
    }

    private static void closeQuietly(FileChannel channel, Exception failure) {
        try {
            channel.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
