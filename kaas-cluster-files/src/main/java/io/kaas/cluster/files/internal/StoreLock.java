package io.kaas.cluster.files.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serializes mutations of one {@code __cluster/} directory across threads, stores and processes (brokers
 * sharing the volume): a JVM-wide lock per directory, then an exclusive {@link FileLock} on
 * {@code __cluster/.lock}. The JVM-wide lock is needed because file locks are held per process, and
 * two stores of one JVM locking the same file would get {@link java.nio.channels.OverlappingFileLockException}.
 */
final class StoreLock implements AutoCloseable {
    private static final ConcurrentMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    private final Path lockFile;
    private final ReentrantLock jvmLock;
    private FileChannel channel; // guarded by jvmLock
    private boolean closed; // guarded by jvmLock

    private StoreLock(Path lockFile, ReentrantLock jvmLock) {
        this.lockFile = lockFile;
        this.jvmLock = jvmLock;
    }

    static StoreLock open(Path dir) throws IOException {
        Path real = dir.toRealPath();
        return new StoreLock(real.resolve(".lock"), JVM_LOCKS.computeIfAbsent(real, p -> new ReentrantLock()));
    }

    /**
     * Blocks until this thread holds the directory exclusively; close the result to release it.
     *
     * @throws IllegalStateException if this lock was closed
     */
    Held acquire() throws IOException {
        jvmLock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the cluster store is closed");
            }
            // An interrupt while blocked in lock() closes the channel: open a fresh one each time it is needed.
            if (channel == null || !channel.isOpen()) {
                channel = FileChannel.open(lockFile,
                        StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            return new Held(channel.lock());
        } catch (IOException | RuntimeException e) {
            jvmLock.unlock();
            throw e;
        }
    }

    /** Waits for a holder in this JVM to finish, then releases the file. Idempotent. */
    @Override
    public void close() throws IOException {
        jvmLock.lock();
        try {
            closed = true;
            if (channel != null) {
                channel.close();
            }
        } finally {
            jvmLock.unlock();
        }
    }

    /** The held lock. */
    final class Held implements AutoCloseable {
        private final FileLock fileLock;

        private Held(FileLock fileLock) {
            this.fileLock = fileLock;
        }

        @Override
        public void close() throws IOException {
            try {
                fileLock.release();
            } finally {
                jvmLock.unlock();
            }
        }
    }
}
