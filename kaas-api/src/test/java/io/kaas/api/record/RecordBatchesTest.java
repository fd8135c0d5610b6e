package io.kaas.api.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordBatchesTest {

    /** A v2 batch with {@code records} empty-bodied records and a correct CRC32C. */
    static ByteBuffer batch(long baseOffset, int records, long timestamp) {
        int size = RecordBatches.HEADER_SIZE + 7;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putLong(baseOffset);
        b.putInt(size - RecordBatches.LOG_OVERHEAD);
        b.putInt(0);               // partition leader epoch
        b.put((byte) 2);           // magic
        b.putInt(0);               // crc, patched below
        b.putShort((short) 0);     // attributes
        b.putInt(records - 1);     // last offset delta
        b.putLong(timestamp);      // base timestamp
        b.putLong(timestamp + 5);  // max timestamp
        b.putLong(-1L);            // producer id
        b.putShort((short) -1);    // producer epoch
        b.putInt(-1);              // base sequence
        b.putInt(records);
        b.put(new byte[] {1, 2, 3, 4, 5, 6, 7});
        b.flip();
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, size));
        return b;
    }

    @Test
    void parsesTheHeaderOfAValidBatch() {
        ByteBuffer b = batch(40, 3, 1_000L);
        List<BatchHeader> headers = RecordBatches.validate(b);
        assertThat(headers).hasSize(1);
        BatchHeader h = headers.get(0);
        assertThat(h.baseOffset()).isEqualTo(40);
        assertThat(h.lastOffset()).isEqualTo(42);
        assertThat(h.recordCount()).isEqualTo(3);
        assertThat(h.maxTimestamp()).isEqualTo(1_005L);
        assertThat(h.sizeInBytes()).isEqualTo(b.remaining());
        assertThat(h.hasProducerId()).isFalse();
    }

    @Test
    void validatesSeveralBatchesInOneBuffer() {
        ByteBuffer a = batch(0, 2, 1L);
        ByteBuffer c = batch(2, 1, 2L);
        ByteBuffer both = ByteBuffer.allocate(a.remaining() + c.remaining()).put(a).put(c).flip();
        List<BatchHeader> headers = RecordBatches.validate(both);
        assertThat(headers).extracting(BatchHeader::position).containsExactly(0L, (long) a.limit());
    }

    @Test
    void rejectsAWrongCrc() {
        ByteBuffer b = batch(0, 1, 1L);
        b.put(b.limit() - 1, (byte) 99);
        assertThatThrownBy(() -> RecordBatches.validate(b))
                .isInstanceOf(CorruptBatchException.class).hasMessageContaining("CRC32C");
    }

    @Test
    void rejectsATruncatedBatch() {
        ByteBuffer b = batch(0, 1, 1L);
        b.limit(b.limit() - 3);
        assertThatThrownBy(() -> RecordBatches.validate(b)).isInstanceOf(CorruptBatchException.class);
    }

    @Test
    void rejectsALengthFieldPastTheEnd() {
        ByteBuffer b = batch(0, 1, 1L);
        b.putInt(RecordBatches.LENGTH, 1 << 20);
        assertThatThrownBy(() -> RecordBatches.validate(b))
                .isInstanceOf(CorruptBatchException.class).hasMessageContaining("does not fit");
    }

    @Test
    void rejectsOldMagic() {
        ByteBuffer b = batch(0, 1, 1L);
        b.put(RecordBatches.MAGIC, (byte) 1);
        assertThatThrownBy(() -> RecordBatches.validate(b))
                .isInstanceOf(CorruptBatchException.class).hasMessageContaining("magic 1");
    }

    @Test
    void rejectsAnEmptyBuffer() {
        assertThatThrownBy(() -> RecordBatches.validate(ByteBuffer.allocate(0)))
                .isInstanceOf(CorruptBatchException.class);
    }

    @Test
    void offsetRewriteKeepsTheCrcValid() {
        ByteBuffer b = batch(0, 4, 1L);
        RecordBatches.setBaseOffset(b, 0, 1234);
        RecordBatches.setPartitionLeaderEpoch(b, 0, 7);
        BatchHeader h = RecordBatches.validateOne(b, 0, 0);
        assertThat(h.baseOffset()).isEqualTo(1234);
        assertThat(h.partitionLeaderEpoch()).isEqualTo(7);
    }

    @Test
    void logAppendTimeStampsTheBatchAndRecomputesTheCrc() {
        ByteBuffer b = batch(0, 1, 1L);
        RecordBatches.setLogAppendTime(b, 0, 99_999L);
        BatchHeader h = RecordBatches.validateOne(b, 0, 0);
        assertThat(h.isLogAppendTime()).isTrue();
        assertThat(h.maxTimestamp()).isEqualTo(99_999L);
    }

    @Test
    void lastSequenceWrapsLikeKafka() {
        BatchHeader h = new BatchHeader(0, 0, 0, 2, 0, (short) 0, 0, 0, 1, (short) 0, Integer.MAX_VALUE - 1, 3);
        assertThat(h.lastSequence()).isEqualTo(0);
    }

    @Test
    void iteratesTheHeadersOfConcatenatedBatches() {
        ByteBuffer a = batch(0, 2, 1L);
        ByteBuffer c = batch(2, 3, 2L);
        ByteBuffer both = ByteBuffer.allocate(4 + a.remaining() + c.remaining()).position(4).put(a).put(c).flip().position(4);
        List<BatchHeader> headers = new java.util.ArrayList<>();
        RecordBatches.headers(both).forEach(headers::add);
        assertThat(headers).extracting(BatchHeader::baseOffset).containsExactly(0L, 2L);
        assertThat(headers).extracting(BatchHeader::position).containsExactly(0L, (long) a.limit());
        assertThat(both.position()).isEqualTo(4);
        ByteBuffer cut = both.duplicate().limit(both.limit() - 1);
        java.util.Iterator<BatchHeader> it = RecordBatches.headers(cut).iterator();
        it.next();
        assertThatThrownBy(it::next).isInstanceOf(CorruptBatchException.class).hasMessageContaining("at byte " + a.limit());
    }

    @Test
    void producedBatchesCarryTheirValidatedHeadersAndShareTheBytes() {
        ByteBuffer a = batch(0, 2, 1L);
        ByteBuffer c = batch(0, 1, 2L);
        ByteBuffer both = ByteBuffer.allocate(3 + a.remaining() + c.remaining()).position(3).put(a).put(c).flip().position(3);
        ProducedBatches produced = ProducedBatches.validate(both);
        assertThat(produced.headers()).extracting(BatchHeader::position).containsExactly(0L, (long) a.limit());
        assertThat(produced.sizeInBytes()).isEqualTo(both.remaining());
        BatchHeader second = produced.headers().get(1);
        RecordBatches.setBaseOffset(produced.buffer(), (int) second.position(), 77);
        assertThat(RecordBatches.header(produced.batch(second), 0, 0).baseOffset()).isEqualTo(77);
        assertThat(both.getLong(3 + a.limit())).isEqualTo(77);
        ByteBuffer bad = batch(0, 1, 1L);
        bad.put(RecordBatches.HEADER_SIZE, (byte) 9);
        assertThatThrownBy(() -> ProducedBatches.validate(bad)).isInstanceOf(CorruptBatchException.class);
        assertThatThrownBy(() -> ProducedBatches.validate(ByteBuffer.allocate(0))).isInstanceOf(CorruptBatchException.class);
    }
}
