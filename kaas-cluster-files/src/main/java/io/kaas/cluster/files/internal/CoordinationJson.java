package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The JSON form of the coordination files ({@link FileCoordination}):
 * <pre>
 * epochs.json          {"brokerEpoch": 7, "controllerEpoch": 7}
 * assignments.json     {"assignments": [{"topicId", "topic", "version", "partitions": [[leader, leaderEpoch,
 *                       leaderBrokerEpoch], …]}, …]}
 * reassignments.json   {"requests": [{"topic", "partition", "target"}, …]}
 * </pre>
 * A partition is an array of three numbers, not an object: the file holds every partition of the cluster.
 */
final class CoordinationJson {
    private CoordinationJson() {
    }

    /** The last broker epoch and controller epoch handed out. */
    record Epochs(long brokerEpoch, long controllerEpoch) {
        static final Epochs NONE = new Epochs(0, 0);
    }

    static byte[] epochs(Epochs epochs) {
        return StateJson.write(g -> {
            g.writeNumberField("brokerEpoch", epochs.brokerEpoch());
            g.writeNumberField("controllerEpoch", epochs.controllerEpoch());
        });
    }

    static Epochs readEpochs(byte[] bytes) throws IOException {
        Map<String, Object> node = StateJson.read(bytes);
        return new Epochs(nonNegative(node, "brokerEpoch"), nonNegative(node, "controllerEpoch"));
    }

    static byte[] assignments(Map<UUID, TopicAssignment> assignments) {
        List<TopicAssignment> sorted = new ArrayList<>(assignments.values());
        sorted.sort(Comparator.comparing(TopicAssignment::topic));
        return StateJson.write(g -> {
            g.writeArrayFieldStart("assignments");
            for (TopicAssignment a : sorted) {
                g.writeStartObject();
                g.writeStringField("topicId", KafkaUuids.toText(a.topicId()));
                g.writeStringField("topic", a.topic());
                g.writeNumberField("version", a.version());
                g.writeArrayFieldStart("partitions");
                for (PartitionLeader p : a.partitions()) {
                    g.writeArray(new long[] {p.leader(), p.leaderEpoch(), p.leaderBrokerEpoch()}, 0, 3);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** @throws IOException saying which entry or field is missing or malformed */
    static Map<UUID, TopicAssignment> readAssignments(byte[] bytes) throws IOException {
        if (!(StateJson.read(bytes).get("assignments") instanceof List<?> array)) {
            throw new IOException("field 'assignments' is missing or not an array");
        }
        Map<UUID, TopicAssignment> assignments = new LinkedHashMap<>();
        for (Object o : array) {
            if (!(o instanceof Map<?, ?> entry)) {
                throw new IOException("an entry of 'assignments' is not an object");
            }
            String topic = StateJson.text(entry, "topic");
            try {
                UUID id = KafkaUuids.fromText(StateJson.text(entry, "topicId"));
                long version = nonNegative(entry, "version");
                if (!(entry.get("partitions") instanceof List<?> partitions)) {
                    throw new IOException("field 'partitions' is missing or not an array");
                }
                List<PartitionLeader> leaders = new ArrayList<>(partitions.size());
                for (Object p : partitions) {
                    leaders.add(leader(p, leaders.size()));
                }
                if (assignments.put(id, new TopicAssignment(id, topic, leaders, version)) != null) {
                    throw new IOException("topic id " + KafkaUuids.toText(id) + " is listed twice");
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new IOException("the assignment of topic '" + topic + "': " + e.getMessage(), e);
            }
        }
        return assignments;
    }

    static byte[] reassignments(Map<TopicPartitionRef, Integer> requests) {
        List<Map.Entry<TopicPartitionRef, Integer>> sorted = new ArrayList<>(requests.entrySet());
        sorted.sort(Map.Entry.comparingByKey(Comparator.comparing(TopicPartitionRef::topic)
                .thenComparingInt(TopicPartitionRef::partition)));
        return StateJson.write(g -> {
            g.writeArrayFieldStart("requests");
            for (Map.Entry<TopicPartitionRef, Integer> e : sorted) {
                g.writeStartObject();
                g.writeStringField("topic", e.getKey().topic());
                g.writeNumberField("partition", e.getKey().partition());
                g.writeNumberField("target", e.getValue());
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** @throws IOException saying which entry or field is missing or malformed */
    static Map<TopicPartitionRef, Integer> readReassignments(byte[] bytes) throws IOException {
        if (!(StateJson.read(bytes).get("requests") instanceof List<?> array)) {
            throw new IOException("field 'requests' is missing or not an array");
        }
        Map<TopicPartitionRef, Integer> requests = new HashMap<>();
        for (Object o : array) {
            if (!(o instanceof Map<?, ?> entry)) {
                throw new IOException("an entry of 'requests' is not an object");
            }
            int target = StateJson.integer(entry, "target");
            if (target < 0) {
                throw new IOException("a request's 'target' is not a node id: " + target);
            }
            try {
                requests.put(new TopicPartitionRef(StateJson.text(entry, "topic"), StateJson.integer(entry, "partition")),
                        target);
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return requests;
    }

    private static PartitionLeader leader(Object value, int index) throws IOException {
        if (!(value instanceof List<?> fields) || fields.size() != 3
                || !(fields.get(0) instanceof Long leader) || !(fields.get(1) instanceof Long epoch)
                || !(fields.get(2) instanceof Long brokerEpoch)) {
            throw new IOException("partition " + index + " is not [leader, leaderEpoch, leaderBrokerEpoch]");
        }
        if (leader != (int) (long) leader || epoch != (int) (long) epoch) {
            throw new IOException("partition " + index + " has a leader or epoch out of range");
        }
        try {
            return new PartitionLeader((int) (long) leader, (int) (long) epoch, brokerEpoch);
        } catch (IllegalArgumentException e) {
            throw new IOException("partition " + index + ": " + e.getMessage(), e);
        }
    }

    private static long nonNegative(Map<?, ?> node, String field) throws IOException {
        long value = StateJson.longValue(node, field);
        if (value < 0) {
            throw new IOException("field '" + field + "' is negative: " + value);
        }
        return value;
    }
}
