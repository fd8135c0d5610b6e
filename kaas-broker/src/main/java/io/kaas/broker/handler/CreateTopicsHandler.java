package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.quota.ClientQuotaManager;
import io.kaas.broker.quota.MutationQuota;
import io.kaas.broker.topic.PartitionMutations;
import io.kaas.broker.topic.Requester;
import io.kaas.broker.topic.DescribedConfig;
import io.kaas.broker.topic.TopicException;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import io.kaas.wire.message.CreateTopicsRequestData.CreatableTopic;
import io.kaas.wire.message.CreateTopicsRequestData.CreatableTopicConfig;
import io.kaas.wire.message.CreateTopicsRequestData;
import io.kaas.wire.message.CreateTopicsResponseData.CreatableTopicConfigs;
import io.kaas.wire.message.CreateTopicsResponseData.CreatableTopicResult;
import io.kaas.wire.message.CreateTopicsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** CreateTopics v2-7: per-topic results; v5+ carry partitions, replication factor and configs. */
public final class CreateTopicsHandler implements ApiHandler<CreateTopicsRequestData, CreateTopicsResponseData> {
    /** As Kafka: from v6 a topic over the controller mutation quota is refused with THROTTLING_QUOTA_EXCEEDED. */
    private static final int STRICT_QUOTA_SINCE = 6;

    private final int nodeId;
    private final TopicManager topics;
    private final ControllerMutations mutations;

    /** @param quotas the client quotas whose {@code controller_mutation_rate} applies; null for none */
    public CreateTopicsHandler(int nodeId, TopicManager topics, ClientQuotaManager quotas) {
        this.nodeId = nodeId;
        this.topics = topics;
        this.mutations = new ControllerMutations(quotas);
    }

    @Override
    public CompletableFuture<CreateTopicsResponseData> handle(RequestContext context, CreateTopicsRequestData request) {
        Map<String, Integer> counts = new HashMap<>();
        for (CreatableTopic t : request.topics()) {
            counts.merge(t.name(), 1, Integer::sum);
        }
        List<CreatableTopicResult> results = new ArrayList<>();
        MutationQuota quota = mutations.quotaFor(context, STRICT_QUOTA_SINCE);
        PartitionMutations charge = ControllerMutations.charging(quota);
        Set<String> answered = new HashSet<>();
        for (CreatableTopic t : request.topics()) {
            if (counts.get(t.name()) > 1) {
                if (answered.add(t.name())) {
                    results.add(error(t.name(), Errors.INVALID_REQUEST,
                            "Create topics request from client contains multiple topics with the same name."));
                }
                continue;
            }
            // As Kafka: CREATE on the cluster allows every topic, else CREATE on each topic is needed (the contract's check).
            if (!context.access().allowedOnTopic(Operation.CREATE, t.name())) {
                results.add(error(t.name(), Errors.TOPIC_AUTHORIZATION_FAILED, null));
                continue;
            }
            boolean configsVisible = context.access().allowedOnTopic(Operation.DESCRIBE_CONFIGS, t.name());
            results.add(create(t, request.validateOnly(), context.apiVersion(), configsVisible, Requesters.of(context),
                    charge));
        }
        return CompletableFuture.completedFuture(new CreateTopicsResponseData()
                .setThrottleTimeMs(quota.throttleTimeMs()).setTopics(results));
    }

    private CreatableTopicResult create(CreatableTopic t, boolean validateOnly, short version, boolean configsVisible,
                                        Requester by, PartitionMutations charge) {
        try {
            int partitions = t.numPartitions();
            int replicationFactor = t.replicationFactor();
            List<CreatableReplicaAssignment> assignments = t.assignments();
            if (assignments != null && !assignments.isEmpty()) {
                if (partitions != -1 || replicationFactor != -1) {
                    throw new TopicException(Errors.INVALID_REQUEST,
                            "Both numPartitions or replicationFactor and replicasAssignments were set. Both cannot be used at the same time.");
                }
                partitions = checkAssignments(assignments);
            }
            Map<String, String> configs = new LinkedHashMap<>();
            for (CreatableTopicConfig c : t.configs()) {
                if (c.value() == null) {
                    throw new TopicException(Errors.INVALID_CONFIG,
                            "Null value not supported for topic configs: " + c.name());
                }
                configs.put(c.name(), c.value());
            }
            TopicRecord record = topics.create(t.name(), partitions, replicationFactor, configs, validateOnly, by,
                    charge);
            return success(record, version, configsVisible);
        } catch (TopicException e) {
            return error(t.name(), e.errorCode(), e.getMessage());
        } catch (RuntimeException e) {
            return error(t.name(), StorageErrors.code(e), StorageErrors.message(e));
        }
    }

    private int checkAssignments(List<CreatableReplicaAssignment> assignments) {
        Set<Integer> indexes = new HashSet<>();
        for (CreatableReplicaAssignment a : assignments) {
            if (!a.brokerIds().equals(List.of(nodeId))) {
                throw new TopicException(Errors.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes broker(s) other than " + nodeId + ": " + a.brokerIds());
            }
            indexes.add(a.partitionIndex());
        }
        for (int p = 0; p < assignments.size(); p++) {
            if (!indexes.contains(p)) {
                throw new TopicException(Errors.INVALID_REPLICA_ASSIGNMENT,
                        "Partitions must be numbered consecutively starting at 0; partition " + p + " is missing.");
            }
        }
        return assignments.size();
    }

    private CreatableTopicResult success(TopicRecord record, short version, boolean configsVisible) {
        CreatableTopicResult result = new CreatableTopicResult()
                .setName(record.name())
                .setTopicId(record.topicId())
                .setErrorCode(Errors.NONE)
                .setErrorMessage(null)
                .setNumPartitions(record.partitions())
                .setReplicationFactor((short) 1);
        if (version >= 5 && !configsVisible) {
            // As Kafka: created, but the configs are not shown to a principal without DESCRIBE_CONFIGS.
            result.setTopicConfigErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED);
        } else if (version >= 5) {
            List<CreatableTopicConfigs> configs = new ArrayList<>();
            for (DescribedConfig c : topics.configs().describeAll(record.configs(), false)) {
                configs.add(new CreatableTopicConfigs().setName(c.name()).setValue(c.value())
                        .setReadOnly(c.readOnly()).setConfigSource(c.source().code()).setIsSensitive(c.sensitive()));
            }
            result.setConfigs(configs);
        }
        return result;
    }

    private static CreatableTopicResult error(String name, short code, String message) {
        return new CreatableTopicResult().setName(name).setErrorCode(code).setErrorMessage(message)
                .setNumPartitions(-1).setReplicationFactor((short) -1);
    }
}
