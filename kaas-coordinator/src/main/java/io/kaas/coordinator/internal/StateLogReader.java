package io.kaas.coordinator.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ReadResult;
import io.kaas.records.RecordReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a partition of a coordinator's internal topic from its log start to its high watermark, record by record in
 * offset order (control batches skipped). A batch that does not decode is logged with the partition and offset and
 * skipped; the others are read.
 */
public final class StateLogReader {
    private static final Logger LOG = LoggerFactory.getLogger(StateLogReader.class);
    private static final int READ_BYTES = 1 << 20;

    /** Takes the records read. */
    @FunctionalInterface
    public interface RecordSink {
        /** One record; {@code value} null is a tombstone. */
        void accept(long offset, byte[] key, byte[] value);
    }

    /**
     * A sink that also takes the records of transactional batches apart from the others, and the markers that end
     * them (for {@code __consumer_offsets}, where TxnOffsetCommit writes its offsets transactionally).
     */
    public interface TransactionalRecordSink extends RecordSink {
        /** One record of a transactional batch of {@code producerId}, not yet known committed. */
        void acceptTransactional(long producerId, long offset, byte[] key, byte[] value);

        /** A COMMIT ({@code commit}) or ABORT marker of {@code producerId} at {@code offset}. */
        void marker(long producerId, boolean commit, long offset);
    }

    private StateLogReader() {
    }

    /**
     * Reads every record of {@code log} ({@code name}, e.g. {@code __consumer_offsets-3}, for log lines).
     *
     * @return the records read (including those the sink could not use)
     * @throws IOException if the log cannot be read
     */
    public static long read(PartitionLog log, String name, RecordSink sink) throws IOException {
        LogOffsets offsets = log.offsets();
        long next = offsets.logStartOffset();
        long count = 0;
        while (next < offsets.highWatermark()) {
            ReadResult read = log.read(next, READ_BYTES, offsets.highWatermark(), true);
            if (read.slices().isEmpty()) {
                break;
            }
            long before = next;
            for (LogSlice slice : read.slices()) {
                ByteBuffer buf = bytes(slice);
                for (BatchHeader h : RecordBatches.headers(buf)) {
                    if (h.nextOffset() <= next) {
                        continue; // the first batch of a read may start below the offset asked for
                    }
                    ByteBuffer batch = buf.duplicate().limit((int) h.position() + h.sizeInBytes())
                            .position((int) h.position());
                    count += readBatch(name, batch, h, next, sink);
                    next = h.nextOffset();
                }
            }
            if (next == before) {
                throw new IOException(name + " returned no batch at offset " + next);
            }
        }
        return count;
    }

    private static int readBatch(String name, ByteBuffer batch, BatchHeader h, long from, RecordSink sink) {
        if (h.isControl()) {
            if (sink instanceof TransactionalRecordSink t && h.hasProducerId()) {
                try {
                    ControlRecords.Marker m = ControlRecords.marker(batch, batch.position(), h);
                    t.marker(h.producerId(), m.commit(), h.baseOffset());
                } catch (RuntimeException e) {
                    LOG.atError().addKeyValue("partition", name).addKeyValue("offset", h.baseOffset())
                            .log("Skipped the control batch at offset {} of {}: {}", h.baseOffset(), name,
                                    e.getMessage());
                }
            }
            return 0;
        }
        List<RecordReader.Record> rs;
        try {
            rs = RecordReader.read(batch, h);
        } catch (IOException e) {
            LOG.atError().addKeyValue("partition", name).addKeyValue("offset", h.baseOffset())
                    .log("Skipped the undecodable batch at offset {} of {}: {}; the keys it held keep their "
                            + "earlier state", h.baseOffset(), name, e.getMessage());
            return 0;
        }
        int n = 0;
        for (RecordReader.Record r : rs) {
            if (r.offset() < from) {
                continue;
            }
            n++;
            if (h.isTransactional() && h.hasProducerId() && sink instanceof TransactionalRecordSink t) {
                t.acceptTransactional(h.producerId(), r.offset(), r.key(), r.value());
            } else {
                sink.accept(r.offset(), r.key(), r.value());
            }
        }
        return n;
    }

    private static ByteBuffer bytes(LogSlice slice) throws IOException {
        if (slice instanceof BufferSlice b) {
            return b.buffer().slice();
        }
        FileSlice f = (FileSlice) slice;
        ByteBuffer buf = ByteBuffer.allocate(f.sizeInBytes());
        long position = f.position();
        while (buf.hasRemaining()) {
            int n = f.channel().read(buf, position);
            if (n < 0) {
                throw new IOException("file slice ends " + buf.remaining() + " bytes early");
            }
            position += n;
        }
        return buf.flip();
    }
}
