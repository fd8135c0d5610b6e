package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serializes the mutations of one open store, and holds its data directory ({@link DirectoryLock}) until the store
 * closes: no other store, in this process or another, mutates the directory meanwhile, so a lock of this store's own
 * is all a mutation needs.
 */
final class StoreLock implements AutoCloseable {
    private final Path dir;
    private final DirectoryLock directory;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean closed; // guarded by lock

    private StoreLock(Path dir, DirectoryLock directory) {
        this.dir = dir;
        this.directory = directory;
    }

    /**
     * Takes the data directory of the store files in {@code dir} for {@code holder}.
     *
     * @throws ClusterStateException in one line naming the holder, if another store holds the directory
     */
    static StoreLock open(Path dir, LockHolder holder) throws IOException {
        return new StoreLock(dir, DirectoryLock.take(dir, holder));
    }

    /** A change of the store's files and memory, run under the lock. */
    interface Mutation<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code mutation} alone.
     *
     * @throws ClusterStateException saying what could not be done, if the mutation fails with an I/O error
     * @throws IllegalStateException if the store was closed
     */
    <T> T mutate(String what, Mutation<T> mutation) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the cluster store is closed");
            }
            return mutation.run();
        } catch (IOException e) {
            throw new ClusterStateException("Could not " + what + " in " + dir + ": " + e, e);
        } finally {
            lock.unlock();
        }
    }

    /** Waits for a mutation in progress to finish, then releases the directory. Idempotent. */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                directory.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
