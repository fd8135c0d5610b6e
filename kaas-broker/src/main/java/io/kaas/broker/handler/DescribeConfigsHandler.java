package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.coordinator.group.GroupConfigException;
import io.kaas.coordinator.group.GroupConfigs;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigEntry;
import io.kaas.broker.config.DynamicBrokerConfigs;
import io.kaas.broker.config.ConfigType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.ConfigSource;
import io.kaas.broker.topic.DescribedConfig;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicConfigDef;
import io.kaas.broker.topic.TopicConfigResolver;
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
import java.util.OptionalInt;
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
            Map<String, List<DescribeConfigsSynonym>> brokerSynonyms = new java.util.HashMap<>();
            DescribeConfigsResult result = new DescribeConfigsResult().setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName()).setErrorCode(Errors.NONE).setErrorMessage(null);
            List<DescribedConfig> configs = switch (resource.resourceType()) {
                case TOPIC -> context.access().allowedOnTopic(Operation.DESCRIBE_CONFIGS, resource.resourceName())
                        ? topicConfigs(resource.resourceName(), docs, result)
                        : denied(result, Errors.TOPIC_AUTHORIZATION_FAILED);
                case BROKER -> context.access().allowedOnCluster(Operation.DESCRIBE_CONFIGS)
                        ? brokerConfigs(resource.resourceName(), docs, result, brokerSynonyms)
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
                    DescribeConfigsResourceResult r = entry(c, request.includeSynonyms(), resource.resourceType());
                    if (request.includeSynonyms() && brokerSynonyms.containsKey(c.name())) {
                        r.setSynonyms(brokerSynonyms.get(c.name()));
                    }
                    entries.add(r);
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

    private List<DescribedConfig> brokerConfigs(String name, boolean docs, DescribeConfigsResult result,
                                                Map<String, List<DescribeConfigsSynonym>> synonyms) {
        Map<String, String> clusterDefault = ctx.clusterStore().brokerConfigs(OptionalInt.empty());
        Map<String, ConfigEntry> known = new java.util.HashMap<>();
        for (ConfigEntry e : ctx.config().entries()) {
            known.put(e.name(), e);
        }
        if (name == null || name.isEmpty()) {
            // the cluster default (kafka-configs --entity-default): only what was set dynamically
            List<DescribedConfig> out = new ArrayList<>();
            for (Map.Entry<String, String> d : new java.util.TreeMap<>(clusterDefault).entrySet()) {
                ConfigEntry k = known.get(d.getKey());
                boolean sensitive = k != null && k.sensitive();
                out.add(new DescribedConfig(d.getKey(), sensitive ? null : d.getValue(),
                        ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, k == null ? ConfigType.STRING : ConfigType.parse(k.type()),
                        false, sensitive, docs && k != null ? k.documentation() : null));
                synonyms.put(d.getKey(), List.of(synonym(d.getKey(), sensitive ? null : d.getValue(),
                        ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)));
            }
            return out;
        }
        if (!name.equals(Integer.toString(ctx.nodeId()))) {
            result.setErrorCode(Errors.INVALID_REQUEST).setErrorMessage(
                    "Unexpected broker id, expected " + ctx.nodeId() + " or empty string, but received " + name);
            return List.of();
        }
        Map<String, String> own = ctx.clusterStore().brokerConfigs(OptionalInt.of(ctx.nodeId()));
        BrokerConfig effective = ctx.config().withDynamic(DynamicBrokerConfigs.merged(clusterDefault, own));
        Map<String, String> defaults = new java.util.HashMap<>();
        for (ConfigEntry d : BrokerConfig.defaults().entries()) {
            if (d.value() != null) {
                defaults.put(d.name(), d.value());
            }
        }
        List<DescribedConfig> out = new ArrayList<>();
        for (ConfigEntry e : effective.entries()) {
            ConfigSource source = TopicConfigResolver.source(ctx.config(), clusterDefault, own, e.name());
            String value = e.sensitive() ? null : e.value();
            out.add(new DescribedConfig(e.name(), value, source, ConfigType.parse(e.type()),
                    !DynamicBrokerConfigs.DYNAMIC.contains(e.name()), e.sensitive(), docs ? e.documentation() : null));
            List<DescribeConfigsSynonym> list = new ArrayList<>();
            for (String s : DynamicBrokerConfigs.synonyms(e.name())) {
                if (own.containsKey(s)) {
                    list.add(synonym(s, e.sensitive() ? null : own.get(s), ConfigSource.DYNAMIC_BROKER_CONFIG));
                }
                if (clusterDefault.containsKey(s)) {
                    list.add(synonym(s, e.sensitive() ? null : clusterDefault.get(s),
                            ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));
                }
                if (ctx.config().isExplicit(s)) {
                    list.add(synonym(s, e.sensitive() ? null : ctx.config().originalValue(s),
                            ConfigSource.STATIC_BROKER_CONFIG));
                }
                String kafkaDefault = defaults.get(s);
                if (kafkaDefault != null && !e.sensitive()) {
                    list.add(synonym(s, kafkaDefault, ConfigSource.DEFAULT_CONFIG));
                }
            }
            synonyms.put(e.name(), list);
        }
        // the listeners' dynamic TLS keys (listener.name.<l>.ssl.keystore.location...), as Kafka lists them
        for (Map.Entry<String, String> d : new java.util.TreeMap<>(own).entrySet()) {
            if (DynamicBrokerConfigs.isListenerTlsKey(d.getKey())) {
                boolean sensitive = DynamicBrokerConfigs.isSensitive(d.getKey());
                String value = sensitive ? null : d.getValue();
                out.add(new DescribedConfig(d.getKey(), value, ConfigSource.DYNAMIC_BROKER_CONFIG,
                        sensitive ? ConfigType.PASSWORD : ConfigType.STRING, false, sensitive, null));
                synonyms.put(d.getKey(), List.of(synonym(d.getKey(), value, ConfigSource.DYNAMIC_BROKER_CONFIG)));
            }
        }
        out.sort(java.util.Comparator.comparing(DescribedConfig::name, KafkaBrokerConfigOrder.BY_NAME));
        return out;
    }

    private static DescribeConfigsSynonym synonym(String name, String value, ConfigSource source) {
        return new DescribeConfigsSynonym().setName(name).setValue(value).setSource(source.code());
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
