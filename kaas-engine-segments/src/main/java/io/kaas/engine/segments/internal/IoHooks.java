package io.kaas.engine.segments.internal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Points where tests inject I/O faults or latency, or model a power cut. Production uses {@link #NONE}. Called on
 * the appending thread ({@link #beforeWrite}) and on a committer or the appending thread (the force hooks).
 * Small metadata files (manifest, checkpoints, snapshots) are replaced atomically (temp file, fsync, rename,
 * directory fsync) and every segment file creation or rename is followed by a directory fsync, so a file present
 * after a cut is one the engine made durable; only the contents of segment files can be ahead of the last fsync.
 */
public interface IoHooks {
    IoHooks NONE = new IoHooks() {
    };

    /** Called before each batch write to a segment file; throwing simulates a failed write. */
    default void beforeWrite(Path file) throws IOException {
    }

    /** Called before each fsync of a segment file (group commit, roll, close, compaction); throwing simulates a failed fsync. */
    default void beforeForce(Path file) throws IOException {
    }

    /**
     * Called after each fsync of a segment file has returned: everything written to {@code file} before the
     * matching {@link #beforeForce} is now durable (the power-cut model in the tests keeps exactly that).
     */
    default void afterForce(Path file) throws IOException {
    }
}
