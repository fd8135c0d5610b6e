package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.cluster.files.internal.CoordinationJson.Epochs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CoordinationJsonTest {
    @Test
    void assignmentsRoundTripWithPartitionsWithoutALeaderAndLargeEpochs() throws IOException {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        Map<UUID, TopicAssignment> assignments = Map.of(
                a, new TopicAssignment(a, "a", List.of(new PartitionLeader(3, Integer.MAX_VALUE, Long.MAX_VALUE),
                        PartitionLeader.none(7), new PartitionLeader(0, 0, 0)), 41),
                b, new TopicAssignment(b, "b.with-dots_and-dashes", List.of(), 0));
        assertThat(CoordinationJson.readAssignments(CoordinationJson.assignments(assignments))).isEqualTo(assignments);
        assertThat(CoordinationJson.readAssignments(CoordinationJson.assignments(Map.of()))).isEmpty();
    }

    @Test
    void reassignmentsAndEpochsRoundTrip() throws IOException {
        Map<TopicPartitionRef, Integer> requests = Map.of(new TopicPartitionRef("t", 0), 2,
                new TopicPartitionRef("t", 11), 0, new TopicPartitionRef("u", 3), 1);
        assertThat(CoordinationJson.readReassignments(CoordinationJson.reassignments(requests))).isEqualTo(requests);
        Epochs epochs = new Epochs(12, Long.MAX_VALUE);
        assertThat(CoordinationJson.readEpochs(CoordinationJson.epochs(epochs))).isEqualTo(epochs);
    }

    @Test
    void aTopicListedTwiceOrALeaderOutOfRangeIsRefusedSayingWhy() {
        String id = KafkaUuids.toText(UUID.randomUUID());
        String twice = "{\"assignments\": [{\"topicId\": \"" + id + "\", \"topic\": \"a\", \"version\": 0, \"partitions\": []},"
                + "{\"topicId\": \"" + id + "\", \"topic\": \"b\", \"version\": 0, \"partitions\": []}]}";
        assertThatThrownBy(() -> CoordinationJson.readAssignments(twice.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class).hasMessageContaining("listed twice");
        String big = "{\"assignments\": [{\"topicId\": \"" + id + "\", \"topic\": \"a\", \"version\": 0, "
                + "\"partitions\": [[1, 1, 1], [4294967297, 1, 1]]}]}";
        assertThatThrownBy(() -> CoordinationJson.readAssignments(big.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class).hasMessageContaining("'a'").hasMessageContaining("partition 1");
        String noLeader = "{\"assignments\": [{\"topicId\": \"" + id + "\", \"topic\": \"a\", \"version\": 0, "
                + "\"partitions\": [[-2, 1, 1]]}]}";
        assertThatThrownBy(() -> CoordinationJson.readAssignments(noLeader.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class).hasMessageContaining("partition 0");
    }
}
