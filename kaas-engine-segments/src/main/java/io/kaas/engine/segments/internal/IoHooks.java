package io.kaas.engine.segments.internal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Points where tests inject I/O faults or latency, or model a power cut. Production uses {@link #NONE}: every
 * method is an empty default, so a hook costs a virtual call and nothing else. Called on the appending thread
 * ({@link #beforeWrite}), on a committer or the appending thread (the force hooks), and wherever the engine
 * changes a directory.
 *
 * <p>Every fsync of a segment file by a running log (group commit, roll, close, compaction) is reported through
 * {@link #beforeForce}/{@link #afterForce}, every other fsync of a file (indexes, the temp file of an atomic
 * replacement, recovery's fsync of the segment it validated) through {@link #beforeSync}/{@link #afterSync}.
 * Every creation of a file or directory, rename and delete the engine does under the data directory is reported
 * through {@link #created}, {@link #renamed} and {@link #deleted}; every directory fsync through
 * {@link #afterDirectoryForce}. A power-cut model therefore knows
 * exactly which bytes and which directory entries are durable at any moment: a directory entry is durable once
 * its directory was fsynced after the entry changed, a file's content once an fsync of the file that began after
 * the write has returned.
 */
public interface IoHooks {
    IoHooks NONE = new IoHooks() {
    };

    /** Called before each batch write to a segment file; throwing simulates a failed write. */
    default void beforeWrite(Path file) throws IOException {
    }

    /** Called before each fsync of a file; throwing simulates a failed fsync. */
    default void beforeForce(Path file) throws IOException {
    }

    /**
     * Called after each fsync of a file has returned: everything written to {@code file} before the
     * matching {@link #beforeForce} is now durable (the power-cut model in the tests keeps exactly that).
     */
    default void afterForce(Path file) throws IOException {
    }

    /**
     * Called before an fsync of a file that is not a running segment's group-commit, roll, close or compaction
     * fsync: an index, the temp file of an atomic replacement, a segment recovery validated or truncated.
     */
    default void beforeSync(Path file) {
    }

    /** Called after the fsync announced by {@link #beforeSync} has returned. */
    default void afterSync(Path file) {
    }

    /** Called after {@code path} (a file or a directory) was created: a new entry, not durable until its directory is fsynced. */
    default void created(Path path) {
    }

    /**
     * Called after {@code source} was renamed to {@code target} (replacing {@code target} if it existed): until the
     * directory is fsynced, a power cut may leave the old names.
     */
    default void renamed(Path source, Path target) {
    }

    /** Called after {@code path} was deleted: until its directory is fsynced, a power cut may bring it back. */
    default void deleted(Path path) {
    }

    /** Called after an fsync of {@code directory} has returned: its entries as they are now are durable. */
    default void afterDirectoryForce(Path directory) {
    }
}
