package io.kaas.api.storage;

/**
 * Where one leader epoch begins in a partition's log (Kafka's leader-epoch checkpoint entry): the records at and
 * after {@code startOffset}, up to the next epoch's start, were written by the leader of {@code epoch}.
 */
public record EpochStart(int epoch, long startOffset) {
    public EpochStart {
        if (epoch < 0 || startOffset < 0) {
            throw new IllegalArgumentException("bad epoch start " + epoch + "@" + startOffset);
        }
    }
}
