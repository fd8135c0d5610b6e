package io.kaas.api.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ControlRecordsTest {
    private static final short CONTROL = (short) (RecordBatches.TRANSACTIONAL_FLAG | RecordBatches.CONTROL_FLAG);

    /** A control batch of one record with this key and value (null: a null value), valid CRC. */
    private static ByteBuffer control(byte[] key, byte[] value) {
        ByteBuffer rec = ByteBuffer.allocate(64);
        rec.put((byte) 0).put((byte) 0).put((byte) 0).put((byte) (key.length << 1)).put(key);
        if (value == null) {
            rec.put((byte) 1); // zigzag -1
        } else {
            rec.put((byte) (value.length << 1)).put(value);
        }
        rec.put((byte) 0); // no headers
        int length = rec.position();
        int size = RecordBatches.HEADER_SIZE + 1 + length;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putLong(0).putInt(size - RecordBatches.LOG_OVERHEAD).putInt(0).put(RecordBatches.MAGIC_V2).putInt(0)
                .putShort(CONTROL).putInt(0).putLong(1_000).putLong(1_000).putLong(7).putShort((short) 2).putInt(-1)
                .putInt(1).put((byte) (length << 1)).put(rec.array(), 0, length);
        b.flip();
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, size));
        return b;
    }

    private static byte[] key(short type) {
        return ByteBuffer.allocate(4).putShort((short) 0).putShort(type).array();
    }

    private static byte[] value(short version, int coordinatorEpoch) {
        return ByteBuffer.allocate(6).putShort(version).putInt(coordinatorEpoch).array();
    }

    @Test
    void readsTheTypeAndTheCoordinatorEpoch() {
        ByteBuffer b = control(key(ControlRecords.ABORT), value((short) 0, 42));
        BatchHeader h = RecordBatches.validate(b).get(0);
        assertThat(ControlRecords.marker(b, 0, h)).isEqualTo(new ControlRecords.Marker(ControlRecords.ABORT, 42));
        assertThat(ControlRecords.marker(b, 0, h).commit()).isFalse();
        ByteBuffer newer = control(key(ControlRecords.COMMIT), value((short) 1, 7)); // a later version reads as v0
        assertThat(ControlRecords.marker(newer, 0, RecordBatches.validate(newer).get(0)))
                .isEqualTo(new ControlRecords.Marker(ControlRecords.COMMIT, 7));
    }

    @Test
    void aMarkerWithoutAWellFormedValueIsCorrupt() {
        assertThatThrownBy(() -> RecordBatches.validate(control(key(ControlRecords.COMMIT), new byte[5])))
                .isInstanceOf(CorruptBatchException.class).hasMessageContaining("at least 6 bytes");
        assertThatThrownBy(() -> RecordBatches.validate(control(key(ControlRecords.COMMIT), null)))
                .isInstanceOf(CorruptBatchException.class).hasMessageContaining("at least 6 bytes");
        assertThatThrownBy(() -> RecordBatches.validate(control(key(ControlRecords.COMMIT), value((short) -1, 0))))
                .isInstanceOf(CorruptBatchException.class).hasMessageContaining("Invalid version");
    }
}
