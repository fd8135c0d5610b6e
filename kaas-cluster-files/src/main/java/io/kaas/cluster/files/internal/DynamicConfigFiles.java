package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClientQuotaEntity;
import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The client quotas and the dynamic broker configs, each in one file:
 * <pre>
 * client-quotas.json   {"quotas": [{"entity": {"user": "alice", "client-id": "&lt;default&gt;"},
 *                                   "values": {"producer_byte_rate": 1048576.0}}, …]}
 * broker-configs.json  {"default": {"log.retention.ms": "…"}, "brokers": {"1": {"message.max.bytes": "…"}}}
 * </pre>
 * Loaded at open; every change rewrites the whole file atomically ({@link AtomicFiles}), so a change is all or
 * nothing. A missing file is no state; a damaged file fails the open naming the file and what is wrong in it.
 */
final class DynamicConfigFiles {
    static final String QUOTAS_FILE = "client-quotas.json";
    static final String BROKER_CONFIGS_FILE = "broker-configs.json";

    private DynamicConfigFiles() {
    }

    static Map<ClientQuotaEntity, Map<String, Double>> loadQuotas(Path file) throws IOException {
        byte[] bytes = readIfPresent(file);
        if (bytes == null) {
            return Map.of();
        }
        try {
            Map<String, Object> root = StateJson.read(bytes);
            if (!(root.get("quotas") instanceof List<?> list)) {
                throw new IOException("field 'quotas' is missing or not an array");
            }
            Map<ClientQuotaEntity, Map<String, Double>> quotas = new LinkedHashMap<>();
            for (Object item : list) {
                if (!(item instanceof Map<?, ?> node)) {
                    throw new IOException("a quota is not an object");
                }
                ClientQuotaEntity entity = new ClientQuotaEntity(strings(node, "entity"));
                if (!(node.get("values") instanceof Map<?, ?> values)) {
                    throw new IOException("field 'values' is missing or not an object");
                }
                Map<String, Double> byKey = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : values.entrySet()) {
                    if (!(e.getValue() instanceof Number n)) {
                        throw new IOException("quota '" + e.getKey() + "' is not a number");
                    }
                    byKey.put((String) e.getKey(), n.doubleValue());
                }
                quotas.put(entity, Map.copyOf(byKey));
            }
            return quotas;
        } catch (IOException | RuntimeException e) {
            throw damaged(file, "client quotas", e);
        }
    }

    static void storeQuotas(Path file, Map<ClientQuotaEntity, Map<String, Double>> quotas) throws IOException {
        AtomicFiles.write(file, StateJson.write(g -> {
            g.writeArrayFieldStart("quotas");
            for (var q : quotas.entrySet()) {
                g.writeStartObject();
                g.writeObjectFieldStart("entity");
                for (var e : new TreeMap<>(q.getKey().entries()).entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
                g.writeObjectFieldStart("values");
                for (var e : new TreeMap<>(q.getValue()).entrySet()) {
                    g.writeNumberField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
        }));
    }

    /** Broker configs by broker id; the cluster default under {@link OptionalInt#empty()}. */
    static Map<OptionalInt, Map<String, String>> loadBrokerConfigs(Path file) throws IOException {
        byte[] bytes = readIfPresent(file);
        if (bytes == null) {
            return Map.of();
        }
        try {
            Map<String, Object> root = StateJson.read(bytes);
            Map<OptionalInt, Map<String, String>> configs = new LinkedHashMap<>();
            Map<String, String> defaults = strings(root, "default");
            if (!defaults.isEmpty()) {
                configs.put(OptionalInt.empty(), defaults);
            }
            if (!(root.get("brokers") instanceof Map<?, ?> brokers)) {
                throw new IOException("field 'brokers' is missing or not an object");
            }
            for (Object id : brokers.keySet()) {
                Map<String, String> one = strings(brokers, (String) id);
                if (!one.isEmpty()) {
                    configs.put(OptionalInt.of(Integer.parseInt((String) id)), one);
                }
            }
            return configs;
        } catch (IOException | RuntimeException e) {
            throw damaged(file, "dynamic broker configs", e);
        }
    }

    static void storeBrokerConfigs(Path file, Map<OptionalInt, Map<String, String>> configs) throws IOException {
        AtomicFiles.write(file, StateJson.write(g -> {
            g.writeObjectFieldStart("default");
            for (var e : new TreeMap<>(configs.getOrDefault(OptionalInt.empty(), Map.of())).entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeObjectFieldStart("brokers");
            TreeMap<Integer, Map<String, String>> brokers = new TreeMap<>();
            configs.forEach((id, c) -> id.ifPresent(i -> brokers.put(i, c)));
            for (var b : brokers.entrySet()) {
                g.writeObjectFieldStart(Integer.toString(b.getKey()));
                for (var e : new TreeMap<>(b.getValue()).entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        }));
    }

    private static Map<String, String> strings(Map<?, ?> node, String field) throws IOException {
        if (!(node.get(field) instanceof Map<?, ?> object)) {
            throw new IOException("field '" + field + "' is missing or not an object");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : object.entrySet()) {
            if (!(e.getValue() instanceof String value)) {
                throw new IOException("'" + field + "." + e.getKey() + "' is not a string");
            }
            out.put((String) e.getKey(), value);
        }
        return Map.copyOf(out);
    }

    private static byte[] readIfPresent(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static ClusterStateException damaged(Path file, String what, Exception e) {
        return new ClusterStateException("Cannot read the " + what + " from " + file + " (damaged; restore it from a "
                + "backup or remove it to start without them): " + e.getMessage(), e);
    }
}
