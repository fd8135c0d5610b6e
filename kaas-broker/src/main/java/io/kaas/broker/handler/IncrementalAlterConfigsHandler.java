package io.kaas.broker.handler;

import io.kaas.broker.request.ApiHandler;
import io.kaas.coordinator.group.GroupConfigs;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Requester;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicException;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import io.kaas.wire.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import io.kaas.wire.message.IncrementalAlterConfigsRequestData;
import io.kaas.wire.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import io.kaas.wire.message.IncrementalAlterConfigsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * IncrementalAlterConfigs v0-1 on TOPIC, GROUP and BROKER (dynamic broker configs) resources: SET, DELETE, APPEND, SUBTRACT (lists only);
 * validate_only honoured.
 */
public final class IncrementalAlterConfigsHandler
        implements ApiHandler<IncrementalAlterConfigsRequestData, IncrementalAlterConfigsResponseData> {
    private final TopicManager topics;
    private final GroupConfigChanges groups;
    private final BrokerConfigChanges brokers;

    public IncrementalAlterConfigsHandler(TopicManager topics, GroupConfigs groupConfigs,
                                          io.kaas.api.cluster.ClusterStateStore store) {
        this(topics, groupConfigs, store, -1, configs -> null);
    }

    /**
     * @param listenerTls why this broker's ({@code nodeId}) TLS listeners cannot take its own dynamic configs, or
     *                    null: the per-broker {@code listener.name.<l>.ssl.*} changes are checked there first
     */
    public IncrementalAlterConfigsHandler(TopicManager topics, GroupConfigs groupConfigs,
                                          io.kaas.api.cluster.ClusterStateStore store, int nodeId,
            java.util.function.Function<java.util.Map<String, String>, String> listenerTls) {
        this(topics, groupConfigs, store, nodeId, listenerTls, (before, after) -> null);
    }

    /**
     * @param reconfiguration why this broker ({@code nodeId}) cannot go from its effective dynamic configs before a
     *                        change to those after it (its own over the cluster default), or null: the thread counts
     */
    public IncrementalAlterConfigsHandler(TopicManager topics, GroupConfigs groupConfigs, io.kaas.api.cluster.ClusterStateStore store,
            int nodeId, java.util.function.Function<java.util.Map<String, String>, String> listenerTls,
            java.util.function.BiFunction<java.util.Map<String, String>, java.util.Map<String, String>, String>
                reconfiguration) {
        this.topics = topics;
        this.groups = new GroupConfigChanges(groupConfigs);
        this.brokers = new BrokerConfigChanges(store, nodeId, listenerTls, reconfiguration);
    }

    @Override
    public CompletableFuture<IncrementalAlterConfigsResponseData> handle(RequestContext context,
                                                                         IncrementalAlterConfigsRequestData request) {
        List<AlterConfigsResourceResponse> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (AlterConfigsResource resource : request.resources()) {
            AlterConfigsResourceResponse r = new AlterConfigsResourceResponse().setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName());
            try {
                if (!seen.add(resource.resourceType() + "/" + resource.resourceName())) {
                    throw new TopicException(Errors.INVALID_REQUEST, "Duplicate resource in request.");
                }
                if (resource.resourceType() == GroupConfigChanges.GROUP) {
                    GroupConfigChanges.checkMayAlter(context, resource.resourceName());
                    alterGroup(resource, request.validateOnly(), Requesters.of(context));
                } else if (resource.resourceType() == TopicConfigChanges.BROKER) {
                    TopicConfigChanges.checkMayAlter(context, resource.resourceType(), resource.resourceName());
                    alterBroker(resource, request.validateOnly(), Requesters.of(context));
                } else {
                    TopicConfigChanges.checkMayAlter(context, resource.resourceType(), resource.resourceName());
                    alter(resource, request.validateOnly(), Requesters.of(context));
                }
                r.setErrorCode(Errors.NONE).setErrorMessage(null);
            } catch (RuntimeException e) {
                r.setErrorCode(StorageErrors.code(e)).setErrorMessage(StorageErrors.message(e));
            }
            out.add(r);
        }
        return CompletableFuture.completedFuture(new IncrementalAlterConfigsResponseData().setThrottleTimeMs(0)
                .setResponses(out));
    }

    private void alterGroup(AlterConfigsResource resource, boolean validateOnly, Requester by) {
        Set<String> names = new HashSet<>();
        Map<String, String> overrides = groups.current(resource.resourceName());
        for (AlterableConfig c : resource.configs()) {
            if (!names.add(c.name())) {
                throw new TopicException(Errors.INVALID_REQUEST, "Error due to duplicate config keys");
            }
            GroupConfigChanges.apply(overrides, c.name(), c.configOperation(), c.value());
        }
        groups.replace(resource.resourceName(), overrides, validateOnly, by);
    }

    private void alterBroker(AlterConfigsResource resource, boolean validateOnly, Requester by) {
        java.util.OptionalInt target = BrokerConfigChanges.target(resource.resourceName());
        Set<String> names = new HashSet<>();
        Map<String, String> configs = brokers.current(target);
        for (AlterableConfig c : resource.configs()) {
            if (!names.add(c.name())) {
                throw new TopicException(Errors.INVALID_REQUEST, "Error due to duplicate config keys");
            }
            BrokerConfigChanges.apply(configs, c.name(), c.configOperation(), c.value());
        }
        brokers.replace(target, configs, validateOnly, by);
    }

    private void alter(AlterConfigsResource resource, boolean validateOnly, Requester by) {
        Topic topic = TopicConfigChanges.topicResource(topics, resource.resourceType(), resource.resourceName());
        Set<String> names = new HashSet<>();
        Map<String, String> overrides = TopicConfigChanges.copy(topic.record().configs());
        for (AlterableConfig c : resource.configs()) {
            if (!names.add(c.name())) {
                throw new TopicException(Errors.INVALID_REQUEST, "Error due to duplicate config keys");
            }
            TopicConfigChanges.apply(overrides, c.name(), c.configOperation(), c.value());
        }
        topics.replaceConfigs(topic.name(), overrides, validateOnly, by);
    }
}
