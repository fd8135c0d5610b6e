package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.broker.config.ConfigType;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicConfigDef;
import io.kaas.broker.topic.TopicConfigs;
import io.kaas.broker.topic.TopicException;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What AlterConfigs and IncrementalAlterConfigs share: resource checks and list-valued edits. */
final class TopicConfigChanges {
    static final byte TOPIC = 2;
    static final byte BROKER = 4;
    static final byte BROKER_LOGGER = 8;

    static final byte SET = 0;
    static final byte DELETE = 1;
    static final byte APPEND = 2;
    static final byte SUBTRACT = 3;

    private TopicConfigChanges() {
    }

    /**
     * Throws TopicException with TOPIC_AUTHORIZATION_FAILED (a topic) or CLUSTER_AUTHORIZATION_FAILED (the
     * broker) unless the request may ALTER_CONFIGS on the resource, as Kafka checks before anything else.
     */
    static void checkMayAlter(RequestContext context, byte resourceType, String name) {
        if (resourceType == TOPIC && !context.access().allowedOnTopic(Operation.ALTER_CONFIGS, name)) {
            throw new TopicException(Errors.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed.");
        }
        if ((resourceType == BROKER || resourceType == BROKER_LOGGER)
                && !context.access().allowedOnCluster(Operation.ALTER_CONFIGS)) {
            throw new TopicException(Errors.CLUSTER_AUTHORIZATION_FAILED, "Cluster authorization failed.");
        }
    }

    /** The topic a TOPIC resource names, or TopicException for other resource types or unknown topics. */
    static Topic topicResource(TopicManager topics, byte resourceType, String name) {
        if (resourceType == BROKER || resourceType == BROKER_LOGGER) {
            throw new TopicException(Errors.INVALID_REQUEST,
                    "Altering broker configs is not supported yet; set them in server.properties and restart.");
        }
        if (resourceType != TOPIC) {
            throw new TopicException(Errors.INVALID_REQUEST, "Unsupported resource type " + resourceType);
        }
        return topics.topic(name).orElseThrow(() -> new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                "Topic '" + name + "' does not exist."));
    }

    /** Applies one incremental operation to {@code overrides}. */
    static void apply(Map<String, String> overrides, String name, byte op, String value) {
        TopicConfigDef def = TopicConfigs.get(name);
        switch (op) {
            case SET -> {
                if (value == null) {
                    throw new TopicException(Errors.INVALID_REQUEST, "Null value not supported for : " + name);
                }
                overrides.put(name, value);
            }
            case DELETE -> overrides.remove(name);
            case APPEND, SUBTRACT -> {
                if (def == null) {
                    throw new TopicException(Errors.INVALID_CONFIG, "Unknown topic config name: " + name);
                }
                if (def.type() != ConfigType.LIST) {
                    throw new TopicException(Errors.INVALID_CONFIG, "Config value " + (op == APPEND ? "append" : "subtract")
                            + " is not allowed for config key: " + name);
                }
                String current = overrides.getOrDefault(name, def.kafkaDefault());
                List<String> list = split(current);
                for (String v : split(value)) {
                    if (op == APPEND && !list.contains(v)) {
                        list.add(v);
                    } else if (op == SUBTRACT) {
                        list.remove(v);
                    }
                }
                overrides.put(name, String.join(",", list));
            }
            default -> throw new TopicException(Errors.INVALID_REQUEST, "Unknown alter config operation " + op);
        }
    }

    private static List<String> split(String value) {
        List<String> out = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return out;
        }
        Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
        return out;
    }

    static Map<String, String> copy(Map<String, String> configs) {
        return new LinkedHashMap<>(configs);
    }
}
