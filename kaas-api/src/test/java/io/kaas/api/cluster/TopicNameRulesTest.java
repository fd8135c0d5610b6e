package io.kaas.api.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicNameRulesTest {
    @Test
    void acceptsKafkasAlphabetUpToTheMaximumLength() {
        assertThat(TopicNameRules.invalidReason("orders.v2_eu-west")).isNull();
        assertThat(TopicNameRules.invalidReason("a".repeat(TopicNameRules.MAX_LENGTH))).isNull();
        assertThat(TopicNameRules.invalidReason("...")).isNull();
    }

    @Test
    void refusesWhatKafkaRefusesWithKafkasMessages() {
        assertThat(TopicNameRules.invalidReason(null)).isEqualTo("Topic name is illegal, it can't be empty");
        assertThat(TopicNameRules.invalidReason("")).isEqualTo("Topic name is illegal, it can't be empty");
        assertThat(TopicNameRules.invalidReason(".")).isEqualTo("Topic name cannot be \".\" or \"..\"");
        assertThat(TopicNameRules.invalidReason("..")).isEqualTo("Topic name cannot be \".\" or \"..\"");
        assertThat(TopicNameRules.invalidReason("a".repeat(TopicNameRules.MAX_LENGTH + 1)))
                .startsWith("Topic name is illegal, it can't be longer than 249 characters");
        for (String bad : new String[] {"a/b", "a b", "ü", "a\\b", "a:b", "a\0b"}) {
            assertThat(TopicNameRules.invalidReason(bad)).as(bad).contains("is illegal, it contains a character other than");
        }
    }
}
