package io.kaas.broker.handler;

import io.kaas.api.storage.LogSlice;
import io.kaas.wire.message.FetchResponseData.PartitionData;
import java.util.List;

/**
 * A partition of a fetch response whose records are still the engine's slices: they are written
 * zero-copy by {@link FetchResponse}, or copied at encoding time. Until then {@link #records()} is
 * empty and {@link #recordsSize()} tells their size.
 */
final class SlicedPartition extends PartitionData {
    private final List<LogSlice> slices;
    private final int recordsSize;

    SlicedPartition(List<LogSlice> slices) {
        this.slices = List.copyOf(slices);
        int size = 0;
        for (LogSlice s : this.slices) {
            size += s.sizeInBytes();
        }
        this.recordsSize = size;
    }

    List<LogSlice> slices() {
        return slices;
    }

    int recordsSize() {
        return recordsSize;
    }
}
