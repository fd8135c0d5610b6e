package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.auth.RequestAccess;
import io.kaas.broker.cluster.StoreClusterView;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.wire.message.MetadataRequestData;
import io.kaas.wire.message.MetadataRequestData.MetadataRequestTopic;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.message.MetadataResponseData.MetadataResponseBroker;
import io.kaas.wire.message.MetadataResponseData.MetadataResponsePartition;
import io.kaas.wire.message.MetadataResponseData.MetadataResponseTopic;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Metadata v0-13: every live broker with its endpoint on the client's listener, each partition's single writer and
 * leader epoch from the assignments, the controller; auto-creates topics when allowed.
 */
public final class MetadataHandler implements ApiHandler<MetadataRequestData, MetadataResponseData> {
    private static final UUID ZERO = new UUID(0, 0);

    private final BrokerContext ctx;
    private final TopicManager topics;

    public MetadataHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<MetadataResponseData> handle(RequestContext context, MetadataRequestData request) {
        short version = context.apiVersion();
        List<MetadataResponseBroker> brokers = new ArrayList<>();
        StoreClusterView view = ctx.cluster().view();
        view.endpoints(listener(context)).forEach((id, e) -> brokers.add(new MetadataResponseBroker()
                .setNodeId(id).setHost(e.host()).setPort(e.port()).setRack(view.rack(id).orElse(null))));
        MetadataResponseData response = new MetadataResponseData()
                .setBrokers(brokers)
                .setClusterId(ctx.clusterId())
                .setControllerId(view.controllerId().orElse(-1));
        if (version >= 8 && version <= 10 && request.includeClusterAuthorizedOperations()) {
            response.setClusterAuthorizedOperations(context.access().clusterAuthorizedOperations());
        }
        boolean includeOps = version >= 8 && request.includeTopicAuthorizedOperations();
        List<MetadataResponseTopic> out = new ArrayList<>();
        List<MetadataRequestTopic> requested = request.topics();
        if (version < 12 && requested != null && requested.stream()
                .anyMatch(t -> t.name() == null || t.topicId() != null && !NO_ID.equals(t.topicId()))) {
            // Kafka: topic ids (and null names) only from v12; its error response, INVALID_REQUEST on every topic.
            return CompletableFuture.completedFuture(invalidRequest(requested));
        }
        if (requested == null || (version == 0 && requested.isEmpty())) {
            List<Topic> all = new ArrayList<>(topics.topics());
            all.sort(Comparator.comparing(Topic::name));
            // As Kafka: a listing silently leaves out the topics the principal may not DESCRIBE.
            Set<String> describable = context.access().allowedTopics(Operation.DESCRIBE, all.stream().map(Topic::name).toList());
            for (Topic t : all) {
                if (describable.contains(t.name())) {
                    out.add(describe(t, includeOps ? context.access() : null, version, listener(context)));
                }
            }
        } else {
            boolean autoCreate = version < 4 || request.allowAutoTopicCreation();
            for (MetadataRequestTopic rt : requested) {
                out.add(lookup(context, rt, autoCreate, includeOps, version));
            }
        }
        response.setTopics(out);
        return CompletableFuture.completedFuture(response);
    }

