package io.kaas.engine.segments.internal;

import io.kaas.api.storage.PartitionFence;
import io.kaas.api.storage.PartitionKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's question to the host's {@link PartitionFence}, asked right before every deletion or replacement of
 * its files: does this broker still write the partition at the epoch it opened it with? The first "no" is logged at
 * INFO, later ones are not (a fenced partition is asked on every retention and compaction pass). Thread-safe.
 */
final class FileFence {
    private static final Logger LOG = LoggerFactory.getLogger(FileFence.class);

    private final PartitionKey key;
    private final int epoch;
    private final PartitionFence fence;
    private volatile boolean refusalLogged;

    FileFence(PartitionKey key, int epoch, PartitionFence fence) {
        this.key = key;
        this.epoch = epoch;
        this.fence = fence;
    }

    /** Whether {@code operation} (named in the log line) may delete or replace files of the partition now. */
    boolean mayChangeFiles(String operation) {
        if (fence.mayWrite(key, epoch)) {
            return true;
        }
        if (!refusalLogged) {
            refusalLogged = true;
            LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", epoch)
                    .log("Partition {} is fenced at leader epoch {} (another broker writes it): {} skipped, as every "
                            + "later deletion or replacement of its files by this broker", key, epoch, operation);
        }
        return false;
    }
}
