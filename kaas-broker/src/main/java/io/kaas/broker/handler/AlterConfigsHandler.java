package io.kaas.broker.handler;

import io.kaas.broker.request.ApiHandler;
import io.kaas.coordinator.group.GroupConfigs;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicException;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.AlterConfigsRequestData.AlterConfigsResource;
import io.kaas.wire.message.AlterConfigsRequestData.AlterableConfig;
import io.kaas.wire.message.AlterConfigsRequestData;
import io.kaas.wire.message.AlterConfigsResponseData.AlterConfigsResourceResponse;
import io.kaas.wire.message.AlterConfigsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** AlterConfigs v0-2 (legacy, whole-set replacement) on TOPIC and GROUP resources, as Kafka allows both. */
public final class AlterConfigsHandler implements ApiHandler<AlterConfigsRequestData, AlterConfigsResponseData> {
    private final TopicManager topics;
    private final GroupConfigChanges groups;
    private final BrokerConfigChanges brokers;

    public AlterConfigsHandler(TopicManager topics, GroupConfigs groupConfigs, io.kaas.api.cluster.ClusterStateStore store) {
        this(topics, groupConfigs, store, -1, configs -> null);
    }

    /**
     * @param listenerTls why this broker's ({@code nodeId}) TLS listeners cannot take its own dynamic configs, or
     *                    null: the per-broker {@code listener.name.<l>.ssl.*} changes are checked there first
     */
    public AlterConfigsHandler(TopicManager topics, GroupConfigs groupConfigs, io.kaas.api.cluster.ClusterStateStore store, int nodeId,
            java.util.function.Function<java.util.Map<String, String>, String> listenerTls) {
        this(topics, groupConfigs, store, nodeId, listenerTls, (before, after) -> null);
    }

    /**
     * @param reconfiguration why this broker ({@code nodeId}) cannot go from its effective dynamic configs before a
     *                        change to those after it (its own over the cluster default), or null: the thread counts
     */
    public AlterConfigsHandler(TopicManager topics, GroupConfigs groupConfigs, io.kaas.api.cluster.ClusterStateStore store,
            int nodeId, java.util.function.Function<java.util.Map<String, String>, String> listenerTls,
            java.util.function.BiFunction<java.util.Map<String, String>, java.util.Map<String, String>, String>
                reconfiguration) {
        this.topics = topics;
        this.groups = new GroupConfigChanges(groupConfigs);
        this.brokers = new BrokerConfigChanges(store, nodeId, listenerTls, reconfiguration);
    }

    @Override
    public CompletableFuture<AlterConfigsResponseData> handle(RequestContext context, AlterConfigsRequestData request) {
        List<AlterConfigsResourceResponse> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (AlterConfigsResource resource : request.resources()) {
            AlterConfigsResourceResponse r = new AlterConfigsResourceResponse().setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName());
            try {
                if (!seen.add(resource.resourceType() + "/" + resource.resourceName())) {
                    throw new TopicException(Errors.INVALID_REQUEST, "Duplicate resource in request.");
                }
                boolean group = resource.resourceType() == GroupConfigChanges.GROUP;
                if (group) {
                    GroupConfigChanges.checkMayAlter(context, resource.resourceName());
                } else {
                    TopicConfigChanges.checkMayAlter(context, resource.resourceType(), resource.resourceName());
                }
                boolean broker = resource.resourceType() == TopicConfigChanges.BROKER;
                java.util.OptionalInt target = broker ? BrokerConfigChanges.target(resource.resourceName()) : null;
                Topic topic = group || broker ? null
                        : TopicConfigChanges.topicResource(topics, resource.resourceType(), resource.resourceName());
                Map<String, String> overrides = new LinkedHashMap<>();
                for (AlterableConfig c : resource.configs()) {
                    if (c.value() == null) {
                        throw new TopicException(Errors.INVALID_REQUEST, "Null value not supported for : " + c.name());
                    }
                    if (overrides.put(c.name(), c.value()) != null) {
                        throw new TopicException(Errors.INVALID_REQUEST, "Error due to duplicate config keys");
                    }
                }
                if (broker) {
                    brokers.replace(target, overrides, request.validateOnly(), Requesters.of(context));
                } else if (group) {
                    groups.replace(resource.resourceName(), overrides, request.validateOnly(), Requesters.of(context));
                } else {
                    topics.replaceConfigs(topic.name(), overrides, request.validateOnly(), Requesters.of(context));
                }
                r.setErrorCode(Errors.NONE).setErrorMessage(null);
            } catch (RuntimeException e) {
                r.setErrorCode(StorageErrors.code(e)).setErrorMessage(StorageErrors.message(e));
            }
            out.add(r);
        }
        return CompletableFuture.completedFuture(new AlterConfigsResponseData().setThrottleTimeMs(0).setResponses(out));
    }
}
