package io.kaas.engine.segments.internal;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one partition's {@code recovery-checkpoint.json}, never backwards and, from the committer, at
 * most once per interval (each write costs two fsyncs and a rename); roll, open and close write it
 * unconditionally. A checkpoint describes only bytes already fsynced. Thread-safe.
 */
final class CheckpointWriter {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointWriter.class);

    private final PartitionDirectory dir;
    private final long intervalNanos;
    private RecoveryCheckpoint last;
    private long lastWriteNanos;
    private long writes;

    CheckpointWriter(PartitionDirectory dir, long intervalMs, RecoveryCheckpoint initial) {
        this.dir = dir;
        this.intervalNanos = intervalMs * 1_000_000L;
        this.last = initial;
        this.lastWriteNanos = System.nanoTime();
    }

    /**
     * After a group-commit force that covered {@code forced}: forces its segment's indexes and writes the
     * checkpoint if the interval has passed. Failures are logged: the next recovery only scans more.
     */
    void afterForce(LogState forced) {
        synchronized (this) {
            if (System.nanoTime() - lastWriteNanos < intervalNanos || !isNewer(forced.checkpoint())) {
                return;
            }
        }
        try {
            forced.active().flushIndexes();
            write(forced.checkpoint());
        } catch (IOException e) {
            // a roll closed the indexes meanwhile (and wrote its own checkpoint), or the disk refused the write
            LOG.atDebug().setCause(e).addKeyValue("dir", dir.path()).setMessage("recovery checkpoint skipped").log();
        }
    }

    /** Writes {@code checkpoint} now unless an equal or later one was written. */
    synchronized void write(RecoveryCheckpoint checkpoint) throws IOException {
        if (!isNewer(checkpoint)) {
            return;
        }
        dir.writeCheckpoint(checkpoint);
        last = checkpoint;
        lastWriteNanos = System.nanoTime();
        writes++;
    }

    synchronized long writes() {
        return writes;
    }

    synchronized RecoveryCheckpoint last() {
        return last;
    }

    private boolean isNewer(RecoveryCheckpoint checkpoint) {
        return !checkpoint.equals(last) && checkpoint.notBefore(last);
    }
}
