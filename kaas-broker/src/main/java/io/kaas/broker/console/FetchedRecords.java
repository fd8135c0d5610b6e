package io.kaas.broker.console;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.record.RecordBatches;
import io.kaas.records.CompressionCodecs;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.protocol.Records;
import io.kaas.wire.protocol.RecordsOutput;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;

/**
 * The records of one partition of a read_committed Fetch response, as a consumer sees them: batches decoded
 * (decompressed where compressed), control batches left out, and the batches of the aborted transactions the
 * response lists left out, as the Java consumer filters them (a producer's batches from an aborted transaction's
 * first offset up to its ABORT marker).
 */
final class FetchedRecords {

    /** One record with its headers. */
    record Record(long offset, long timestamp, boolean logAppendTime, byte[] key, byte[] value,
                  List<Header> headers) {
    }

    /** One record header. */
    record Header(String key, byte[] value) {
    }

    /** The records, and the offset after the last batch read (where the next fetch starts), -1 if none. */
    record Decoded(List<Record> records, long nextOffset) {
    }

    private FetchedRecords() {
    }

    /** The bytes of {@code records}, copied out of the buffers and files the response refers to. */
    static byte[] bytes(Records records) {
        if (records == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(records.sizeInBytes());
        records.writeTo(new RecordsOutput() {
            @Override
            public void write(ByteBuf bytes) {
                byte[] b = new byte[bytes.readableBytes()];
                bytes.getBytes(bytes.readerIndex(), b);
                out.writeBytes(b);
            }

            @Override
            public void write(ByteBuffer bytes) {
                byte[] b = new byte[bytes.remaining()];
                bytes.duplicate().get(b);
                out.writeBytes(b);
            }

            @Override
            public void write(FileChannel channel, long position, int count) {
                ByteBuffer b = ByteBuffer.allocate(count);
                try {
                    while (b.hasRemaining()) {
                        int n = channel.read(b, position + b.position());
                        if (n < 0) {
                            throw new EOFException("log file ended " + b.remaining() + " bytes early");
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                out.writeBytes(b.array());
            }
        });
        return out.toByteArray();
    }

    /** The committed data records of {@code partition}, filtered as a read_committed consumer filters them. */
    static Decoded decode(FetchResponseData.PartitionData partition) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(bytes(partition.records()));
        Map<Long, Long> abortedFrom = new HashMap<>();
        List<FetchResponseData.AbortedTransaction> aborted = partition.abortedTransactions();
        if (aborted != null) {
            for (FetchResponseData.AbortedTransaction a : aborted) {
                abortedFrom.merge(a.producerId(), a.firstOffset(), Math::min);
            }
        }
        Set<Long> inAbortedTxn = new HashSet<>();
        List<Record> out = new ArrayList<>();
        long next = -1;
        int pos = 0;
        while (true) {
            int size = RecordBatches.announcedSize(buf, pos);
            if (size < RecordBatches.HEADER_SIZE || pos + size > buf.limit()) {
                break; // a partial batch at the end of the response (or none): read from its offset next time
            }
            BatchHeader h = RecordBatches.header(buf, pos, pos);
            next = h.nextOffset();
            Long first = abortedFrom.get(h.producerId());
            if (h.isTransactional() && first != null && h.baseOffset() >= first) {
                inAbortedTxn.add(h.producerId());
                abortedFrom.remove(h.producerId());
            }
            if (h.isControl()) {
                if (ControlRecords.type(buf, pos, h) == ControlRecords.ABORT) {
                    inAbortedTxn.remove(h.producerId());
                }
            } else if (!(h.isTransactional() && inAbortedTxn.contains(h.producerId()))) {
                out.addAll(records(buf, pos, h));
            }
            pos += size;
        }
        return new Decoded(out, next);
    }

    private static List<Record> records(ByteBuffer buf, int pos, BatchHeader h) throws IOException {
        int length = h.sizeInBytes() - RecordBatches.HEADER_SIZE;
        byte[] raw = new byte[length];
        buf.get(pos + RecordBatches.HEADER_SIZE, raw);
        InputStream in = h.compressionCodec() == CompressionCodecs.NONE ? new ByteArrayInputStream(raw)
            : CompressionCodecs.decompressing(h.compressionCodec(), new ByteArrayInputStream(raw));
        List<Record> out = new ArrayList<>(Math.max(0, Math.min(h.recordCount(), 1 << 12)));
        try (in) {
            for (int i = 0; i < h.recordCount(); i++) {
                out.add(record(in, h, i));
            }
        }
        return out;
    }

    private static Record record(InputStream in, BatchHeader h, int index) throws IOException {
        long length = varlong(in);
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new IOException("record " + index + " at batch offset " + h.baseOffset() + " has a length of " + length);
        }
        byte[] body = in.readNBytes((int) length);
        if (body.length < length) {
            throw new EOFException("record " + index + " at batch offset " + h.baseOffset() + " is truncated");
        }
        ByteArrayInputStream r = new ByteArrayInputStream(body);
        if (r.read() < 0) {
            throw new EOFException("record " + index + " is empty");
        }
        long timestampDelta = varlong(r);
        long offset = h.baseOffset() + varlong(r);
        byte[] key = bytes(r);
        byte[] value = bytes(r);
        long headerCount = varlong(r);
        if (headerCount < 0 || headerCount > body.length) {
            throw new IOException("record at offset " + offset + " announces " + headerCount + " headers");
        }
        List<Header> headers = new ArrayList<>((int) headerCount);
        for (int i = 0; i < headerCount; i++) {
            byte[] k = bytes(r);
            byte[] v = bytes(r);
            headers.add(new Header(k == null ? "" : new String(k, java.nio.charset.StandardCharsets.UTF_8), v));
        }
        boolean appendTime = h.isLogAppendTime();
        long timestamp = appendTime ? h.maxTimestamp() : h.baseTimestamp() + timestampDelta;
        return new Record(offset, timestamp, appendTime, key, value, headers);
    }

    private static byte[] bytes(InputStream in) throws IOException {
        long n = varlong(in);
        if (n < 0) {
            return null;
        }
        if (n > Integer.MAX_VALUE) {
            throw new IOException("a field of " + n + " bytes");
        }
        byte[] b = in.readNBytes((int) n);
        if (b.length < n) {
            throw new EOFException("a field announces " + n + " bytes, the record holds " + b.length);
        }
        return b;
    }

    private static long varlong(InputStream in) throws IOException {
        long raw = 0;
        int shift = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("a varint runs past its record");
            }
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
            if (shift > 63) {
                throw new IOException("a varint over 10 bytes");
            }
        }
        return (raw >>> 1) ^ -(raw & 1);
    }
}
