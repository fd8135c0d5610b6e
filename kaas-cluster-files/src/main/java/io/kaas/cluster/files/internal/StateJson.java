package io.kaas.cluster.files.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON form of the store's files. Uses only jackson-core's streaming API (an ObjectMapper costs
 * tens of milliseconds of start-up) and checks every field, so a damaged file is reported with what
 * is wrong in it. Fields may come in any order; unknown fields are ignored; of duplicates the last wins.
 */
final class StateJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Comparator<TopicPartitionRef> BY_TOPIC_AND_PARTITION =
            Comparator.comparing(TopicPartitionRef::topic).thenComparingInt(TopicPartitionRef::partition);

    private StateJson() {
    }

    /** {@code {"name", "topicId", "partitions", "configs"}}; the id in Kafka's base64 form. */
    static byte[] topic(TopicRecord topic) {
        return write(g -> {
            g.writeStringField("name", topic.name());
            g.writeStringField("topicId", KafkaUuids.toText(topic.topicId()));
            g.writeNumberField("partitions", topic.partitions());
            g.writeObjectFieldStart("configs");
            for (Map.Entry<String, String> e : new TreeMap<>(topic.configs()).entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        });
    }

    /** @throws IOException saying which field is missing or malformed */
    static TopicRecord readTopic(byte[] bytes) throws IOException {
        Map<String, Object> node = read(bytes);
        String name = text(node, "name");
        String id = text(node, "topicId");
        int partitions = integer(node, "partitions");
        if (!(node.get("configs") instanceof Map<?, ?> configsNode)) {
            throw new IOException("field 'configs' is missing or not an object");
        }
        Map<String, String> configs = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : configsNode.entrySet()) {
            if (!(e.getValue() instanceof String value)) {
                throw new IOException("config '" + e.getKey() + "' is not a string");
            }
            configs.put((String) e.getKey(), value);
        }
        try {
            return new TopicRecord(name, KafkaUuids.fromText(id), partitions, configs);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    static byte[] cluster(String clusterId) {
        return write(g -> g.writeStringField("clusterId", clusterId));
    }

    static String readClusterId(byte[] bytes) throws IOException {
        String id = text(read(bytes), "clusterId");
        if (id.length() != 22) {
            throw new IOException("field 'clusterId' is not a 22-character id: '" + id + "'");
        }
        return id;
    }

    static byte[] producerIds(long nextBlockStart) {
        return write(g -> g.writeNumberField("nextBlockStart", nextBlockStart));
    }

    static long readNextBlockStart(byte[] bytes) throws IOException {
        if (!(read(bytes).get("nextBlockStart") instanceof Long value) || value < 0) {
            throw new IOException("field 'nextBlockStart' is missing or not a non-negative integer");
        }
        return value;
    }

    /** A group-config file's content. */
    record GroupConfigs(String groupId, Map<String, String> configs) {
    }

    /** {@code {"groupId", "configs": {name: value}}}, the names sorted. */
    static byte[] groupConfigs(String groupId, Map<String, String> configs) {
        return write(g -> {
            g.writeStringField("groupId", groupId);
            g.writeObjectFieldStart("configs");
            for (Map.Entry<String, String> e : new TreeMap<>(configs).entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        });
    }

    /** @throws IOException saying which field is missing or malformed */
    static GroupConfigs readGroupConfigs(byte[] bytes) throws IOException {
        Map<String, Object> node = read(bytes);
        String groupId = text(node, "groupId");
        if (groupId.isEmpty()) {
            throw new IOException("field 'groupId' is empty");
        }
        if (!(node.get("configs") instanceof Map<?, ?> configsNode)) {
            throw new IOException("field 'configs' is missing or not an object");
        }
        Map<String, String> configs = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : configsNode.entrySet()) {
            if (!(e.getValue() instanceof String value)) {
                throw new IOException("config '" + e.getKey() + "' is not a string");
            }
            configs.put((String) e.getKey(), value);
        }
        return new GroupConfigs(groupId, configs);
    }

    /** A group file's content. */
    record GroupOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) {
    }

    /**
     * {@code {"groupId", "offsets": [{"topic", "partition", "offset", "leaderEpoch", "metadata",
     * "commitTimestamp", "expireTimestamp"}]}}, sorted by topic and partition.
     */
    static byte[] groupOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) {
        List<Map.Entry<TopicPartitionRef, CommittedOffset>> sorted = new ArrayList<>(offsets.entrySet());
        sorted.sort(Map.Entry.comparingByKey(BY_TOPIC_AND_PARTITION));
        return write(g -> {
            g.writeStringField("groupId", groupId);
            g.writeArrayFieldStart("offsets");
            for (Map.Entry<TopicPartitionRef, CommittedOffset> e : sorted) {
                CommittedOffset offset = e.getValue();
                g.writeStartObject();
                g.writeStringField("topic", e.getKey().topic());
                g.writeNumberField("partition", e.getKey().partition());
                g.writeNumberField("offset", offset.offset());
                g.writeNumberField("leaderEpoch", offset.leaderEpoch());
                g.writeStringField("metadata", offset.metadata());
                g.writeNumberField("commitTimestamp", offset.commitTimestamp());
                g.writeNumberField("expireTimestamp", offset.expireTimestamp());
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** @throws IOException saying which field is missing or malformed */
    static GroupOffsets readGroupOffsets(byte[] bytes) throws IOException {
        Map<String, Object> node = read(bytes);
        String groupId = text(node, "groupId");
        if (!(node.get("offsets") instanceof List<?> array)) {
            throw new IOException("field 'offsets' is missing or not an array");
        }
        Map<TopicPartitionRef, CommittedOffset> offsets = new HashMap<>();
        for (Object o : array) {
            if (!(o instanceof Map<?, ?> entry)) {
                throw new IOException("an entry of 'offsets' is not an object");
            }
            try {
                offsets.put(new TopicPartitionRef(text(entry, "topic"), integer(entry, "partition")),
                        new CommittedOffset(longValue(entry, "offset"), integer(entry, "leaderEpoch"),
                                text(entry, "metadata"), longValue(entry, "commitTimestamp"),
                                longValue(entry, "expireTimestamp")));
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return new GroupOffsets(groupId, offsets);
    }

    /** Writes the fields of the root object. */
    interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    /** Pretty-printed as Jackson's default printer does it, with a trailing newline. */
    static byte[] write(Fields fields) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The root object; whatever follows it is not read (as the tree model did). */
    static Map<String, Object> read(byte[] bytes) throws IOException {
        try (JsonParser p = FACTORY.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            return object(p);
        }
    }

    /**
     * The object whose {@code START_OBJECT} is the current token, with values as {@link #value}
     * gives them. The parser limits the nesting depth, so the recursion is bounded.
     */
    private static Map<String, Object> object(JsonParser p) throws IOException {
        Map<String, Object> object = new LinkedHashMap<>();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            p.nextToken();
            object.put(name, value(p));
        }
        return object;
    }

    /**
     * The value at the current token: a String, a Long (or a BigInteger when too large), a Double,
     * a Boolean, null, a Map for an object or a List for an array.
     */
    private static Object value(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case START_OBJECT -> object(p);
            case START_ARRAY -> {
                List<Object> array = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(p));
                }
                yield array;
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? p.getBigIntegerValue() : (Object) p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_TRUE, VALUE_FALSE -> p.getBooleanValue();
            default -> null;
        };
    }

    static String text(Map<?, ?> node, String field) throws IOException {
        if (!(node.get(field) instanceof String value)) {
            throw new IOException("field '" + field + "' is missing or not a string");
        }
        return value;
    }

    static long longValue(Map<?, ?> node, String field) throws IOException {
        if (!(node.get(field) instanceof Long value)) {
            throw new IOException("field '" + field + "' is missing or not an integer");
        }
        return value;
    }

    static int integer(Map<?, ?> node, String field) throws IOException {
        long value = longValue(node, field);
        if (value != (int) value) {
            throw new IOException("field '" + field + "' is missing or not an integer");
        }
        return (int) value;
    }
}
