package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * cleanup.policy=compact reaches the engine's verdict: the segment engine compacts and accepts it, the RocksDB
 * engine (loaded from its plugin zip) does not compact and the broker answers INVALID_CONFIG saying so, for
 * CreateTopics (validate-only too) and IncrementalAlterConfigs alike.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class EngineCompactionSupportIT {
    private static final Map<String, String> COMPACT = Map.of("cleanup.policy", "compact");

    @TempDir
    Path root;

    private static void create(Admin admin, String topic, Map<String, String> configs, boolean validateOnly)
            throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(configs)),
                new CreateTopicsOptions().validateOnly(validateOnly)).all().get(20, TimeUnit.SECONDS);
    }

    private static void alterToCompact(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
                new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET)))).all().get(20, TimeUnit.SECONDS);
    }

    @Test
    void theRocksDbEngineRefusesCompactedTopicsWithInvalidConfig() throws Exception {
        try (TestBroker broker = TestBroker.builder(root).engine(TestBroker.ROCKSDB).start(); Admin admin = broker.admin()) {
            for (boolean validateOnly : new boolean[] {true, false}) {
                assertThatThrownBy(() -> create(admin, "compacted", COMPACT, validateOnly))
                        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidConfigurationException.class)
                        .hasMessageContaining("does not compact");
            }
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).doesNotContain("compacted");

            create(admin, "plain", Map.of(), false);
            assertThatThrownBy(() -> alterToCompact(admin, "plain")).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("does not compact");
            Map<String, String> configs = Map.of("cleanup.policy", "delete");
            create(admin, "deleting", configs, false);
        }
    }

    @Test
    void theSegmentEngineAcceptsThem() throws Exception {
        try (TestBroker broker = TestBroker.builder(root).start(); Admin admin = broker.admin()) {
            create(admin, "compacted", COMPACT, false);
            create(admin, "plain", Map.of(), false);
            alterToCompact(admin, "plain");
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).contains("compacted", "plain");
        }
    }
}
