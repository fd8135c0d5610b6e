package io.kaas.broker.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.plugin.BackendProvider;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopicNamesTest {
    private static BackendProvider reserving(String... names) {
        return new BackendProvider() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public int spiVersion() {
                return io.kaas.api.plugin.SpiVersion.MAJOR;
            }

            @Override
            public Set<String> reservedNames() {
                return Set.of(names);
            }
        };
    }

    @Test
    void kafkasRulesAloneAllowEveryLegalName() {
        TopicNames names = TopicNames.kafkaRules();
        assertThat(names.allows("__cluster")).isTrue();
        assertThat(names.allows("orders")).isTrue();
        assertThat(names.refusal("bad name!")).isEqualTo(TopicNames.invalidReason("bad name!")).isNotNull();
        assertThat(names.allows(null)).isFalse();
        assertThat(names.allows("")).isFalse();
    }

    @Test
    void theBackendsReservedNamesAreRefusedInAnyLetterCase() {
        TopicNames names = TopicNames.reservedBy(reserving("__cluster"), reserving("rocksdb"), reserving());
        for (String reserved : List.of("__cluster", "__CLUSTER", "rocksdb", "RocksDB")) {
            assertThat(names.refusal(reserved)).as(reserved).contains("reserved").contains(reserved);
        }
        for (String legal : List.of("__cluster2", "cluster", "rocksdb-events", "_cluster")) {
            assertThat(names.allows(legal)).as(legal).isTrue();
        }
        assertThat(names.refusal("a/b")).isEqualTo(TopicNames.invalidReason("a/b"));
    }
}
