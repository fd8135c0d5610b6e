package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Requester;
import io.kaas.broker.topic.TopicException;
import io.kaas.coordinator.group.GroupConfigException;
import io.kaas.coordinator.group.GroupConfigs;
import io.kaas.wire.protocol.Errors;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What AlterConfigs and IncrementalAlterConfigs do on GROUP resources (type 32): ALTER_CONFIGS on the
 * group (else GROUP_AUTHORIZATION_FAILED, as KafkaApis), the incremental operations as Kafka's controller
 * applies them (no group config is a list: APPEND and SUBTRACT are INVALID_CONFIG), and the change
 * validated and stored by the coordinator's {@link GroupConfigs}.
 */
final class GroupConfigChanges {
    static final byte GROUP = 32;

    private static final Logger LOG = LoggerFactory.getLogger(GroupConfigChanges.class);

    private final GroupConfigs configs;

    GroupConfigChanges(GroupConfigs configs) {
        this.configs = configs;
    }

    /** GROUP_AUTHORIZATION_FAILED unless the request may alter the group's configs. */
    static void checkMayAlter(RequestContext context, String group) {
        if (!context.access().allowed(Operation.ALTER_CONFIGS, ResourceType.GROUP, group)) {
            throw new TopicException(Errors.GROUP_AUTHORIZATION_FAILED, "Group authorization failed.");
        }
    }

    /** The group's overrides now, to be edited by {@link #apply}. */
    Map<String, String> current(String group) {
        return new LinkedHashMap<>(configs.overrides(group));
    }

    /** Applies one incremental operation to {@code overrides}. */
    static void apply(Map<String, String> overrides, String name, byte op, String value) {
        switch (op) {
            case TopicConfigChanges.SET -> {
                if (value == null) {
                    throw new TopicException(Errors.INVALID_REQUEST, "Null value not supported for : " + name);
                }
                overrides.put(name, value);
            }
            case TopicConfigChanges.DELETE -> overrides.remove(name);
            case TopicConfigChanges.APPEND, TopicConfigChanges.SUBTRACT -> throw new TopicException(Errors.INVALID_CONFIG,
                    "Can't " + (op == TopicConfigChanges.APPEND ? "APPEND" : "SUBTRACT") + " to key " + name
                            + " because its type is not LIST.");
            default -> throw new TopicException(Errors.INVALID_REQUEST, "Unknown alter config operation " + op);
        }
    }

    /**
     * Validates the whole new set of overrides and, unless {@code validateOnly}, stores it, logging who changed which
     * keys (old -> new; group configs hold no secret).
     */
    void replace(String group, Map<String, String> overrides, boolean validateOnly, Requester by) {
        Map<String, String> before = Map.copyOf(configs.overrides(group));
        try {
            configs.alter(group, overrides, validateOnly);
        } catch (GroupConfigException e) {
            throw new TopicException(e.errorCode(), e.getMessage());
        }
        if (!validateOnly) {
            Map<String, String> changed = ConfigChangeLines.changes(before, overrides, key -> true);
            if (!changed.isEmpty()) {
                LOG.atInfo().addKeyValue("group", group).addKeyValue("changes", changed)
                        .addKeyValue("principal", by.principal()).addKeyValue("client", by.client())
                        .log("Configs of group {} changed by {}: {}", group, by, changed);
            }
        }
    }
}
