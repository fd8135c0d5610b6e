package io.kaas.engine.rocksdb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.records.ProducerWindows;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoredProducersTest {
    @Test
    void aProducerRoundTripsWithItsTimestampAndCoordinatorEpoch() {
        ProducerWindows.Producer p = new ProducerWindows.Producer((short) 3,
                List.of(new ProducerWindows.Batch(0, 4, 10, 14), new ProducerWindows.Batch(5, 5, 20, 20)), 1_234, 9);
        assertThat(StoredProducers.decode(StoredProducers.encode(p))).isEqualTo(p);
        ProducerWindows.Producer afterMarker = new ProducerWindows.Producer((short) 4, List.of(), 5_000, 9);
        assertThat(StoredProducers.decode(StoredProducers.encode(afterMarker))).isEqualTo(afterMarker);
    }

    @Test
    void aVersionOneValueLoadsWithoutTimestampOrCoordinatorEpoch() {
        byte[] v1 = ByteBuffer.allocate(3 + 24).putShort((short) 2).put((byte) 1).putInt(0).putInt(1).putLong(7).putLong(8)
                .array();
        assertThat(StoredProducers.decode(v1)).isEqualTo(new ProducerWindows.Producer((short) 2,
                List.of(new ProducerWindows.Batch(0, 1, 7, 8)), -1, -1));
    }
}
