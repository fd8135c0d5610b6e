package io.kaas.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.PartitionKey;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class VerificationGuardsTest {
    private final VerificationGuards guards = new VerificationGuards();
    private final PartitionKey p0 = new PartitionKey("t", UUID.randomUUID(), 0);
    private final PartitionKey p1 = new PartitionKey("t", p0.topicId(), 1);
    private final AtomicInteger appended = new AtomicInteger();

    @Test
    void aMarkerAfterTheGuardWasTakenRefusesTheAppendOfThatProducerOnThatPartitionOnly() {
        long guard = guards.begin();
        assertThat(guards.marker(p0, 7, 1_000, () -> "written")).isEqualTo("written");

        assertThat(guards.appendIfNoMarkerSince(p0, 7, guard, appended::incrementAndGet)).isFalse();
        assertThat(guards.appendIfNoMarkerSince(p0, 8, guard, appended::incrementAndGet)).as("another producer").isTrue();
        assertThat(guards.appendIfNoMarkerSince(p1, 7, guard, appended::incrementAndGet)).as("another partition").isTrue();
        assertThat(appended).hasValue(2);

        long after = guards.begin();
        assertThat(guards.appendIfNoMarkerSince(p0, 7, after, appended::incrementAndGet)).as("verified after the marker")
                .isTrue();
        assertThat(appended).hasValue(3);
    }

    @Test
    void pruningForgetsOnlyMarkersOlderThanAnyVerificationCanBe() {
        long recentMs = VerificationGuards.FORGET_AFTER_MS + 10;
        long guard = guards.begin();
        for (int i = 0; i < 5000; i++) {
            guards.marker(p1, i, 0, () -> null); // old: forgotten once the map is large
        }
        guards.marker(p0, 1, recentMs, () -> null); // recent, and the call that prunes
        assertThat(guards.appendIfNoMarkerSince(p0, 1, guard, appended::incrementAndGet)).as("a recent marker is kept")
                .isFalse();
        assertThat(guards.appendIfNoMarkerSince(p1, 4999, guard, appended::incrementAndGet)).as("an old one is forgotten")
                .isTrue();
    }
}
