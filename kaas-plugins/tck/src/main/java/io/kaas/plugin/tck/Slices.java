package io.kaas.plugin.tck;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.ReadResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a read returned into bytes and batches, whichever kind of slice the engine used:
 * a {@link FileSlice} is read with positional reads (its channel's position is left alone, as the
 * broker's zero-copy send does), a {@link BufferSlice} from its position to its limit.
 */
public final class Slices {
    private Slices() {
    }

    /** Every byte of the read, slices in order. */
    public static byte[] bytes(ReadResult result) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (LogSlice slice : result.slices()) {
            out.writeBytes(bytes(slice));
        }
        return out.toByteArray();
    }

    /** The bytes of one slice. */
    public static byte[] bytes(LogSlice slice) {
        if (slice instanceof BufferSlice b) {
            return TestBatches.toArray(b.buffer());
        }
        FileSlice f = (FileSlice) slice;
        ByteBuffer dst = ByteBuffer.allocate(f.sizeInBytes());
        try {
            while (dst.hasRemaining()) {
                int n = f.channel().read(dst, f.position() + dst.position());
                if (n < 0) {
                    throw new AssertionError("file slice " + f + " ends early, after " + dst.position() + " bytes");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dst.array();
    }

    /** The headers of the batches read, each validated (size, magic, CRC32C): an engine must not corrupt them. */
    public static List<BatchHeader> headers(ReadResult result) {
        ByteBuffer all = ByteBuffer.wrap(bytes(result));
        return all.hasRemaining() ? RecordBatches.validate(all) : List.of();
    }

    /** The batches read, one byte array each. */
    public static List<byte[]> batches(ReadResult result) {
        byte[] all = bytes(result);
        List<byte[]> out = new ArrayList<>();
        try {
            for (BatchHeader h : RecordBatches.headers(ByteBuffer.wrap(all))) {
                int pos = (int) h.position();
                out.add(java.util.Arrays.copyOfRange(all, pos, pos + h.sizeInBytes()));
            }
        } catch (CorruptBatchException e) {
            throw new AssertionError("read returned a partial batch: " + e.getMessage() + " of " + all.length, e);
        }
        return out;
    }
}