    private MetadataResponseTopic lookup(RequestContext context, MetadataRequestTopic rt, boolean autoCreate,
                                         boolean includeOps, short version) {
        String name = rt.name();
        UUID id = version >= 10 ? rt.topicId() : null;
        // By id when an id is given without a name: the Java client's topic-id requests leave the name at its
        // default "" (only setTopicId), others send null; Kafka looks the topic up by its id either way.
        if ((name == null || name.isEmpty()) && id != null && !ZERO.equals(id)) {
            Optional<Topic> byId = topics.topic(id);
            if (byId.isEmpty()) {
                return new MetadataResponseTopic().setErrorCode(Errors.UNKNOWN_TOPIC_ID).setName(null)
                        .setTopicId(id).setPartitions(new ArrayList<>());
            }
            if (!context.access().allowedOnTopic(Operation.DESCRIBE, byId.get().name())) {
                return new MetadataResponseTopic().setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED).setName(null)
                        .setTopicId(id).setIsInternal(false).setPartitions(new ArrayList<>());
            }
            return describe(byId.get(), includeOps ? context.access() : null, version, listener(context));
        }
        if (name != null && !context.access().allowedOnTopic(Operation.DESCRIBE, name)) {
            return new MetadataResponseTopic().setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED).setName(name)
                    .setTopicId(ZERO).setIsInternal(false).setPartitions(new ArrayList<>());
        }
        Optional<Topic> topic = topics.topic(name);
        if (topic.isEmpty() && autoCreate && name != null && topics.names().allows(name)
                && !context.access().allowedOnTopic(Operation.CREATE, name)) { // on the cluster or the topic
            // As Kafka: a topic that would be auto-created without CREATE permission is an authorization failure.
            return new MetadataResponseTopic().setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED).setName(name)
                    .setTopicId(ZERO).setIsInternal(false).setPartitions(new ArrayList<>());
        }
        if (topic.isEmpty() && autoCreate && name != null) {
            topic = topics.autoCreate(name);
        }
        if (topic.isPresent()) {
            return describe(topic.get(), includeOps ? context.access() : null, version, listener(context));
        }
        short error = name != null && topics.names().allows(name) ? Errors.UNKNOWN_TOPIC_OR_PARTITION
                : Errors.INVALID_TOPIC_EXCEPTION;
        return new MetadataResponseTopic().setErrorCode(error).setName(name).setTopicId(ZERO)
                .setIsInternal(false).setPartitions(new ArrayList<>());
    }

    /** The listener the client came in on; the first listener's name for a request without one (tests). */
    private String listener(RequestContext context) {
        return context.listenerName() != null ? context.listenerName() : ctx.advertisedEndpoint().listenerName();
    }

    /**
     * {@code t} as Metadata describes it, with its authorized operations when {@code ops} is given: each partition
     * with its single writer as the leader, replica and ISR, or leader -1 and LEADER_NOT_AVAILABLE while it has none.
     */
    private MetadataResponseTopic describe(Topic t, RequestAccess ops, short version, String listener) {
        StoreClusterView view = ctx.cluster().view();
        List<MetadataResponsePartition> partitions = new ArrayList<>(t.partitionCount());
        for (int p = 0; p < t.partitionCount(); p++) {
            StoreClusterView.LeaderInfo l = view.leaderInfo(t.name(), p, listener, version >= 6);
            List<Integer> replicas = l.leader() == -1 ? List.of() : List.of(l.leader());
            partitions.add(new MetadataResponsePartition()
                    .setErrorCode(l.error())
                    .setPartitionIndex(p)
                    .setLeaderId(l.leader())
                    .setLeaderEpoch(l.epoch())
                    .setReplicaNodes(new ArrayList<>(replicas))
                    .setIsrNodes(new ArrayList<>(replicas))
                    .setOfflineReplicas(new ArrayList<>()));
        }
        MetadataResponseTopic topic = new MetadataResponseTopic()
                .setErrorCode(Errors.NONE)
                .setName(t.name())
                .setTopicId(t.id())
                .setIsInternal(TopicNames.isInternal(t.name()))
                .setPartitions(partitions);
        if (ops != null && version >= 8) {
            topic.setTopicAuthorizedOperations(ops.authorizedOperations(ResourceType.TOPIC, t.name()));
        }
        return topic;
    }

    private static final UUID NO_ID = new UUID(0, 0);

    private static MetadataResponseData invalidRequest(List<MetadataRequestTopic> requested) {
        List<MetadataResponseTopic> out = new ArrayList<>();
        for (MetadataRequestTopic t : requested) {
            out.add(new MetadataResponseTopic().setName(t.name() == null ? "" : t.name())
                    .setTopicId(t.topicId() == null ? NO_ID : t.topicId()).setErrorCode(Errors.INVALID_REQUEST)
                    .setIsInternal(false).setPartitions(new ArrayList<>()));
        }
        return new MetadataResponseData().setThrottleTimeMs(0).setTopics(out);
    }
}
