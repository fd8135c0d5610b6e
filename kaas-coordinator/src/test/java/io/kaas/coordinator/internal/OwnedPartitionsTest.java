package io.kaas.coordinator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.wire.protocol.Errors;
import org.junit.jupiter.api.Test;

/** Kafka's placement of keys and the error a key gets in each phase of its partition's ownership. */
class OwnedPartitionsTest {
    private final OwnedPartitions owned = new OwnedPartitions("__consumer_offsets", () -> 50);

    @Test
    void keysArePlacedAsKafkasUtilsAbsOfTheHashModuloThePartitions() {
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(owned.partitionFor("polygenelubricants")).as("Utils.abs(MIN_VALUE) is 0").isZero();
        assertThat(owned.partitionFor("my-group")).isEqualTo(Math.abs("my-group".hashCode()) % 50);
        assertThat(owned.partitionFor("")).isZero();
    }

    @Test
    void aKeyAnswersNotCoordinatorLoadInProgressOrNotAvailableByItsPartitionsPhase() {
        String key = "my-group";
        int p = owned.partitionFor(key);
        assertThat(owned.error(key)).isEqualTo(Errors.NOT_COORDINATOR);
        assertThatThrownBy(() -> owned.log(p)).isInstanceOf(NotCoordinatorException.class)
                .hasMessageContaining("__consumer_offsets-" + p);
        owned.loading(p, null, 3);
        assertThat(owned.error(key)).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        owned.loaded(p, 2);
        assertThat(owned.error(key)).as("a stale epoch changes nothing").isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        owned.loaded(p, 3);
        assertThat(owned.error(key)).isEqualTo(Errors.NONE);
        assertThat(owned.ownedAt(p, 3)).isTrue();
        assertThat(owned.ownedAt(p, 4)).isFalse();
        owned.failed(p, 3);
        assertThat(owned.error(key)).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(owned.lost(p)).isTrue();
        assertThat(owned.lost(p)).isFalse();
        assertThat(owned.error(key)).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(owned.partitions()).isEmpty();
    }
}
