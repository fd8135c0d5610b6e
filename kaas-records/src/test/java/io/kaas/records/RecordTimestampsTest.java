package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.TimestampOffset;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class RecordTimestampsTest {

    @Test
    void findsTheFirstRecordAtOrAfterATimestampAndTheFirstWithAnExactOne() throws IOException {
        ByteBuffer b = RecordCursorTest.batch(CompressionCodecs.ZSTD, 5, 0, 300, 5);
        BatchHeader h = RecordBatches.header(b, 0, 0);
        assertThat(RecordTimestamps.first(b, h, 0, 1004, false)).isEqualTo(new TimestampOffset(1005, 100, 0));
        assertThat(RecordTimestamps.first(b, h, 101, 1004, false)).isEqualTo(new TimestampOffset(1300, 102, 0));
        assertThat(RecordTimestamps.first(b, h, 101, 1005, true)).isEqualTo(new TimestampOffset(1005, 103, 0));
        assertThat(RecordTimestamps.first(b, h, 0, 1301, false)).isNull();
    }

    @Test
    void answersAnUndecodableCompressedBatchAtBatchLevelAndFailsOnAMalformedPlainOne() throws IOException {
        ByteBuffer gzip = RecordCursorTest.batch(CompressionCodecs.GZIP, 5, 0);
        gzip.put(RecordBatches.HEADER_SIZE, (byte) 0); // no longer a gzip stream
        BatchHeader h = RecordBatches.header(gzip, 0, 0);
        assertThat(RecordTimestamps.first(gzip, h, 101, 0, false)).isEqualTo(new TimestampOffset(h.maxTimestamp(), 101, 0));

        ByteBuffer plain = RecordCursorTest.batch(CompressionCodecs.NONE, 5, 0);
        ByteBuffer cut = plain.duplicate().limit(plain.limit() - 4).slice();
        assertThatThrownBy(() -> RecordTimestamps.first(cut, RecordBatches.header(plain, 0, 0), 0, 2000, false))
                .isInstanceOf(IOException.class);
    }
}
