package io.kaas.cluster.files.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.util.Comparator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON form of the store's files. Uses the tree model (no reflection, so nothing is opened to
 * Jackson) and checks every field, so a damaged file is reported with what is wrong in it.
 */
final class StateJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private StateJson() {
    }

    /** {@code {"name", "topicId", "partitions", "configs"}}; the id in Kafka's base64 form. */
    static byte[] topic(TopicRecord topic) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("name", topic.name());
        node.put("topicId", KafkaUuids.toText(topic.topicId()));
        node.put("partitions", topic.partitions());
        ObjectNode configs = node.putObject("configs");
        new TreeMap<>(topic.configs()).forEach(configs::put);
        return write(node);
    }

    /** @throws IOException saying which field is missing or malformed */
    static TopicRecord readTopic(byte[] bytes) throws IOException {
        JsonNode node = read(bytes);
        String name = text(node, "name");
        String id = text(node, "topicId");
        int partitions = integer(node, "partitions");
        JsonNode configsNode = node.get("configs");
        if (configsNode == null || !configsNode.isObject()) {
            throw new IOException("field 'configs' is missing or not an object");
        }
        Map<String, String> configs = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : configsNode.properties()) {
            if (!e.getValue().isTextual()) {
                throw new IOException("config '" + e.getKey() + "' is not a string");
            }
            configs.put(e.getKey(), e.getValue().asText());
        }
        try {
            return new TopicRecord(name, KafkaUuids.fromText(id), partitions, configs);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    static byte[] cluster(String clusterId) {
        return write(MAPPER.createObjectNode().put("clusterId", clusterId));
    }

    static String readClusterId(byte[] bytes) throws IOException {
        String id = text(read(bytes), "clusterId");
        if (id.length() != 22) {
            throw new IOException("field 'clusterId' is not a 22-character id: '" + id + "'");
        }
        return id;
    }

    static byte[] producerIds(long nextBlockStart) {
        return write(MAPPER.createObjectNode().put("nextBlockStart", nextBlockStart));
    }

    static long readNextBlockStart(byte[] bytes) throws IOException {
        JsonNode value = read(bytes).get("nextBlockStart");
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw new IOException("field 'nextBlockStart' is missing or not a non-negative integer");
        }
        return value.asLong();
    }

    /** A group file's content. */
    record GroupOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) {
    }

    /**
     * {@code {"groupId", "offsets": [{"topic", "partition", "offset", "leaderEpoch", "metadata",
     * "commitTimestamp", "expireTimestamp"}]}}, sorted by topic and partition.
     */
    static byte[] groupOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("groupId", groupId);
        ArrayNode array = node.putArray("offsets");
        offsets.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartitionRef::topic)
                        .thenComparingInt(TopicPartitionRef::partition)))
                .forEach(e -> array.addObject()
                        .put("topic", e.getKey().topic())
                        .put("partition", e.getKey().partition())
                        .put("offset", e.getValue().offset())
                        .put("leaderEpoch", e.getValue().leaderEpoch())
                        .put("metadata", e.getValue().metadata())
                        .put("commitTimestamp", e.getValue().commitTimestamp())
                        .put("expireTimestamp", e.getValue().expireTimestamp()));
        return write(node);
    }

    /** @throws IOException saying which field is missing or malformed */
    static GroupOffsets readGroupOffsets(byte[] bytes) throws IOException {
        JsonNode node = read(bytes);
        String groupId = text(node, "groupId");
        JsonNode array = node.get("offsets");
        if (array == null || !array.isArray()) {
            throw new IOException("field 'offsets' is missing or not an array");
        }
        Map<TopicPartitionRef, CommittedOffset> offsets = new HashMap<>();
        for (JsonNode o : array) {
            if (!o.isObject()) {
                throw new IOException("an entry of 'offsets' is not an object");
            }
            try {
                offsets.put(new TopicPartitionRef(text(o, "topic"), integer(o, "partition")),
                        new CommittedOffset(longValue(o, "offset"), integer(o, "leaderEpoch"), text(o, "metadata"),
                                longValue(o, "commitTimestamp"), longValue(o, "expireTimestamp")));
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return new GroupOffsets(groupId, offsets);
    }

    private static long longValue(JsonNode node, String field) throws IOException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IOException("field '" + field + "' is missing or not an integer");
        }
        return value.asLong();
    }

    private static JsonNode read(byte[] bytes) throws IOException {
        JsonNode node = MAPPER.readTree(bytes);
        if (node == null || !node.isObject()) {
            throw new IOException("not a JSON object");
        }
        return node;
    }

    private static byte[] write(JsonNode node) {
        try {
            return (MAPPER.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a JSON tree", e);
        }
    }

    private static String text(JsonNode node, String field) throws IOException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IOException("field '" + field + "' is missing or not a string");
        }
        return value.asText();
    }

    private static int integer(JsonNode node, String field) throws IOException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new IOException("field '" + field + "' is missing or not an integer");
        }
        return value.asInt();
    }
}
