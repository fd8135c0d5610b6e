package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.coordinator.group.GroupConfigException;
import io.kaas.coordinator.group.GroupConfigs;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.config.ConfigEntry;
import io.kaas.broker.config.ConfigType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.ConfigSource;
import io.kaas.broker.topic.DescribedConfig;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicConfigDef;
import io.kaas.broker.topic.TopicConfigs;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.wire.message.DescribeConfigsRequestData;
import io.kaas.wire.message.DescribeConfigsRequestData.DescribeConfigsResource;
import io.kaas.wire.message.DescribeConfigsResponseData;
import io.kaas.wire.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import io.kaas.wire.message.DescribeConfigsResponseData.DescribeConfigsResult;
import io.kaas.wire.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeConfigs v1-4 for TOPIC, BROKER and GROUP resources. A group is described whether or not it
 * exists, as Kafka does: every group config, its own value (DYNAMIC_GROUP_CONFIG) or the default
 * (DEFAULT_CONFIG, from the broker's {@code group.consumer.*} keys where Kafka takes it from them).
 */
public final class DescribeConfigsHandler implements ApiHandler<DescribeConfigsRequestData, DescribeConfigsResponseData> {
    static final byte TOPIC = 2;
    static final byte BROKER = 4;
    static final byte GROUP = 32;

    private final BrokerContext ctx;
    private final TopicManager topics;
    private final GroupConfigs groupConfigs;

    public DescribeConfigsHandler(BrokerContext ctx, TopicManager topics, GroupConfigs groupConfigs) {
        this.ctx = ctx;
        this.topics = topics;
        this.groupConfigs = groupConfigs;
    }

    @Override
    public CompletableFuture<DescribeConfigsResponseData> handle(RequestContext context, DescribeConfigsRequestData request) {
        boolean docs = context.apiVersion() >= 3 && request.includeDocumentation();
        List<DescribeConfigsResult> results = new ArrayList<>();
        for (DescribeConfigsResource resource : request.resources()) {
            DescribeConfigsResult result = new DescribeConfigsResult().setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName()).setErrorCode(Errors.NONE).setErrorMessage(null);
            List<DescribedConfig> configs = switch (resource.resourceType()) {
                case TOPIC -> context.access().allowedOnTopic(Operation.DESCRIBE_CONFIGS, resource.resourceName())
                        ? topicConfigs(resource.resourceName(), docs, result)
                        : denied(result, Errors.TOPIC_AUTHORIZATION_FAILED);
                case BROKER -> context.access().allowedOnCluster(Operation.DESCRIBE_CONFIGS)
                        ? brokerConfigs(resource.resourceName(), docs, result)
                        : denied(result, Errors.CLUSTER_AUTHORIZATION_FAILED);
                case GROUP -> context.access().allowed(Operation.DESCRIBE_CONFIGS, ResourceType.GROUP, resource.resourceName())
                        ? groupConfigs(resource.resourceName(), docs, result)
                        : denied(result, Errors.GROUP_AUTHORIZATION_FAILED);
                default -> {
                    result.setErrorCode(Errors.INVALID_REQUEST)
                            .setErrorMessage("Unsupported resource type " + resource.resourceType());
                    yield List.of();
                }
            };
            List<DescribeConfigsResourceResult> entries = new ArrayList<>();
            for (DescribedConfig c : configs) {
                if (resource.configurationKeys() == null || resource.configurationKeys().contains(c.name())) {
                    entries.add(entry(c, request.includeSynonyms(), resource.resourceType()));
                }
            }
            results.add(result.setConfigs(entries));
        }
        return CompletableFuture.completedFuture(new DescribeConfigsResponseData().setThrottleTimeMs(0).setResults(results));
    }

    private static List<DescribedConfig> denied(DescribeConfigsResult result, short code) {
        result.setErrorCode(code).setErrorMessage(null);
        return List.of();
    }

    private List<DescribedConfig> topicConfigs(String name, boolean docs, DescribeConfigsResult result) {
        String invalid = TopicNames.invalidReason(name);
        if (invalid != null) {
            result.setErrorCode(Errors.INVALID_TOPIC_EXCEPTION).setErrorMessage(invalid);
            return List.of();
        }
        Optional<Topic> topic = topics.topic(name);
        if (topic.isEmpty()) {
            result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION)
                    .setErrorMessage("Topic '" + name + "' does not exist.");
            return List.of();
        }
        return topics.configs().describeAll(topic.get().record().configs(), docs);
    }

    private List<DescribedConfig> groupConfigs(String name, boolean docs, DescribeConfigsResult result) {
        try {
            List<DescribedConfig> out = new ArrayList<>();
            for (GroupConfigs.Value v : groupConfigs.describe(name)) {
                out.add(new DescribedConfig(v.def().name(), v.value(),
                        v.override() ? ConfigSource.DYNAMIC_GROUP_CONFIG : ConfigSource.DEFAULT_CONFIG,
                        ConfigType.parse(v.def().type()), false, false, docs ? v.def().documentation() : null));
            }
            return out;
        } catch (GroupConfigException e) {
            result.setErrorCode(e.errorCode()).setErrorMessage(e.getMessage());
            return List.of();
        }
    }

    private List<DescribedConfig> brokerConfigs(String name, boolean docs, DescribeConfigsResult result) {
        if (name == null || name.isEmpty()) {
            return List.of(); // the cluster-wide dynamic defaults: kaas has none
        }
        if (!name.equals(Integer.toString(ctx.nodeId()))) {
            result.setErrorCode(Errors.INVALID_REQUEST).setErrorMessage(
                    "Unexpected broker id, expected " + ctx.nodeId() + " or empty string, but received " + name);
            return List.of();
        }
        List<DescribedConfig> out = new ArrayList<>();
        for (ConfigEntry e : ctx.config().entries()) {
            ConfigSource source = e.isDefault() ? ConfigSource.DEFAULT_CONFIG : ConfigSource.STATIC_BROKER_CONFIG;
            out.add(new DescribedConfig(e.name(), e.sensitive() ? null : e.value(), source, ConfigType.parse(e.type()),
                    true, e.sensitive(), docs ? e.documentation() : null));
        }
        return out;
    }

    private DescribeConfigsResourceResult entry(DescribedConfig c, boolean synonyms, byte resourceType) {
        DescribeConfigsResourceResult r = new DescribeConfigsResourceResult().setName(c.name()).setValue(c.value())
                .setReadOnly(c.readOnly()).setConfigSource(c.source().code()).setIsSensitive(c.sensitive())
                .setConfigType(c.type().code()).setDocumentation(c.documentation());
        List<DescribeConfigsSynonym> list = new ArrayList<>();
        if (synonyms) {
            TopicConfigDef def = resourceType == TOPIC ? TopicConfigs.get(c.name()) : null;
            boolean fromBroker = def != null && def.brokerSynonym() != null && c.source() != ConfigSource.DYNAMIC_TOPIC_CONFIG;
            list.add(new DescribeConfigsSynonym().setName(fromBroker ? def.brokerSynonym() : c.name()).setValue(c.value())
                    .setSource(c.source().code()));
            if (def != null && c.source() == ConfigSource.DYNAMIC_TOPIC_CONFIG) {
                DescribedConfig inherited = topics.configs().describe(def, Map.of(), false);
                String synonymName = def.brokerSynonym() != null ? def.brokerSynonym() : c.name();
                list.add(new DescribeConfigsSynonym().setName(synonymName).setValue(inherited.value())
                        .setSource(inherited.source().code()));
            }
        }
        return r.setSynonyms(list);
    }
}
