package io.kaas.broker.fetch;

import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogSlice;
import io.kaas.wire.protocol.Records;
import io.kaas.wire.protocol.RecordsOutput;
import java.util.List;

/**
 * The records of one fetched partition as the engine returned them: its slices, untouched until the response
 * is encoded. The codec then sends file slices as file regions (sendfile) and buffer slices as wrapped buffers,
 * or copies them where the transport must see the bytes ({@link io.kaas.wire.protocol.ResponseWriter}).
 */
final class LogSliceRecords implements Records {
    private final List<LogSlice> slices;
    private final int sizeInBytes;

    LogSliceRecords(List<LogSlice> slices) {
        this.slices = List.copyOf(slices);
        int size = 0;
        for (LogSlice s : this.slices) {
            size += s.sizeInBytes();
        }
        this.sizeInBytes = size;
    }

    @Override
    public int sizeInBytes() {
        return sizeInBytes;
    }

    @Override
    public void writeTo(RecordsOutput out) {
        for (LogSlice s : slices) {
            if (s instanceof FileSlice f) {
                out.write(f.channel(), f.position(), f.sizeInBytes());
            } else {
                out.write(((BufferSlice) s).buffer());
            }
        }
    }

    @Override
    public String toString() {
        return "LogSliceRecords[" + slices.size() + " slices, " + sizeInBytes + " bytes]";
    }
}
