package io.kaas.broker.handler;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.GroupConfigs;
import io.kaas.wire.message.ListConfigResourcesRequestData;
import io.kaas.wire.message.ListConfigResourcesResponseData;
import io.kaas.wire.message.ListConfigResourcesResponseData.ConfigResource;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * ListConfigResources v0-1 (key 74, KIP-1142), after DESCRIBE_CONFIGS on the cluster (the pipeline's
 * requirement). v0 is Kafka's ListClientMetricsResources: the client-metrics subscriptions, of which kaas
 * has none. v1 lists the resources of the requested types (all supported types when none is named):
 * every topic, this broker as BROKER and BROKER_LOGGER, every group with configs (as Kafka, whose
 * GroupConfigManager knows only those; a group without configs is not listed), and no CLIENT_METRICS. A type Kafka does not list here is UNSUPPORTED_VERSION for the
 * whole request, as Kafka answers.
 */
public final class ListConfigResourcesHandler
        implements ApiHandler<ListConfigResourcesRequestData, ListConfigResourcesResponseData> {
    static final byte TOPIC = 2;
    static final byte BROKER = 4;
    static final byte BROKER_LOGGER = 8;
    static final byte CLIENT_METRICS = 16;
    static final byte GROUP = 32;
    /** The types Kafka's ListConfigResourcesRequest.supportedResourceTypes() names. */
    static final Set<Byte> SUPPORTED = Set.of(TOPIC, BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP);
    private static final List<Byte> LISTING_ORDER = List.of(GROUP, CLIENT_METRICS, BROKER_LOGGER, BROKER, TOPIC);

    private final int nodeId;
    private final TopicManager topics;
    private final GroupConfigs groupConfigs;

    public ListConfigResourcesHandler(int nodeId, TopicManager topics, GroupConfigs groupConfigs) {
        this.nodeId = nodeId;
        this.topics = topics;
        this.groupConfigs = groupConfigs;
    }

    @Override
    public CompletableFuture<ListConfigResourcesResponseData> handle(RequestContext context,
                                                                     ListConfigResourcesRequestData request) {
        ListConfigResourcesResponseData response = new ListConfigResourcesResponseData().setThrottleTimeMs(0)
                .setErrorCode(Errors.NONE);
        List<ConfigResource> out = new ArrayList<>();
        if (context.apiVersion() == 0) {
            // v0 lists client-metrics subscriptions only; kaas has none.
            return CompletableFuture.completedFuture(response.setConfigResources(out));
        }
        List<Byte> requested = request.resourceTypes();
        for (Byte type : requested) {
            if (!SUPPORTED.contains(type)) {
                return CompletableFuture.completedFuture(response.setErrorCode(Errors.UNSUPPORTED_VERSION)
                        .setConfigResources(out));
            }
        }
        for (byte type : LISTING_ORDER) {
            if (!requested.isEmpty() && !requested.contains(type)) {
                continue;
            }
            switch (type) {
                case GROUP -> groupIds().forEach(id -> out.add(resource(id, GROUP)));
                case BROKER_LOGGER, BROKER -> out.add(resource(Integer.toString(nodeId), type));
                case TOPIC -> topicNames().forEach(name -> out.add(resource(name, TOPIC)));
                default -> {
                    // CLIENT_METRICS: kaas has no client-metrics subscriptions
                }
            }
        }
        return CompletableFuture.completedFuture(response.setConfigResources(out));
    }

    private Set<String> groupIds() {
        return new TreeSet<>(groupConfigs.groupIds());
    }

    private Set<String> topicNames() {
        Set<String> names = new TreeSet<>();
        for (Topic t : topics.topics()) {
            names.add(t.name());
        }
        return names;
    }

    private static ConfigResource resource(String name, byte type) {
        return new ConfigResource().setResourceName(name).setResourceType(type);
    }
}
