package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.wire.message.OffsetFetchRequestData;
import io.kaas.wire.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import io.kaas.wire.message.OffsetFetchRequestData.OffsetFetchRequestTopic;
import io.kaas.wire.message.OffsetFetchRequestData.OffsetFetchRequestTopics;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponseGroup;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponsePartition;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponsePartitions;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponseTopic;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponseTopics;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * OffsetFetch v1-10 (v0 removed in Kafka 4.0): one group (v1-7; null topics from v2 means all) or several (v8+).
 * A partition without a commit answers offset -1, no error.
 * v7+ {@code require_stable}: a partition with a transactional offset still pending (TxnOffsetCommit of an open
 * transaction) answers UNSTABLE_OFFSET_COMMIT, as Kafka; the consumer retries. v9 carries the member
 * id and epoch of a consumer (KIP-848) group member: UNKNOWN_MEMBER_ID / STALE_MEMBER_EPOCH when they do not match.
 * v10 (KIP-848, stable in Kafka 4.4) names topics by id, as Kafka: an id this cluster does not know answers
 * UNKNOWN_TOPIC_ID (offset -1) on each partition asked; fetching all offsets leaves out the topics that no longer
 * exist (they have no id to be named by).
 */
public final class OffsetFetchHandler implements ApiHandler<OffsetFetchRequestData, OffsetFetchResponseData> {
    private final GroupCoordinator coordinator;
    private final TopicManager topicManager;

    public OffsetFetchHandler(GroupCoordinator coordinator, TopicManager topicManager) {
        this.coordinator = coordinator;
        this.topicManager = topicManager;
    }

