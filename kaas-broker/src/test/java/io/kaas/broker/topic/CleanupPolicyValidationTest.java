package io.kaas.broker.topic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The topic's {@code cleanup.policy} as Kafka 4.4 validates a LIST: the empty list allowed, each element known, once. */
class CleanupPolicyValidationTest {
    private final TopicConfigDef policy = TopicConfigs.get(TopicConfigs.CLEANUP_POLICY);

    @Test
    void theKnownPoliciesAndTheEmptyListAreValid() {
        assertThat(policy.validate("delete")).isNull();
        assertThat(policy.validate("compact")).isNull();
        assertThat(policy.validate("compact, delete")).isNull();
        assertThat(policy.validate("")).isNull();
        assertThat(policy.validate("  ")).isNull();
    }

    @Test
    void anUnknownEmptyOrRepeatedElementIsRefusedWithKafkasMessage() {
        assertThat(policy.validate("delete,shred"))
                .isEqualTo("Invalid value shred for configuration cleanup.policy: String must be one of: compact, delete");
        assertThat(policy.validate("delete,")).isEqualTo("Configuration 'cleanup.policy' values must not be empty.");
        assertThat(policy.validate(",")).isEqualTo("Configuration 'cleanup.policy' values must not be empty.");
        assertThat(policy.validate("compact,compact"))
                .isEqualTo("Configuration 'cleanup.policy' values must not be duplicated.");
    }

    @Test
    void theEmptyListNeitherDeletesNorCompacts() {
        io.kaas.broker.config.BrokerConfig config = io.kaas.broker.config.BrokerConfig.defaults();
        var log = new TopicConfigResolver(config).logConfig(Map.of(TopicConfigs.CLEANUP_POLICY, ""));
        assertThat(log.delete()).isFalse();
        assertThat(log.compact()).isFalse();
    }
}
