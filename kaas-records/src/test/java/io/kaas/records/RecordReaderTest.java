package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordReaderTest {

    @Test
    void readsBackTheKeysAndValuesTheBuilderWrote() throws Exception {
        ByteBuffer b = BatchBuilder.create(99L).add(bytes("k1"), bytes("v1")).add(bytes("k2"), null)
                .add(null, bytes("v3")).add(new byte[0], new byte[0]).build();
        RecordBatches.setBaseOffset(b, 0, 40L);
        BatchHeader h = RecordBatches.header(b, 0, 0);
        List<RecordReader.Record> records = RecordReader.read(b, h);
        assertThat(records).hasSize(4);
        assertThat(records).extracting(RecordReader.Record::offset).containsExactly(40L, 41L, 42L, 43L);
        assertThat(records).extracting(RecordReader.Record::timestamp).containsOnly(99L);
        assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("k1");
        assertThat(new String(records.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("v1");
        assertThat(records.get(1).value()).isNull();
        assertThat(records.get(2).key()).isNull();
        assertThat(records.get(3).key()).isEmpty();
        assertThat(records.get(3).value()).isEmpty();
    }

    @Test
    void readsABatchInsideALargerBuffer() throws Exception {
        ByteBuffer first = BatchBuilder.create(1L).add(bytes("a"), bytes("1")).build();
        ByteBuffer second = BatchBuilder.create(2L).add(bytes("b"), bytes("2")).build();
        ByteBuffer both = ByteBuffer.allocate(first.remaining() + second.remaining()).put(first).put(second).flip();
        List<BatchHeader> headers = ProducedBatches.validate(both).headers();
        BatchHeader h = headers.get(1);
        ByteBuffer view = both.duplicate().position((int) h.position()).limit((int) h.position() + h.sizeInBytes());
        List<RecordReader.Record> records = RecordReader.read(view, h);
        assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("b");
    }

    @Test
    void aTruncatedRecordsSectionIsAnError() {
        ByteBuffer b = BatchBuilder.create(1L).add(bytes("key"), bytes("value")).build();
        BatchHeader h = RecordBatches.header(b, 0, 0);
        ByteBuffer cut = b.duplicate().limit(b.limit() - 3);
        assertThatThrownBy(() -> RecordReader.read(cut, h)).isInstanceOf(IOException.class)
                .hasMessageContaining("record 0");
    }

    @Test
    void aKeyLongerThanItsRecordIsAnError() {
        ByteBuffer b = BatchBuilder.create(1L).add(bytes("key"), bytes("value")).build();
        BatchHeader h = RecordBatches.header(b, 0, 0);
        // record layout after the header: length, attributes, ts delta, offset delta, key length (zigzag 3 = 6)
        int keyLength = RecordBatches.HEADER_SIZE + 4;
        assertThat(b.get(keyLength)).isEqualTo((byte) 6);
        b.put(keyLength, (byte) 100); // 50 bytes
        assertThatThrownBy(() -> RecordReader.read(b, h)).isInstanceOf(IOException.class)
                .hasMessageContaining("key of 50 bytes");
    }

    @Test
    void aBufferShorterThanAHeaderIsAnError() {
        ByteBuffer b = BatchBuilder.create(1L).add(bytes("k"), bytes("v")).build();
        BatchHeader h = RecordBatches.header(b, 0, 0);
        assertThatThrownBy(() -> RecordReader.read(ByteBuffer.allocate(10), h)).isInstanceOf(IOException.class)
                .hasMessageContaining("shorter than its header");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
