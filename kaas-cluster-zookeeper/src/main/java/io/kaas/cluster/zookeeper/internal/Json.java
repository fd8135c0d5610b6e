package io.kaas.cluster.zookeeper.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The JSON of every node the store writes. Each object carries {@code "version": 1}; a reader refuses what it cannot
 * read with {@link IllegalArgumentException} naming the problem (the caller names the node).
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Base64.Encoder B64 = Base64.getEncoder();
    private static final Base64.Decoder B64D = Base64.getDecoder();
    private static final Base64.Encoder UUID_ENCODER = Base64.getUrlEncoder().withoutPadding();

    private Json() {
    }

    static String uuidText(UUID id) {
        ByteBuffer buf = ByteBuffer.allocate(16);
        buf.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return UUID_ENCODER.encodeToString(buf.array());
    }

    static UUID uuid(String text) {
        byte[] bytes = Base64.getUrlDecoder().decode(text);
        if (bytes.length != 16) {
            throw new IllegalArgumentException("not a topic id: '" + text + "'");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        return new UUID(buf.getLong(), buf.getLong());
    }

    private static ObjectNode object() {
        return MAPPER.createObjectNode().put("version", 1);
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(byte[] data) {
        if (data == null || data.length == 0) {
            throw new IllegalArgumentException("the node is empty");
        }
        try {
            JsonNode node = MAPPER.readTree(data);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }

    private static JsonNode field(JsonNode node, String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("no '" + name + "'");
        }
        return v;
    }

    private static String text(JsonNode node, String name) {
        JsonNode v = field(node, name);
        if (!v.isTextual()) {
            throw new IllegalArgumentException("'" + name + "' is not a string");
        }
        return v.asText();
    }

    private static long number(JsonNode node, String name) {
        JsonNode v = field(node, name);
        if (!v.isIntegralNumber()) {
            throw new IllegalArgumentException("'" + name + "' is not an integer");
        }
        return v.asLong();
    }

    private static int integer(JsonNode node, String name) {
        long v = number(node, name);
        if (v != (int) v) {
            throw new IllegalArgumentException("'" + name + "' is out of range");
        }
        return (int) v;
    }

    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new TreeMap<>();
        if (!node.isObject()) {
            throw new IllegalArgumentException("not an object of strings");
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException("'" + e.getKey() + "' is not a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static ObjectNode strings(Map<String, String> values) {
        ObjectNode node = MAPPER.createObjectNode();
        new TreeMap<>(values).forEach(node::put);
        return node;
    }

    // ---- cluster id (Kafka's /cluster/id) ----

    static byte[] clusterId(String id) {
        return bytes(MAPPER.createObjectNode().put("version", "1").put("id", id));
    }

    static String clusterId(byte[] data) {
        return text(read(data), "id");
    }

    // ---- topics ----

    static byte[] topic(TopicRecord t) {
        ObjectNode node = object().put("id", uuidText(t.topicId())).put("partitions", t.partitions());
        node.set("configs", strings(t.configs()));
        return bytes(node);
    }

    static TopicRecord topic(String name, byte[] data) {
        JsonNode node = read(data);
        return new TopicRecord(name, uuid(text(node, "id")), integer(node, "partitions"), strings(field(node, "configs")));
    }

    // ---- assignments ----

    static byte[] assignment(TopicAssignment a) {
        ObjectNode node = object().put("topic", a.topic());
        ArrayNode partitions = node.putArray("partitions");
        for (PartitionLeader l : a.partitions()) {
            partitions.addObject().put("leader", l.leader()).put("leader_epoch", l.leaderEpoch())
                    .put("leader_broker_epoch", l.leaderBrokerEpoch());
        }
        return bytes(node);
    }

    static TopicAssignment assignment(String idText, byte[] data, int version) {
        JsonNode node = read(data);
        List<PartitionLeader> leaders = new ArrayList<>();
        for (JsonNode p : field(node, "partitions")) {
            leaders.add(new PartitionLeader(integer(p, "leader"), integer(p, "leader_epoch"), number(p, "leader_broker_epoch")));
        }
        return new TopicAssignment(uuid(idText), text(node, "topic"), leaders, version);
    }

    // ---- brokers ----

    static byte[] registration(BrokerRegistration r) {
        ObjectNode node = object().put("node_id", r.nodeId()).put("host", r.host()).put("pid", r.pid());
        r.rack().ifPresentOrElse(rack -> node.put("rack", rack), () -> node.putNull("rack"));
        // Left out when unknown: a registration without them reads back the same, as an older broker's does.
        r.version().ifPresent(v -> node.put("software_version", v));
        r.startedMs().ifPresent(t -> node.put("started_ms", t));
        ArrayNode endpoints = node.putArray("endpoints");
        for (RegisteredEndpoint e : r.endpoints()) {
            endpoints.addObject().put("listener", e.listener()).put("security_protocol", e.securityProtocol())
                    .put("host", e.host()).put("port", e.port());
        }
        return bytes(node);
    }

    static BrokerRegistration registration(byte[] data) {
        JsonNode node = read(data);
        List<RegisteredEndpoint> endpoints = new ArrayList<>();
        for (JsonNode e : field(node, "endpoints")) {
            endpoints.add(new RegisteredEndpoint(text(e, "listener"), text(e, "security_protocol"), text(e, "host"),
                    integer(e, "port")));
        }
        JsonNode rack = node.get("rack");
        // software_version and started_ms are absent in registrations of brokers that did not record them: unknown.
        JsonNode version = node.get("software_version");
        JsonNode started = node.get("started_ms");
        return new BrokerRegistration(integer(node, "node_id"), endpoints,
                rack == null || rack.isNull() ? Optional.empty() : Optional.of(rack.asText()), text(node, "host"),
                number(node, "pid"), version == null || !version.isTextual() ? Optional.empty()
                        : Optional.of(version.asText()),
                started == null || !started.isIntegralNumber() ? OptionalLong.empty()
                        : OptionalLong.of(started.asLong()));
    }

    // ---- controller ----

    static byte[] controller(ControllerTerm term) {
        return bytes(object().put("brokerid", term.controllerId()).put("epoch", term.controllerEpoch())
                .put("timestamp", Long.toString(System.currentTimeMillis())));
    }

    static ControllerTerm controller(byte[] data) {
        JsonNode node = read(data);
        return new ControllerTerm(integer(node, "brokerid"), number(node, "epoch"));
    }

    static byte[] controllerEpoch(long epoch) {
        return bytes(object().put("epoch", epoch));
    }

    static long controllerEpoch(byte[] data) {
        return number(read(data), "epoch");
    }

    // ---- partition moves (Kafka's /admin/reassign_partitions shape) ----

    static byte[] reassignments(Map<TopicPartitionRef, Integer> targets) {
        ObjectNode node = object();
        ArrayNode partitions = node.putArray("partitions");
        targets.entrySet().stream().sorted(Map.Entry.comparingByKey(
                        java.util.Comparator.comparing(TopicPartitionRef::topic).thenComparingInt(TopicPartitionRef::partition)))
                .forEach(e -> {
                    ObjectNode p = partitions.addObject().put("topic", e.getKey().topic()).put("partition", e.getKey().partition());
                    p.putArray("replicas").add(e.getValue());
                });
        return bytes(node);
    }

    static Map<TopicPartitionRef, Integer> reassignments(byte[] data) {
        Map<TopicPartitionRef, Integer> out = new java.util.HashMap<>();
        for (JsonNode p : field(read(data), "partitions")) {
            JsonNode replicas = field(p, "replicas");
            if (!replicas.isArray() || replicas.size() != 1 || !replicas.get(0).isIntegralNumber()) {
                throw new IllegalArgumentException("'replicas' is not one broker id");
            }
            out.put(new TopicPartitionRef(text(p, "topic"), integer(p, "partition")), replicas.get(0).asInt());
        }
        return out;
    }

    // ---- producer ids (Kafka's /latest_producer_id_block shape) ----

    static byte[] producerIdBlock(int brokerId, long start, long end) {
        return bytes(object().put("broker", brokerId).put("block_start", start).put("block_end", end));
    }

    static long producerIdBlockEnd(byte[] data) {
        return number(read(data), "block_end");
    }

    // ---- group configs ----

    static byte[] configs(Map<String, String> configs) {
        ObjectNode node = object();
        node.set("config", strings(configs));
        return bytes(node);
    }

    static Map<String, String> configs(byte[] data) {
        return strings(field(read(data), "config"));
    }

    // ---- client quotas and dynamic broker configs (Kafka's {"version":1,"config":{...}}) ----

    /** The {@code config} of a node, empty if the node is empty or has none. */
    static Map<String, String> configOrEmpty(byte[] data) {
        if (data == null || data.length == 0) {
            return Map.of();
        }
        JsonNode config = read(data).get("config");
        return config == null || config.isNull() ? Map.of() : strings(config);
    }

    /** {@code current} (or a new node) with {@code config} as its {@code config}, every other field kept. */
    static byte[] withConfig(byte[] current, Map<String, String> config) {
        ObjectNode node = current == null || current.length == 0 ? object() : ((ObjectNode) read(current)).deepCopy();
        node.set("config", strings(config));
        return bytes(node);
    }

    /** Whether the node holds SCRAM credentials (a user node shared by credentials and quotas). */
    static boolean hasCredentials(byte[] data) {
        return hasField(data, "credentials") && read(data).get("credentials").size() > 0;
    }

    static boolean hasField(byte[] data, String name) {
        return data != null && data.length > 0 && read(data).has(name);
    }

    // ---- SCRAM credentials of one user ----

    static byte[] scram(Map<String, ScramCredentialRecord> byMechanism) {
        return scram(null, byMechanism);
    }

    /**
     * A user's node with {@code byMechanism} as its credentials, keeping the rest of {@code current} (the user's client
     * quotas in {@code config}); null (delete the node) when no credential is left and the node has no {@code config}.
     */
    static byte[] scramKeepingConfig(byte[] current, Map<String, ScramCredentialRecord> byMechanism) {
        if (byMechanism.isEmpty() && !hasField(current, "config")) {
            return null;
        }
        return scram(current, byMechanism);
    }

    private static byte[] scram(byte[] current, Map<String, ScramCredentialRecord> byMechanism) {
        ObjectNode node = current == null || current.length == 0 ? object() : ((ObjectNode) read(current)).deepCopy();
        node.remove("credentials");
        ObjectNode mechanisms = node.putObject("credentials");
        new TreeMap<>(byMechanism).forEach((mechanism, r) -> mechanisms.putObject(mechanism)
                .put("salt", B64.encodeToString(r.salt())).put("stored_key", B64.encodeToString(r.storedKey()))
                .put("server_key", B64.encodeToString(r.serverKey())).put("iterations", r.iterations()));
        return bytes(node);
    }

    /**
     * The credentials of {@code user}'s node, none if it has no {@code credentials} (a node made for the user's client
     * quotas only, see {@link #withConfig}).
     */
    static Map<String, ScramCredentialRecord> scram(String user, byte[] data) {
        Map<String, ScramCredentialRecord> out = new TreeMap<>();
        if (data == null || data.length == 0) {
            return out;
        }
        JsonNode credentials = read(data).get("credentials");
        if (credentials == null) {
            return out;
        }
        for (Map.Entry<String, JsonNode> e : credentials.properties()) {
            JsonNode c = e.getValue();
            out.put(e.getKey(), new ScramCredentialRecord(new ScramCredentialRef(user, e.getKey()),
                    B64D.decode(text(c, "salt")), B64D.decode(text(c, "stored_key")), B64D.decode(text(c, "server_key")),
                    integer(c, "iterations")));
        }
        return out;
    }

    // ---- ACLs of one resource pattern ----

    /** The node name of a resource pattern's ACLs. */
    static String aclNodeName(ResourcePattern p) {
        return NodeNames.encode(p.type().name() + ":" + p.patternType().name() + ":" + p.name());
    }

    static byte[] acls(ResourcePattern pattern, List<AccessControlEntry> entries) {
        ObjectNode node = object();
        node.putObject("resource").put("type", pattern.type().name()).put("pattern_type", pattern.patternType().name())
                .put("name", pattern.name());
        ArrayNode acls = node.putArray("acls");
        for (AccessControlEntry e : entries) {
            acls.addObject().put("principal", e.principal().toString()).put("host", e.host())
                    .put("operation", e.operation().name()).put("permission_type", e.permission().name());
        }
        return bytes(node);
    }

    static List<AclBinding> acls(byte[] data) {
        JsonNode node = read(data);
        JsonNode r = field(node, "resource");
        ResourcePattern pattern = new ResourcePattern(ResourceType.valueOf(text(r, "type")), text(r, "name"),
                PatternType.valueOf(text(r, "pattern_type")));
        List<AclBinding> out = new ArrayList<>();
        for (JsonNode a : field(node, "acls")) {
            out.add(new AclBinding(pattern, new AccessControlEntry(KafkaPrincipal.parse(text(a, "principal")),
                    text(a, "host"), Operation.valueOf(text(a, "operation")),
                    AclPermissionType.valueOf(text(a, "permission_type")))));
        }
        return out;
    }
}
