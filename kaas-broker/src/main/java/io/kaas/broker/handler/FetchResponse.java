package io.kaas.broker.handler;

import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogSlice;
import io.kaas.broker.request.MultipartResponse;
import io.kaas.wire.message.FetchResponseData.FetchableTopicResponse;
import io.kaas.wire.message.FetchResponseData.PartitionData;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.protocol.ByteBufAccessors;
import io.kaas.wire.protocol.ResponseWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A Fetch response whose records leave zero-copy: file slices as {@link SliceRegion}s (sendfile),
 * buffer slices wrapped, never copied.
 *
 * <p>The generated encoder writes a records field as its length then its bytes, so the response is
 * encoded once with a 12-byte marker (a random per-response nonce and the partition's ordinal) in
 * place of each partition's records; the frame is then cut at each marker and the real length prefix
 * and the slices are put in its place. The cut pieces hold only the response's metadata (offsets,
 * ids, names — a few dozen bytes a partition), never record data, so the marker cannot be mistaken;
 * should it be missing anyway, or when the transport cannot send file regions (TLS), the response
 * falls back to copying the records into the frame.
 */
final class FetchResponse extends FetchResponseData implements MultipartResponse {
    private static final int MARKER_BYTES = 12;

    @Override
    public List<Object> encodeParts(ByteBufAllocator alloc, int correlationId, short headerVersion, short version) {
        return encodeParts(alloc, correlationId, headerVersion, version, true);
    }

    @Override
    public List<Object> encodeParts(ByteBufAllocator alloc, int correlationId, short headerVersion, short version,
                                    boolean fileRegions) {
        List<SlicedPartition> sliced = slicedPartitions();
        if (sliced.isEmpty()) {
            return List.of(ResponseWriter.write(alloc, correlationId, headerVersion, this, version));
        }
        if (fileRegions) {
            List<Object> parts = encodeSpliced(alloc, correlationId, headerVersion, version, sliced);
            if (parts != null) {
                return parts;
            }
        }
        return List.of(encodeCopied(alloc, correlationId, headerVersion, version, sliced));
    }