    @Override
    public CompletableFuture<OffsetFetchResponseData> handle(RequestContext context, OffsetFetchRequestData request) {
        short version = context.apiVersion();
        OffsetFetchResponseData response = new OffsetFetchResponseData();
        if (version >= 8) {
            List<OffsetFetchResponseGroup> groups = new ArrayList<>();
            for (OffsetFetchRequestGroup g : request.groups()) {
                short error = !context.access().allowed(Operation.DESCRIBE, ResourceType.GROUP, g.groupId())
                        ? Errors.GROUP_AUTHORIZATION_FAILED
                        : version >= 9 ? coordinator.offsets().validateFetch(g.groupId(), g.memberId(), g.memberEpoch())
                        : Errors.NONE;
                groups.add(error == Errors.NONE ? fetchGroup(context, request, g, version >= 10)
                        : new OffsetFetchResponseGroup().setGroupId(g.groupId()).setErrorCode(error));
            }
            return CompletableFuture.completedFuture(response.setGroups(groups));
        }
        // DESCRIBE on the group (v1-7) is the contract's: the handler runs only once it is allowed.
        Map<String, List<Integer>> asked = null;
        if (request.topics() != null) {
            asked = new LinkedHashMap<>();
            for (OffsetFetchRequestTopic t : request.topics()) {
                asked.computeIfAbsent(t.name(), k -> new ArrayList<>()).addAll(t.partitionIndexes());
            }
        }
        Map<String, List<Integer>> denied = removeUndescribable(context, asked);
        Map<String, List<Integer>> negative = removeNegative(asked);
        OffsetManager.FetchResult result = coordinator.offsets().fetch(request.groupId(), asked,
                version >= 7 && request.requireStable());
        if (result.errorCode() != Errors.NONE) {
            return CompletableFuture.completedFuture(groupError(response, version, request.topics(), result.errorCode()));
        }
        Map<String, OffsetFetchResponseTopic> topics = new LinkedHashMap<>();
        for (OffsetManager.Fetched f : describable(context, asked, result)) {
            CommittedOffset o = f.offset();
            topics.computeIfAbsent(f.partition().topic(), n -> new OffsetFetchResponseTopic().setName(n))
                    .partitions().add(new OffsetFetchResponsePartition().setPartitionIndex(f.partition().partition())
                            .setCommittedOffset(o == null ? -1 : o.offset())
                            .setCommittedLeaderEpoch(o == null || version < 5 ? -1 : o.leaderEpoch())
                            .setMetadata(o == null ? "" : o.metadata())
                            .setErrorCode(f.errorCode() != Errors.NONE ? f.errorCode()
                                    : version < 2 ? result.errorCode() : Errors.NONE));
        }
        denied.forEach((name, partitions) -> partitions.forEach(p ->
                topics.computeIfAbsent(name, n -> new OffsetFetchResponseTopic().setName(n)).partitions()
                        .add(new OffsetFetchResponsePartition().setPartitionIndex(p).setCommittedOffset(-1)
                                .setCommittedLeaderEpoch(-1).setMetadata("").setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED))));
        negative.forEach((name, partitions) -> partitions.forEach(p ->
                topics.computeIfAbsent(name, n -> new OffsetFetchResponseTopic().setName(n)).partitions()
                        .add(new OffsetFetchResponsePartition().setPartitionIndex(p).setCommittedOffset(-1)
                                .setCommittedLeaderEpoch(-1).setMetadata("")
                                .setErrorCode(version < 2 ? result.errorCode() : Errors.NONE))));
        response.setTopics(new ArrayList<>(topics.values()));
        if (version >= 2) {
            response.setErrorCode(result.errorCode());
        }
        return CompletableFuture.completedFuture(response);
    }

    /**
     * A group-level error (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, ...) as Kafka answers it: v2+ in the top-level
     * error code and no topics; v0-1, which have none, on every partition asked for.
     */
    private static OffsetFetchResponseData groupError(OffsetFetchResponseData response, short version,
                                                      List<OffsetFetchRequestTopic> asked, short error) {
        if (version >= 2) {
            return response.setErrorCode(error);
        }
        List<OffsetFetchResponseTopic> topics = new ArrayList<>();
        if (asked != null) {
            for (OffsetFetchRequestTopic t : asked) {
                OffsetFetchResponseTopic topic = new OffsetFetchResponseTopic().setName(t.name());
                for (int p : t.partitionIndexes()) {
                    topic.partitions().add(new OffsetFetchResponsePartition().setPartitionIndex(p).setCommittedOffset(-1)
                            .setCommittedLeaderEpoch(-1).setMetadata("").setErrorCode(error));
                }
                topics.add(topic);
            }
        }
        return response.setTopics(topics);
    }

    private OffsetFetchResponseGroup fetchGroup(RequestContext context, OffsetFetchRequestData request,
                                                OffsetFetchRequestGroup g, boolean byId) {
        Map<String, List<Integer>> asked = null;
        Map<String, UUID> ids = new LinkedHashMap<>();
        List<OffsetFetchResponseTopics> unknownIds = new ArrayList<>();
        if (g.topics() != null) {
            asked = new LinkedHashMap<>();
            for (OffsetFetchRequestTopics t : g.topics()) {
                String name = byId ? topicManager.topic(t.topicId()).map(Topic::name).orElse(null) : t.name();
                if (name == null) {
                    unknownIds.add(unknownTopicId(t));
                    continue;
                }
                ids.put(name, t.topicId());
                asked.computeIfAbsent(name, k -> new ArrayList<>()).addAll(t.partitionIndexes());
            }
        }
        Map<String, List<Integer>> denied = removeUndescribable(context, asked);
        Map<String, List<Integer>> negative = removeNegative(asked);
        OffsetManager.FetchResult result = coordinator.offsets().fetch(g.groupId(), asked, request.requireStable());
        if (result.errorCode() != Errors.NONE) {
            return new OffsetFetchResponseGroup().setGroupId(g.groupId()).setErrorCode(result.errorCode());
        }
        Map<String, OffsetFetchResponseTopics> topics = new LinkedHashMap<>();
        for (OffsetManager.Fetched f : describable(context, asked, result)) {
            CommittedOffset o = f.offset();
            if (byId && !ids.containsKey(f.partition().topic())) {
                // all offsets asked for: the topic's id now, or left out if the topic is gone (as Kafka)
                Optional<Topic> topic = topicManager.topic(f.partition().topic());
                if (topic.isEmpty()) {
                    continue;
                }
                ids.put(f.partition().topic(), topic.get().id());
            }
            topics.computeIfAbsent(f.partition().topic(), n -> new OffsetFetchResponseTopics().setName(n))
                    .partitions().add(new OffsetFetchResponsePartitions().setPartitionIndex(f.partition().partition())
                            .setCommittedOffset(o == null ? -1 : o.offset())
                            .setCommittedLeaderEpoch(o == null ? -1 : o.leaderEpoch())
                            .setMetadata(o == null ? "" : o.metadata()).setErrorCode(f.errorCode()));
        }
        denied.forEach((name, partitions) -> partitions.forEach(p ->
                topics.computeIfAbsent(name, n -> new OffsetFetchResponseTopics().setName(n)).partitions()
                        .add(new OffsetFetchResponsePartitions().setPartitionIndex(p).setCommittedOffset(-1)
                                .setCommittedLeaderEpoch(-1).setMetadata("").setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED))));
        negative.forEach((name, partitions) -> partitions.forEach(p ->
                topics.computeIfAbsent(name, n -> new OffsetFetchResponseTopics().setName(n)).partitions()
                        .add(new OffsetFetchResponsePartitions().setPartitionIndex(p).setCommittedOffset(-1)
                                .setCommittedLeaderEpoch(-1).setMetadata("").setErrorCode(Errors.NONE))));
        List<OffsetFetchResponseTopics> out = new ArrayList<>(topics.values());
        if (byId) {
            out.forEach(t -> t.setTopicId(ids.get(t.name())));
        }
        out.addAll(unknownIds);
        return new OffsetFetchResponseGroup().setGroupId(g.groupId()).setErrorCode(result.errorCode()).setTopics(out);
    }

    /** A v10 topic whose id this cluster does not know: UNKNOWN_TOPIC_ID on each partition asked, offset -1. */
    private static OffsetFetchResponseTopics unknownTopicId(OffsetFetchRequestTopics t) {
        OffsetFetchResponseTopics topic = new OffsetFetchResponseTopics().setTopicId(t.topicId()).setName("");
        for (int p : t.partitionIndexes()) {
            topic.partitions().add(new OffsetFetchResponsePartitions().setPartitionIndex(p).setCommittedOffset(-1)
                    .setCommittedLeaderEpoch(-1).setMetadata("").setErrorCode(Errors.UNKNOWN_TOPIC_ID));
        }
        return topic;
    }

    /**
     * Removes from {@code asked} the negative partition indexes and returns them by topic: no offset can be committed
     * there, so they are answered as Kafka answers a partition without one (offset -1), not asked of the coordinator.
     */
    private static Map<String, List<Integer>> removeNegative(Map<String, List<Integer>> asked) {
        Map<String, List<Integer>> negative = new LinkedHashMap<>();
        if (asked != null) {
            asked.forEach((topic, partitions) -> {
                List<Integer> out = partitions.stream().filter(p -> p < 0).toList();
                if (!out.isEmpty()) {
                    negative.put(topic, out);
                    partitions.removeIf(p -> p < 0);
                }
            });
        }
        return negative;
    }

    /**
     * Removes from {@code asked} the topics the request may not DESCRIBE and returns them with their
     * partitions, to be answered TOPIC_AUTHORIZATION_FAILED as Kafka does; nothing when all are asked for.
     */
    private static Map<String, List<Integer>> removeUndescribable(RequestContext context, Map<String, List<Integer>> asked) {
        Map<String, List<Integer>> denied = new LinkedHashMap<>();
        if (asked == null) {
            return denied;
        }
        Set<String> describable = context.access().allowedTopics(Operation.DESCRIBE, asked.keySet());
        for (Iterator<Map.Entry<String, List<Integer>>> it = asked.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, List<Integer>> e = it.next();
            if (!describable.contains(e.getKey())) {
                denied.put(e.getKey(), e.getValue());
                it.remove();
            }
        }
        return denied;
    }

    /** The fetched offsets; when all were asked for, only those of topics the request may DESCRIBE (as Kafka). */
    private static List<OffsetManager.Fetched> describable(RequestContext context, Map<String, List<Integer>> asked,
                                                           OffsetManager.FetchResult result) {
        if (asked != null) {
            return result.partitions();
        }
        Set<String> describable = context.access().allowedTopics(Operation.DESCRIBE,
                result.partitions().stream().map(f -> f.partition().topic()).toList());
        return result.partitions().stream().filter(f -> describable.contains(f.partition().topic())).toList();
    }
}
