package io.kaas.cluster.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Durable, atomic file replacement: a reader sees either the whole old content or the whole new one,
 * and after a return the new content survives a crash.
 */
final class AtomicFiles {
    /** Suffix of the temporary files {@link #write} creates; a leftover one is the trace of a crash. */
    static final String TEMP_SUFFIX = ".tmp";

    private AtomicFiles() {
    }

    /**
     * Writes {@code bytes} to a temporary file in the target's directory, fsyncs it, renames it over
     * {@code target} atomically and fsyncs the directory. On failure the temporary file is removed
     * (best effort) and {@code target} is left as it was.
     */
    static void write(Path target, byte[] bytes) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        // Not derived from the target name: a 249-character topic name plus suffixes would pass 255 bytes.
        Path temp = dir.resolve(UUID.randomUUID() + TEMP_SUFFIX);
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(temp, e);
            throw e;
        }
        fsyncDirectory(dir);
    }

    /** Deletes {@code file} if present and fsyncs its directory, so the removal survives a crash. */
    static boolean delete(Path file) throws IOException {
        boolean deleted = Files.deleteIfExists(file);
        fsyncDirectory(file.toAbsolutePath().getParent());
        return deleted;
    }

    /** Creates {@code dir} (and missing parents) and fsyncs its parent so the new entry is durable. */
    static void createDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Files.createDirectories(dir);
        fsyncDirectory(dir.toAbsolutePath().getParent());
    }

    /**
     * Makes the directory's entries (renames, creations, deletions) durable. Some platforms (Windows)
     * cannot open a directory as a channel; there the rename is as durable as the OS makes it.
     */
    static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Unsupported on this platform: nothing more can be done.
        }
    }

    static boolean isTemp(Path file) {
        return file.getFileName().toString().endsWith(TEMP_SUFFIX);
    }

    private static void deleteQuietly(Path temp, Throwable failure) {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
