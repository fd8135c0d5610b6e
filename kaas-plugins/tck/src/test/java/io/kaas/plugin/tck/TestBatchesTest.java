package io.kaas.plugin.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.RecordBatches;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class TestBatchesTest {
    @Test
    void buildsTransactionalBatchesAndMarkersThatPassTheValidation() {
        BatchHeader data = RecordBatches.validateOne(TestBatches.batch().producer(3, 1, 0).transactional().build(), 0, 0);
        assertThat(data.isTransactional()).isTrue();
        assertThat(data.isControl()).isFalse();
        ByteBuffer commit = TestBatches.controlMarker(3, 1, true).build();
        BatchHeader h = RecordBatches.validateOne(commit, 0, 0);
        assertThat(h.isControl()).isTrue();
        assertThat(h.isTransactional()).isTrue();
        assertThat(h.producerId()).isEqualTo(3);
        assertThat(h.producerEpoch()).isEqualTo((short) 1);
        assertThat(h.baseSequence()).isEqualTo(-1);
        assertThat(ControlRecords.type(commit, 0, h)).isEqualTo(ControlRecords.COMMIT);
        ByteBuffer abort = TestBatches.controlMarker(3, 1, false).build();
        assertThat(ControlRecords.type(abort, 0, RecordBatches.validateOne(abort, 0, 0))).isEqualTo(ControlRecords.ABORT);
    }

    @Test
    void theValidationRefusesAMarkerWithAMalformedKey() {
        ByteBuffer tooShort = TestBatches.controlMarker(3, 0, true).controlKey(new byte[] {0, 0, 1}).build();
        assertThatThrownBy(() -> RecordBatches.validateOne(tooShort, 0, 0)).isInstanceOf(CorruptBatchException.class)
                .hasMessageContaining("end control record key");
        ByteBuffer unknownType = TestBatches.controlMarker(3, 0, true).controlKey(new byte[] {0, 0, 0, 5}).build();
        assertThatThrownBy(() -> RecordBatches.validateOne(unknownType, 0, 0)).isInstanceOf(CorruptBatchException.class)
                .hasMessageContaining("type 5");
        ByteBuffer negativeVersion = TestBatches.controlMarker(3, 0, true).controlKey(new byte[] {-1, -1, 0, 1}).build();
        assertThatThrownBy(() -> RecordBatches.validateOne(negativeVersion, 0, 0)).isInstanceOf(CorruptBatchException.class);
        ByteBuffer compressed = TestBatches.controlMarker(3, 0, true).compressionAttribute(1).build();
        assertThatThrownBy(() -> RecordBatches.validateOne(compressed, 0, 0)).isInstanceOf(CorruptBatchException.class);
    }

    @Test
    void buildsBatchesThatPassTheBrokersValidation() {
        ByteBuffer b = TestBatches.batch().timestamps(1000, 0, 7, 3).producer(9, 2, 5).partitionLeaderEpoch(4).build();
        BatchHeader h = RecordBatches.validateOne(b, 0, 0);
        assertThat(h.recordCount()).isEqualTo(3);
        assertThat(h.lastOffsetDelta()).isEqualTo(2);
        assertThat(h.baseTimestamp()).isEqualTo(1000);
        assertThat(h.maxTimestamp()).isEqualTo(1007);
        assertThat(h.producerId()).isEqualTo(9);
        assertThat(h.producerEpoch()).isEqualTo((short) 2);
        assertThat(h.baseSequence()).isEqualTo(5);
        assertThat(h.partitionLeaderEpoch()).isEqualTo(4);
        assertThat(h.sizeInBytes()).isEqualTo(b.remaining());
    }

    @Test
    void concatenatedBatchesValidateOneByOne() {
        ByteBuffer all = TestBatches.concat(TestBatches.batch().records(2).build(),
                TestBatches.batch().records(5).compressionAttribute(4).build());
        List<BatchHeader> headers = RecordBatches.validate(all);
        assertThat(headers).extracting(BatchHeader::recordCount).containsExactly(2, 5);
        assertThat(headers.get(1).compressionCodec()).isEqualTo(4);
    }

    @Test
    void gzipBatchesCarryTheSameRecordsReallyCompressed() throws IOException {
        byte[] plain = TestBatches.batch().timestamps(2000, 0, 5, 10).valueSize(200).bytes();
        byte[] gzip = TestBatches.batch().timestamps(2000, 0, 5, 10).valueSize(200).gzip().bytes();

        BatchHeader h = RecordBatches.validateOne(ByteBuffer.wrap(gzip), 0, 0);
        assertThat(h.compressionCodec()).isEqualTo(1);
        assertThat(h.recordCount()).isEqualTo(3);
        assertThat(h.maxTimestamp()).isEqualTo(2010);
        assertThat(gzip.length).isLessThan(plain.length);
        byte[] inflated;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip, RecordBatches.HEADER_SIZE,
                gzip.length - RecordBatches.HEADER_SIZE))) {
            inflated = in.readAllBytes();
        }
        assertThat(inflated).isEqualTo(Arrays.copyOfRange(plain, RecordBatches.HEADER_SIZE, plain.length));
    }

    @Test
    void seedsMakeOtherwiseEqualBatchesDiffer() {
        assertThat(TestBatches.batch().seed(1).bytes()).isNotEqualTo(TestBatches.batch().seed(2).bytes());
        assertThat(TestBatches.batch().seed(1).bytes()).isEqualTo(TestBatches.batch().seed(1).bytes());
    }

    @Test
    void withBaseOffsetLeavesTheCrcValid() {
        byte[] moved = TestBatches.withBaseOffset(TestBatches.batch().build(), 1234);
        BatchHeader h = RecordBatches.validateOne(ByteBuffer.wrap(moved), 0, 0);
        assertThat(h.baseOffset()).isEqualTo(1234);
    }

    @Test
    void givenKeysAndValuesAreWrittenAsKafkasRecordFormatWithNullsAsLengthMinusOne() {
        byte[] b = TestBatches.batch().record("a", "1").record("a", null).record(null, "x").timestamps(50, 0, 0, 0).bytes();
        BatchHeader h = RecordBatches.validateOne(ByteBuffer.wrap(b), 0, 0);
        assertThat(h.recordCount()).isEqualTo(3);
        assertThat(h.maxTimestamp()).isEqualTo(50);
        // each record: length, attributes 0, timestamp delta 0, offset delta, key, value, no headers (zigzag varints)
        assertThat(Arrays.copyOfRange(b, RecordBatches.HEADER_SIZE, b.length)).containsExactly(
                16, 0, 0, 0, 2, 'a', 2, '1', 0,
                14, 0, 0, 2, 2, 'a', 1, 0,
                14, 0, 0, 4, 1, 2, 'x', 0);
    }

    @Test
    void aCallersCodecCompressesTheRecordsAndSetsTheCodecBits() {
        byte[] plain = TestBatches.batch().records(4).bytes();
        byte[] reversed = TestBatches.batch().records(4).compressed(3, TestBatchesTest::reverse).bytes();
        BatchHeader h = RecordBatches.validateOne(ByteBuffer.wrap(reversed), 0, 0);
        assertThat(h.compressionCodec()).isEqualTo(3);
        assertThat(h.recordCount()).isEqualTo(4);
        assertThat(reverse(Arrays.copyOfRange(reversed, RecordBatches.HEADER_SIZE, reversed.length)))
                .isEqualTo(Arrays.copyOfRange(plain, RecordBatches.HEADER_SIZE, plain.length));
    }

    private static byte[] reverse(byte[] bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[bytes.length - 1 - i];
        }
        return out;
    }
}