    /** Partitions whose records are still slices, in encoding order. */
    List<SlicedPartition> slicedPartitions() {
        List<SlicedPartition> out = new ArrayList<>();
        for (FetchableTopicResponse t : responses()) {
            for (PartitionData p : t.partitions()) {
                if (p instanceof SlicedPartition s && s.recordsSize() > 0) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** Total bytes of records in this response. */
    int recordsBytes() {
        int total = 0;
        for (FetchableTopicResponse t : responses()) {
            for (PartitionData p : t.partitions()) {
                total += p instanceof SlicedPartition s ? s.recordsSize()
                        : p.records() == null ? 0 : p.records().readableBytes();
            }
        }
        return total;
    }

    private List<Object> encodeSpliced(ByteBufAllocator alloc, int correlationId, short headerVersion, short version,
                                       List<SlicedPartition> sliced) {
        long nonce = ThreadLocalRandom.current().nextLong() | 1L;
        for (int i = 0; i < sliced.size(); i++) {
            sliced.get(i).setRecords(Unpooled.buffer(MARKER_BYTES).writeLong(nonce).writeInt(i));
        }
        ByteBuf frame;
        try {
            frame = ResponseWriter.write(alloc, correlationId, headerVersion, this, version);
        } finally {
            sliced.forEach(p -> p.setRecords(Unpooled.EMPTY_BUFFER));
        }
        List<Object> parts = new ArrayList<>(2 * sliced.size() + 2);
        try {
            if (!split(frame, nonce, sliced, version >= 12, alloc, parts)) {
                parts.forEach(ReferenceCountUtil::safeRelease);
                return null;
            }
            return parts;
        } catch (RuntimeException e) {
            parts.forEach(ReferenceCountUtil::safeRelease);
            throw e;
        } finally {
            frame.release();
        }
    }

    /** Cuts {@code frame} at each marker into {@code parts}; false if a marker is not where expected. */
    private static boolean split(ByteBuf frame, long nonce, List<SlicedPartition> sliced, boolean compact,
                                 ByteBufAllocator alloc, List<Object> parts) {
        int markerLength = lengthSize(MARKER_BYTES, compact);
        int end = frame.writerIndex();
        int cursor = frame.readerIndex();
        long delta = 0;
        int[] positions = new int[sliced.size()];
        for (int i = 0; i < sliced.size(); i++) {
            int p = find(frame, cursor, end, nonce, i);
            if (p < 0 || p - markerLength < cursor) {
                return false;
            }
            positions[i] = p;
            int n = sliced.get(i).recordsSize();
            delta += (long) lengthSize(n, compact) + n - markerLength - MARKER_BYTES;
            cursor = p + MARKER_BYTES;
        }
        long size = frame.getInt(frame.readerIndex()) + delta;
        if (size > Integer.MAX_VALUE) {
            return false;
        }
        frame.setInt(frame.readerIndex(), (int) size);
        cursor = frame.readerIndex();
        for (int i = 0; i < sliced.size(); i++) {
            int headLength = positions[i] - markerLength - cursor;
            SlicedPartition partition = sliced.get(i);
            ByteBuf head = alloc.buffer(headLength + 5);
            parts.add(head);
            head.writeBytes(frame, cursor, headLength);
            writeLength(head, partition.recordsSize(), compact);
            for (LogSlice slice : partition.slices()) {
                if (slice.sizeInBytes() > 0) {
                    parts.add(part(slice));
                }
            }
            cursor = positions[i] + MARKER_BYTES;
        }
        parts.add(frame.retainedSlice(cursor, end - cursor));
        return true;
    }

    private static int find(ByteBuf frame, int from, int end, long nonce, int ordinal) {
        for (int p = from; p + MARKER_BYTES <= end; p++) {
            if (frame.getLong(p) == nonce && frame.getInt(p + 8) == ordinal) {
                return p;
            }
        }
        return -1;
    }

    private static Object part(LogSlice slice) {
        if (slice instanceof FileSlice f) {
            return new SliceRegion(f.channel(), f.position(), f.sizeInBytes());
        }
        return Unpooled.wrappedBuffer(((BufferSlice) slice).buffer().duplicate());
    }

    private static int lengthSize(int length, boolean compact) {
        return compact ? ByteBufAccessors.sizeOfUnsignedVarint(length + 1) : 4;
    }

    private static void writeLength(ByteBuf buf, int length, boolean compact) {
        if (compact) {
            ByteBufAccessors.writeUnsignedVarint(buf, length + 1);
        } else {
            buf.writeInt(length);
        }
    }

    private ByteBuf encodeCopied(ByteBufAllocator alloc, int correlationId, short headerVersion, short version,
                                 List<SlicedPartition> sliced) {
        for (SlicedPartition p : sliced) {
            p.setRecords(copy(p.slices(), p.recordsSize()));
        }
        try {
            return ResponseWriter.write(alloc, correlationId, headerVersion, this, version);
        } finally {
            sliced.forEach(p -> p.setRecords(Unpooled.EMPTY_BUFFER));
        }
    }

    /** The slices' bytes in one heap buffer (the copy path: TLS, or a splice that could not be made). */
    static ByteBuf copy(List<LogSlice> slices, int size) {
        ByteBuffer dst = ByteBuffer.allocate(size);
        for (LogSlice s : slices) {
            if (s instanceof BufferSlice b) {
                dst.put(b.buffer().duplicate());
            } else {
                readFully((FileSlice) s, dst);
            }
        }
        return Unpooled.wrappedBuffer(dst.flip());
    }

    private static void readFully(FileSlice f, ByteBuffer dst) {
        int limit = dst.position() + f.sizeInBytes();
        ByteBuffer window = dst.duplicate().limit(limit);
        long position = f.position();
        try {
            while (window.hasRemaining()) {
                int n = f.channel().read(window, position);
                if (n < 0) {
                    throw new IOException("end of file at " + position + " while reading " + f.sizeInBytes() + " bytes");
                }
                position += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        dst.position(limit);
    }
}
