package io.kaas.broker.topic;

import io.kaas.api.storage.EpochStart;
import io.kaas.api.storage.PartitionLog;
import io.kaas.wire.protocol.Errors;
import java.util.List;

/**
 * The leader epochs of a partition this broker writes, and Kafka's answers about them: where an epoch ends
 * ({@code LeaderEpochFileCache.endOffsetFor}), which epoch an offset belongs to, and whether a request's
 * {@code current_leader_epoch} is this leader's ({@code Partition.checkCurrentLeaderEpoch}). The epochs come from the
 * log ({@link PartitionLog#epochs()}); an engine without an epoch history has one epoch, the one the partition was
 * assigned at, from the log start.
 */
public final class LeaderEpochs {
    /** Kafka's UNDEFINED_EPOCH and UNDEFINED_EPOCH_OFFSET. */
    public static final int UNDEFINED = -1;

    /**
     * An epoch and the offset it ends at (exclusive).
     *
     * @param epoch     the epoch the offset belongs to, or {@link #UNDEFINED}
     * @param endOffset the first offset after it, or {@link #UNDEFINED}
     */
    public record EpochEnd(int epoch, long endOffset) {
        static final EpochEnd UNKNOWN = new EpochEnd(UNDEFINED, UNDEFINED);
    }

    private LeaderEpochs() {
    }

    /** The epochs of {@code log}, opened here at {@code leaderEpoch}, oldest first; the last is {@code leaderEpoch}. */
    public static List<EpochStart> of(PartitionLog log, int leaderEpoch) {
        List<EpochStart> epochs = log.epochs();
        if (epochs.isEmpty() || epochs.get(epochs.size() - 1).epoch() != leaderEpoch) {
            return List.of(new EpochStart(leaderEpoch, log.offsets().logStartOffset()));
        }
        return epochs;
    }

    /**
     * Where {@code requested} ends: the latest epoch at {@code endOffset} (the high watermark: one writer, no
     * followers), an older one where the next starts, one above the latest (or {@link #UNDEFINED}) unknown; an epoch
     * older than every known one answers itself with the first known epoch's start, as Kafka does.
     */
    public static EpochEnd endOffsetFor(int requested, List<EpochStart> epochs, long endOffset) {
        if (requested == UNDEFINED || epochs.isEmpty()) {
            return EpochEnd.UNKNOWN;
        }
        EpochStart latest = epochs.get(epochs.size() - 1);
        if (requested == latest.epoch()) {
            return new EpochEnd(requested, endOffset);
        }
        if (requested > latest.epoch()) {
            return EpochEnd.UNKNOWN;
        }
        EpochStart floor = null;
        for (EpochStart e : epochs) {
            if (e.epoch() > requested) {
                return floor == null ? new EpochEnd(requested, e.startOffset())
                    : new EpochEnd(floor.epoch(), e.startOffset());
            }
            floor = e;
        }
        return EpochEnd.UNKNOWN;
    }

    /** The epoch {@code offset} was written in (the latest epoch starting at or below it), {@link #UNDEFINED} if none. */
    public static int epochAt(long offset, List<EpochStart> epochs) {
        int epoch = UNDEFINED;
        for (EpochStart e : epochs) {
            if (e.startOffset() <= offset) {
                epoch = e.epoch();
            }
        }
        return epoch;
    }

    /**
     * A request's {@code current_leader_epoch} against this leader's: NONE for -1 (not given) or equal,
     * FENCED_LEADER_EPOCH for an older one, UNKNOWN_LEADER_EPOCH for a newer one.
     */
    public static short checkCurrent(int requestedCurrent, int leaderEpoch) {
        if (requestedCurrent == UNDEFINED || requestedCurrent == leaderEpoch) {
            return Errors.NONE;
        }
        return requestedCurrent < leaderEpoch ? Errors.FENCED_LEADER_EPOCH : Errors.UNKNOWN_LEADER_EPOCH;
    }
}
