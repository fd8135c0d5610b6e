package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.record.ProducedBatches;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchBuilderTest {

    @Test
    void recordsFormAValidBatchTheCursorWalks() throws Exception {
        ByteBuffer b = BatchBuilder.create(1_234L).add(bytes("k1"), bytes("v1")).add(bytes("k2"), null)
                .add(null, bytes("v3")).build();
        BatchHeader h = ProducedBatches.validate(b).headers().get(0);
        assertThat(h.recordCount()).isEqualTo(3);
        assertThat(h.lastOffsetDelta()).isEqualTo(2);
        assertThat(h.hasProducerId()).isFalse();
        assertThat(h.isControl()).isFalse();
        try (RecordCursor c = RecordCursor.of(b, h)) {
            int n = 0;
            while (c.next()) {
                assertThat(c.offset()).isEqualTo(n++);
                assertThat(c.timestamp()).isEqualTo(1_234L);
            }
            assertThat(n).isEqualTo(3);
        }
    }

    @Test
    void markerIsATransactionalControlBatchOfTheRightType() {
        ByteBuffer commit = BatchBuilder.marker(7L, (short) 3, 0, true, 10L);
        BatchHeader h = ProducedBatches.validate(commit).headers().get(0);
        assertThat(h.isControl()).isTrue();
        assertThat(h.isTransactional()).isTrue();
        assertThat(h.producerId()).isEqualTo(7L);
        assertThat(h.producerEpoch()).isEqualTo((short) 3);
        assertThat(h.baseSequence()).isEqualTo(-1);
        assertThat(ControlRecords.type(commit, 0, h)).isEqualTo(ControlRecords.COMMIT);
        ByteBuffer abort = BatchBuilder.marker(7L, (short) 3, 0, false, 10L);
        assertThat(ControlRecords.type(abort, 0, ProducedBatches.validate(abort).headers().get(0)))
                .isEqualTo(ControlRecords.ABORT);
    }

    @Test
    void headersAreWrittenInOrderAfterTheValue() {
        ByteBuffer b = BatchBuilder.create(5L).add(bytes("k"), bytes("v"),
                List.of(Map.entry("h", bytes("x")), new AbstractMap.SimpleEntry<>("n", null))).build();
        BatchHeader h = ProducedBatches.validate(b).headers().get(0);
        assertThat(h.recordCount()).isEqualTo(1);
        byte[] record = new byte[b.capacity() - 61];
        b.get(61, record);
        // length 15; attributes, deltas; key "k", value "v"; 2 headers: "h" -> "x", "n" -> null (length -1)
        assertThat(record).containsExactly(30, 0, 0, 0, 2, 'k', 2, 'v', 4, 2, 'h', 2, 'x', 2, 'n', 1);
    }

    @Test
    void aHeaderWithoutKeyIsRefused() {
        assertThatThrownBy(() -> BatchBuilder.create(0).add(null, null,
                List.of(new AbstractMap.SimpleEntry<>(null, bytes("x"))))).isInstanceOf(NullPointerException.class);
    }

    @Test
    void anEmptyBatchIsRefused() {
        assertThatThrownBy(() -> BatchBuilder.create(0).build()).isInstanceOf(IllegalStateException.class);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
