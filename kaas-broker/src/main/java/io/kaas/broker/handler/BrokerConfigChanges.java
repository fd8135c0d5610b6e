package io.kaas.broker.handler;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.broker.config.DynamicBrokerConfigs;
import io.kaas.broker.topic.Requester;
import io.kaas.broker.topic.TopicException;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What AlterConfigs and IncrementalAlterConfigs do on BROKER resources: the resource name "" is the cluster default
 * ({@code kafka-configs --entity-default}), a broker id that broker (any id: the broker it names applies it). The
 * configs are validated as Kafka's {@code DynamicBrokerConfig} does and stored in the cluster-state store, from where
 * every broker applies them.
 */
final class BrokerConfigChanges {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerConfigChanges.class);

    private final ClusterStateStore store;
    private final int nodeId;
    private final java.util.function.Function<Map<String, String>, String> listenerTls;
    private final java.util.function.BiFunction<Map<String, String>, Map<String, String>, String> reconfiguration;

    BrokerConfigChanges(ClusterStateStore store) {
        this(store, -1, configs -> null, (before, after) -> null);
    }

    /**
     * @param listenerTls why this broker's TLS listeners cannot take its own dynamic configs (Kafka's words), or null;
     *                    asked for changes of broker {@code nodeId} only
     * @param reconfiguration why broker {@code nodeId} cannot go from its effective dynamic configs (its own over the
     *                    cluster default) before the change to those after it, in Kafka's words, or null (Kafka's
     *                    thread-count rules); asked for changes of broker {@code nodeId} and of the cluster default
     */
    BrokerConfigChanges(ClusterStateStore store, int nodeId,
                        java.util.function.Function<Map<String, String>, String> listenerTls,
                        java.util.function.BiFunction<Map<String, String>, Map<String, String>, String> reconfiguration) {
        this.store = store;
        this.nodeId = nodeId;
        this.listenerTls = listenerTls;
        this.reconfiguration = reconfiguration;
    }

    /** The broker a BROKER resource names, or empty for the cluster default; INVALID_REQUEST as Kafka's controller. */
    static OptionalInt target(String name) {
        if (name == null || name.isEmpty()) {
            return OptionalInt.empty();
        }
        int id;
        try {
            id = Integer.parseInt(name);
        } catch (NumberFormatException e) {
            throw new TopicException(Errors.INVALID_REQUEST, "Unable to parse broker name as a base 10 number.");
        }
        if (id < 0) {
            throw new TopicException(Errors.INVALID_REQUEST, "Invalid negative broker ID.");
        }
        return OptionalInt.of(id);
    }

    Map<String, String> current(OptionalInt target) {
        return new LinkedHashMap<>(store.brokerConfigs(target));
    }

    /**
     * Validates {@code configs} (the whole dynamic set after the change) and stores it unless {@code validateOnly},
     * logging who changed which keys (old -> new, a secret's values hidden).
     */
    void replace(OptionalInt target, Map<String, String> configs, boolean validateOnly, Requester by) {
        String invalid = DynamicBrokerConfigs.invalidReason(configs, target.isPresent());
        if (invalid == null && target.isPresent() && target.getAsInt() == nodeId) {
            invalid = listenerTls.apply(configs);
        }
        if (invalid == null && (target.isEmpty() || target.getAsInt() == nodeId)) {
            Map<String, String> clusterDefault = store.brokerConfigs(OptionalInt.empty());
            Map<String, String> own = store.brokerConfigs(OptionalInt.of(nodeId));
            invalid = reconfiguration.apply(DynamicBrokerConfigs.merged(clusterDefault, own),
                    target.isEmpty() ? DynamicBrokerConfigs.merged(configs, own)
                            : DynamicBrokerConfigs.merged(clusterDefault, configs));
        }
        if (invalid != null) {
            throw new TopicException(Errors.INVALID_REQUEST, invalid);
        }
        if (!validateOnly) {
            Map<String, String> before = store.brokerConfigs(target);
            store.updateBrokerConfigs(target, configs);
            Map<String, String> changed = ConfigChangeLines.changes(before, configs, DynamicBrokerConfigs::valueShown);
            if (!changed.isEmpty()) {
                String entity = target.isPresent() ? "broker " + target.getAsInt() : "the cluster default";
                LOG.atInfo().addKeyValue("broker", target.isPresent() ? String.valueOf(target.getAsInt()) : "<default>")
                        .addKeyValue("changes", changed).addKeyValue("principal", by.principal())
                        .addKeyValue("client", by.client())
                        .log("Dynamic broker configs of {} changed by {}: {}", entity, by, changed);
            }
        }
    }

    /** One incremental operation on a broker's dynamic configs. */
    static void apply(Map<String, String> configs, String name, byte op, String value) {
        switch (op) {
            case TopicConfigChanges.SET -> {
                if (value == null) {
                    throw new TopicException(Errors.INVALID_REQUEST, "Null value not supported for : " + name);
                }
                configs.put(name, value);
            }
            case TopicConfigChanges.DELETE -> configs.remove(name);
            case TopicConfigChanges.APPEND, TopicConfigChanges.SUBTRACT -> {
                if (!name.equals("log.cleanup.policy")) { // the one LIST among the dynamic keys
                    throw new TopicException(Errors.INVALID_CONFIG, "Config value "
                            + (op == TopicConfigChanges.APPEND ? "append" : "subtract")
                            + " is not allowed for config key: " + name);
                }
                // as Kafka's controller: the resource's stored value, else the key's default (never an empty start)
                List<String> list = split(configs.containsKey(name) ? configs.get(name)
                        : DynamicBrokerConfigs.defaultValue(name));
                for (String v : split(value)) {
                    if (op == TopicConfigChanges.APPEND && !list.contains(v)) {
                        list.add(v);
                    } else if (op == TopicConfigChanges.SUBTRACT) {
                        list.remove(v);
                    }
                }
                configs.put(name, String.join(",", list));
            }
            default -> throw new TopicException(Errors.INVALID_REQUEST, "Unknown operations type " + op);
        }
    }

    private static List<String> split(String value) {
        List<String> out = new ArrayList<>();
        if (value != null) {
            Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
        }
        return out;
    }
}
