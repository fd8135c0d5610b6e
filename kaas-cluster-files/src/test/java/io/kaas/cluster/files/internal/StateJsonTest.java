package io.kaas.cluster.files.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StateJsonTest {
    private static final UUID ID = new UUID(0x0123456789abcdefL, 0xfedcba9876543210L);
    private static final String ID_TEXT = "ASNFZ4mrze_-3LqYdlQyEA";

    /** Byte for byte what the ObjectMapper-based StateJson wrote. */
    private static final String OLD_TOPIC = """
            {
              "name" : "orders",
              "topicId" : "ASNFZ4mrze_-3LqYdlQyEA",
              "partitions" : 3,
              "configs" : {
                "cleanup.policy" : "compact",
                "quote\\"back\\\\slash" : "tab\\tnl\\nnul\\u0000ctl\\u001F",
                "z.last" : "1",
                "\u00fcn\u00ef" : "\u7ec4 emoji-\uD83D\uDE00 / <>&'"
              }
            }
            """;
    private static final String OLD_TOPIC_WITHOUT_CONFIGS = """
            {
              "name" : "x",
              "topicId" : "ASNFZ4mrze_-3LqYdlQyEA",
              "partitions" : 2147483647,
              "configs" : { }
            }
            """;
    private static final String OLD_GROUP = """
            {
              "groupId" : "nul\\u0000char-emoji-\uD83D\uDE00-\u00fc",
              "offsets" : [ {
                "topic" : "a",
                "partition" : 2,
                "offset" : 0,
                "leaderEpoch" : -1,
                "metadata" : "",
                "commitTimestamp" : 0,
                "expireTimestamp" : 0
              }, {
                "topic" : "a",
                "partition" : 10,
                "offset" : 5,
                "leaderEpoch" : 3,
                "metadata" : "",
                "commitTimestamp" : 1000,
                "expireTimestamp" : 99
              }, {
                "topic" : "b",
                "partition" : 1,
                "offset" : 9223372036854775807,
                "leaderEpoch" : -2147483648,
                "metadata" : "m\\"\\n",
                "commitTimestamp" : -9223372036854775808,
                "expireTimestamp" : -1
              } ]
            }
            """;

    private static final String ENTRY = "{\"topic\": \"o\", \"partition\": 0, \"offset\": 5, \"leaderEpoch\": -1,"
            + " \"metadata\": \"m\", \"commitTimestamp\": 1, \"expireTimestamp\": -1}";

    @Test
    void readsAndWritesTopicFilesAsBefore() throws IOException {
        TopicRecord topic = new TopicRecord("orders", ID, 3, Map.of("z.last", "1", "cleanup.policy", "compact",
                "quote\"back\\slash", "tab\tnl\nnul\u0000ctl\u001f", "\u00fcn\u00ef", "\u7ec4 emoji-\uD83D\uDE00 / <>&'"));
        assertThat(StateJson.readTopic(OLD_TOPIC.getBytes(UTF_8))).isEqualTo(topic);
        assertThat(new String(StateJson.topic(topic), UTF_8)).isEqualTo(OLD_TOPIC);

        TopicRecord bare = new TopicRecord("x", ID, Integer.MAX_VALUE, Map.of());
        assertThat(StateJson.readTopic(OLD_TOPIC_WITHOUT_CONFIGS.getBytes(UTF_8))).isEqualTo(bare);
        assertThat(new String(StateJson.topic(bare), UTF_8)).isEqualTo(OLD_TOPIC_WITHOUT_CONFIGS);
    }

    @Test
    void readsAndWritesGroupFilesAsBefore() throws IOException {
        String groupId = "nul\u0000char-emoji-\uD83D\uDE00-\u00fc";
        Map<TopicPartitionRef, CommittedOffset> offsets = Map.of(
                new TopicPartitionRef("b", 1),
                new CommittedOffset(Long.MAX_VALUE, Integer.MIN_VALUE, "m\"\n", Long.MIN_VALUE, -1),
                new TopicPartitionRef("a", 10), new CommittedOffset(5, 3, "", 1000, 99),
                new TopicPartitionRef("a", 2), new CommittedOffset(0, -1, null, 0, 0));
        assertThat(StateJson.readGroupOffsets(OLD_GROUP.getBytes(UTF_8)))
                .isEqualTo(new StateJson.GroupOffsets(groupId, offsets));
        assertThat(new String(StateJson.groupOffsets(groupId, offsets), UTF_8)).isEqualTo(OLD_GROUP);
        assertThat(new String(StateJson.groupOffsets("", Map.of()), UTF_8))
                .isEqualTo("{\n  \"groupId\" : \"\",\n  \"offsets\" : [ ]\n}\n");
    }

    @Test
    void readsAndWritesClusterAndProducerIdFilesAsBefore() throws IOException {
        String cluster = "{\n  \"clusterId\" : \"" + ID_TEXT + "\"\n}\n";
        assertThat(new String(StateJson.cluster(ID_TEXT), UTF_8)).isEqualTo(cluster);
        assertThat(StateJson.readClusterId(cluster.getBytes(UTF_8))).isEqualTo(ID_TEXT);

        String producerIds = "{\n  \"nextBlockStart\" : 9223372036854775807\n}\n";
        assertThat(new String(StateJson.producerIds(Long.MAX_VALUE), UTF_8)).isEqualTo(producerIds);
        assertThat(StateJson.readNextBlockStart(producerIds.getBytes(UTF_8))).isEqualTo(Long.MAX_VALUE);
        assertThat(StateJson.readNextBlockStart(StateJson.producerIds(0))).isZero();
    }

    @Test
    void acceptsFieldsInAnyOrderIgnoresUnknownOnesAndTakesTheLastOfDuplicates() throws IOException {
        String json = "{\"configs\": {\"b\": \"2\", \"a\": \"1\", \"a\": \"3\"}, \"partitions\": 2,"
                + " \"extra\": [1, 2.5, true, null, {\"x\": [{}]}], \"topicId\": \"" + ID_TEXT + "\","
                + " \"name\": \"old\", \"name\": \"t\", \"more\": {\"partitions\": \"nested, not ours\"}}";
        assertThat(StateJson.readTopic(json.getBytes(UTF_8)))
                .isEqualTo(new TopicRecord("t", ID, 2, Map.of("a", "3", "b", "2")));

        String group = "{\"offsets\": [" + ENTRY + ", " + ENTRY.replace("\"offset\": 5", "\"offset\": 6")
                + "], \"version\": 2, \"groupId\": \"g\"}";
        assertThat(StateJson.readGroupOffsets(group.getBytes(UTF_8))).isEqualTo(new StateJson.GroupOffsets("g",
                Map.of(new TopicPartitionRef("o", 0), new CommittedOffset(6, -1, "m", 1, -1))));
        assertThat(StateJson.readNextBlockStart("{\"x\": \"y\", \"nextBlockStart\": 7}".getBytes(UTF_8))).isEqualTo(7);
    }

    interface Reader {
        Object read(byte[] bytes) throws IOException;
    }

    static Stream<Arguments> badInput() {
        Reader topic = StateJson::readTopic;
        Reader cluster = StateJson::readClusterId;
        Reader producerIds = StateJson::readNextBlockStart;
        Reader group = StateJson::readGroupOffsets;
        String okTopic = "{\"name\": \"t\", \"topicId\": \"" + ID_TEXT + "\", \"partitions\": 2, \"configs\": {}}";
        String okGroup = "{\"groupId\": \"g\", \"offsets\": [" + ENTRY + "]}";
        return Stream.of(
                Arguments.of(topic, "", "not a JSON object"),
                Arguments.of(topic, " \n", "not a JSON object"),
                Arguments.of(topic, "[" + okTopic + "]", "not a JSON object"),
                Arguments.of(topic, "42", "not a JSON object"),
                Arguments.of(topic, "\"orders\"", "not a JSON object"),
                Arguments.of(topic, "null", "not a JSON object"),
                Arguments.of(topic, okTopic.substring(0, okTopic.length() - 5), "end-of-input"),
                Arguments.of(topic, okTopic.substring(0, okTopic.length() - 1), "end-of-input"),
                Arguments.of(topic, "{\"name\": \"t\",}", "double-quote to start field name"),
                Arguments.of(topic, okTopic.replace("\"t\"", "7"), "field 'name' is missing or not a string"),
                Arguments.of(topic, okTopic.replace("\"t\"", "null"), "field 'name' is missing or not a string"),
                Arguments.of(topic, okTopic.replace("\"" + ID_TEXT + "\"", "{}"), "field 'topicId' is missing or not a string"),
                Arguments.of(topic, okTopic.replace(ID_TEXT, "short"), "expected 22 characters"),
                Arguments.of(topic, okTopic.replace("\"partitions\": 2,", ""), "field 'partitions' is missing or not an integer"),
                Arguments.of(topic, okTopic.replace(": 2,", ": \"2\","), "field 'partitions' is missing or not an integer"),
                Arguments.of(topic, okTopic.replace(": 2,", ": 2.0,"), "field 'partitions' is missing or not an integer"),
                Arguments.of(topic, okTopic.replace(": 2,", ": 1e2,"), "field 'partitions' is missing or not an integer"),
                Arguments.of(topic, okTopic.replace(": 2,", ": true,"), "field 'partitions' is missing or not an integer"),
                Arguments.of(topic, okTopic.replace(": 2,", ": 2147483648,"), "field 'partitions' is missing or not an integer"),
                Arguments.of(topic, okTopic.replace(": 2,", ": 9223372036854775808,"), "field 'partitions' is missing or not an integer"),
                Arguments.of(topic, okTopic.replace(": 2,", ": 0,"), "at least one partition"),
                Arguments.of(topic, okTopic.replace(", \"configs\": {}", ""), "field 'configs' is missing or not an object"),
                Arguments.of(topic, okTopic.replace("{}", "[]"), "field 'configs' is missing or not an object"),
                Arguments.of(topic, okTopic.replace("{}", "{\"a\": 1}"), "config 'a' is not a string"),
                Arguments.of(topic, okTopic.replace("{}", "{\"a\": {}}"), "config 'a' is not a string"),
                Arguments.of(cluster, "[]", "not a JSON object"),
                Arguments.of(cluster, "{}", "field 'clusterId' is missing or not a string"),
                Arguments.of(cluster, "{\"clusterId\": 5}", "field 'clusterId' is missing or not a string"),
                Arguments.of(cluster, "{\"clusterId\": \"abc\"}", "field 'clusterId' is not a 22-character id: 'abc'"),
                Arguments.of(cluster, "{\"clusterId\": \"" + ID_TEXT, "end-of-input"),
                Arguments.of(producerIds, "{}", "field 'nextBlockStart' is missing or not a non-negative integer"),
                Arguments.of(producerIds, "{\"nextBlockStart\": -1}", "not a non-negative integer"),
                Arguments.of(producerIds, "{\"nextBlockStart\": \"5\"}", "not a non-negative integer"),
                Arguments.of(producerIds, "{\"nextBlockStart\": 5.0}", "not a non-negative integer"),
                Arguments.of(producerIds, "{\"nextBlockStart\": 9223372036854775808}", "not a non-negative integer"),
                Arguments.of(producerIds, "{\"nextBlockStart\": 5", "end-of-input"),
                Arguments.of(group, "[]", "not a JSON object"),
                Arguments.of(group, okGroup.replace("\"g\"", "7"), "field 'groupId' is missing or not a string"),
                Arguments.of(group, "{\"groupId\": \"g\"}", "field 'offsets' is missing or not an array"),
                Arguments.of(group, "{\"groupId\": \"g\", \"offsets\": {}}", "field 'offsets' is missing or not an array"),
                Arguments.of(group, "{\"groupId\": \"g\", \"offsets\": [null]}", "an entry of 'offsets' is not an object"),
                Arguments.of(group, "{\"groupId\": \"g\", \"offsets\": [1]}", "an entry of 'offsets' is not an object"),
                Arguments.of(group, okGroup.replace("\"o\"", "1"), "field 'topic' is missing or not a string"),
                Arguments.of(group, okGroup.replace("\"partition\": 0", "\"partition\": -1"), "negative partition -1"),
                Arguments.of(group, okGroup.replace("\"partition\": 0", "\"partition\": \"0\""), "field 'partition'"),
                Arguments.of(group, okGroup.replace("\"offset\": 5", "\"offset\": 9223372036854775808"), "field 'offset'"),
                Arguments.of(group, okGroup.replace("-1,", "2147483648,"), "field 'leaderEpoch' is missing or not an integer"),
                Arguments.of(group, okGroup.replace("\"m\"", "null"), "field 'metadata' is missing or not a string"),
                Arguments.of(group, okGroup.replace("\"commitTimestamp\": 1", "\"commitTimestamp\": 1.5"), "field 'commitTimestamp'"),
                Arguments.of(group, okGroup.replace(", \"expireTimestamp\": -1", ""), "field 'expireTimestamp' is missing"),
                Arguments.of(group, okGroup.substring(0, okGroup.length() - 2), "end-of-input"));
    }

    @ParameterizedTest
    @MethodSource("badInput")
    void refusesBadInputSayingWhatIsWrong(Reader reader, String json, String message) {
        assertThatThrownBy(() -> reader.read(json.getBytes(UTF_8)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(message);
    }

    @Test
    void refusesDeeplyNestedUnknownFieldsInsteadOfOverflowingTheStack() {
        String json = "{\"x\": " + "[".repeat(5000) + "]".repeat(5000) + ", \"clusterId\": \"" + ID_TEXT + "\"}";
        assertThatThrownBy(() -> StateJson.readClusterId(json.getBytes(UTF_8)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("nesting depth");
    }
}
