package io.kaas.api.storage;

import java.util.List;

/**
 * Whole batches read from a partition, in offset order, with the offsets as they stood when the
 * read started.
 *
 * @param slices  the batches; empty when there is nothing at or above the offset yet
 * @param offsets the partition's offsets at the time of the read
 */
public record ReadResult(List<LogSlice> slices, LogOffsets offsets) {
    public int sizeInBytes() {
        int size = 0;
        for (LogSlice s : slices) {
            size += s.sizeInBytes();
        }
        return size;
    }
}
