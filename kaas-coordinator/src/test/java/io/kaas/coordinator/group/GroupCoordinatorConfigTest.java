package io.kaas.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GroupCoordinatorConfigTest {

    private static GroupCoordinatorConfig withConsumer(int sessionMs, int heartbeatMs, List<String> assignors) {
        GroupCoordinatorConfig d = GroupCoordinatorConfig.defaults();
        return new GroupCoordinatorConfig(d.minSessionTimeoutMs(), d.maxSessionTimeoutMs(), d.initialRebalanceDelayMs(),
                d.maxSize(), d.offsetsRetentionMs(), d.offsetsRetentionCheckIntervalMs(), d.offsetMetadataMaxBytes(),
                sessionMs, heartbeatMs, d.consumerMaxSize(), assignors);
    }

    @Test
    void defaultsAreKafkas() {
        GroupCoordinatorConfig d = GroupCoordinatorConfig.defaults();
        assertThat(d).isEqualTo(new GroupCoordinatorConfig(6000, 1_800_000, 3000, Integer.MAX_VALUE, 604_800_000L, 600_000,
                4096, 45_000, 5_000, Integer.MAX_VALUE, List.of("uniform", "range")));
        assertThat(d.withConsumerMaxSize(2).consumerMaxSize()).isEqualTo(2);
    }

    @Test
    void assignorsGoByShortNameOrKafkasClassName() {
        assertThat(GroupCoordinatorConfig.assignorNames()).containsExactly("uniform", "range");
        assertThat(GroupCoordinatorConfig.assignorName("uniform")).isEqualTo("uniform");
        assertThat(GroupCoordinatorConfig.assignorName("org.apache.kafka.coordinator.group.assignor.UniformAssignor"))
                .isEqualTo("uniform");
        assertThat(GroupCoordinatorConfig.assignorName("org.apache.kafka.coordinator.group.assignor.RangeAssignor"))
                .isEqualTo("range");
        assertThat(GroupCoordinatorConfig.assignorName("sticky")).isNull();
    }

    @Test
    void refusesWhatTheCoordinatorCannotRunWith() {
        assertThatThrownBy(() -> withConsumer(45_000, 5_000, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group.consumer.assignors");
        assertThatThrownBy(() -> withConsumer(45_000, 5_000, List.of("range", "sticky")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sticky");
        assertThatThrownBy(() -> withConsumer(5_000, 5_000, List.of("range")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group.consumer.heartbeat.interval.ms");
        assertThat(withConsumer(5_001, 5_000, List.of("range")).consumerAssignors()).containsExactly("range");
    }
}
