package io.kaas.engine.segments.internal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Points where tests inject I/O faults or latency. Production uses {@link #NONE}. Called on the
 * appending thread ({@link #beforeWrite}) and on a committer thread ({@link #beforeForce}).
 */
public interface IoHooks {
    IoHooks NONE = new IoHooks() {
    };

    /** Called before each batch write to a segment file; throwing simulates a failed write. */
    default void beforeWrite(Path file) throws IOException {
    }

    /** Called before each group-commit fsync; throwing simulates a failed fsync. */
    default void beforeForce(Path file) throws IOException {
    }
}
