package io.kaas.engine.segments.internal;

import io.kaas.api.storage.EpochStart;
import java.util.ArrayList;
import java.util.List;

/**
 * The leader epochs of a partition, oldest first, each with the offset it starts at: the content of
 * {@code leader-epoch-checkpoint.<epoch:08x>} (Kafka's {@code leader-epoch-checkpoint} text format: version line
 * {@code 0}, entry count, then one {@code epoch startOffset} line per entry), written by the writer of the last
 * entry's epoch when it takes the partition over, before it creates any file of its epoch.
 *
 * <p>It decides which segment files count: a file of epoch {@code e} serves only offsets below
 * {@link #nextStart(int) nextStart(e)}, the start of the first later epoch. So bytes a fenced writer of {@code e}
 * appends after its successor took over (at or above that start) are never served, and a segment file of {@code e}
 * whose base is at or above it (a fenced writer's late roll) is ignored. Immutable.
 */
final class EpochHistory {
    static final EpochHistory EMPTY = new EpochHistory(List.of());

    private final List<EpochStart> entries;

    private EpochHistory(List<EpochStart> entries) {
        this.entries = List.copyOf(entries);
    }

    List<EpochStart> entries() {
        return entries;
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The last epoch recorded, or -1 if none. */
    int lastEpoch() {
        return entries.isEmpty() ? -1 : entries.get(entries.size() - 1).epoch();
    }

    /** The first offset a writer of a later epoch than {@code epoch} wrote, or {@link Long#MAX_VALUE} if none did. */
    long nextStart(int epoch) {
        long next = Long.MAX_VALUE;
        for (EpochStart e : entries) {
            if (e.epoch() > epoch) {
                next = Math.min(next, e.startOffset());
            }
        }
        return next;
    }

    /** Whether a segment file of {@code epoch} with {@code baseOffset} holds offsets that count. */
    boolean counts(int epoch, long baseOffset) {
        return baseOffset < nextStart(epoch);
    }

    /**
     * This history with {@code epoch} starting at {@code startOffset}. Nothing is dropped for the log start: the
     * written history is what bounds each earlier epoch's files, and without an entry an older epoch's bound would
     * widen to a later start, so a fenced writer's late roll could count. (One line per takeover; {@link #trimmedBelow}
     * gives what OffsetForLeaderEpoch needs.) Only entries starting above {@code startOffset} go: their data is not
     * there (lost with the filesystem's help), so the new epoch starts before them.
     *
     * @throws IllegalArgumentException if {@code epoch} is not above every recorded epoch
     */
    EpochHistory with(int epoch, long startOffset) {
        if (epoch <= lastEpoch()) {
            throw new IllegalArgumentException("epoch " + epoch + " is not above the last recorded epoch " + lastEpoch());
        }
        List<EpochStart> next = new ArrayList<>(entries);
        while (!next.isEmpty() && next.get(next.size() - 1).startOffset() > startOffset) {
            next.remove(next.size() - 1);
        }
        next.add(new EpochStart(epoch, startOffset));
        return new EpochHistory(next);
    }

    /**
     * The entries for OffsetForLeaderEpoch: those a later entry starting at or below {@code logStartOffset} makes
     * useless are dropped and the first one kept starts no earlier than {@code logStartOffset} (as Kafka's
     * {@code LeaderEpochFileCache.truncateFromStart}).
     */
    EpochHistory trimmedBelow(long logStartOffset) {
        int first = 0;
        while (first + 1 < entries.size() && entries.get(first + 1).startOffset() <= logStartOffset) {
            first++;
        }
        List<EpochStart> kept = new ArrayList<>(entries.subList(first, entries.size()));
        if (!kept.isEmpty() && kept.get(0).startOffset() < logStartOffset) {
            kept.set(0, new EpochStart(kept.get(0).epoch(), logStartOffset));
        }
        return new EpochHistory(kept);
    }

    String encode() {
        StringBuilder sb = new StringBuilder("0\n").append(entries.size()).append('\n');
        for (EpochStart e : entries) {
            sb.append(e.epoch()).append(' ').append(e.startOffset()).append('\n');
        }
        return sb.toString();
    }

    /** @throws IllegalArgumentException if {@code text} is not a version-0 history of ascending epochs and starts */
    static EpochHistory decode(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].trim().equals("0")) {
            throw new IllegalArgumentException("not a version 0 leader-epoch checkpoint");
        }
        int count = Integer.parseInt(lines[1].trim());
        if (count < 0 || lines.length != count + 2) {
            throw new IllegalArgumentException("expected " + count + " entries, found " + (lines.length - 2));
        }
        List<EpochStart> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String[] parts = lines[i + 2].trim().split(" ");
            if (parts.length != 2) {
                throw new IllegalArgumentException("bad entry '" + lines[i + 2] + "'");
            }
            EpochStart e = new EpochStart(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
            if (!entries.isEmpty()) {
                EpochStart prev = entries.get(entries.size() - 1);
                if (e.epoch() <= prev.epoch() || e.startOffset() < prev.startOffset()) {
                    throw new IllegalArgumentException("entry " + e.epoch() + " " + e.startOffset() + " does not follow "
                            + prev.epoch() + " " + prev.startOffset());
                }
            }
            entries.add(e);
        }
        return new EpochHistory(entries);
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
