package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.broker.quota.ClientQuotaManager;
import io.kaas.broker.quota.MutationQuota;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.topic.PartitionMutations;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.TopicException;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.CreatePartitionsRequestData.CreatePartitionsAssignment;
import io.kaas.wire.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import io.kaas.wire.message.CreatePartitionsRequestData;
import io.kaas.wire.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import io.kaas.wire.message.CreatePartitionsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** CreatePartitions v0-3: raises partition counts; a decrease is INVALID_PARTITIONS. */
public final class CreatePartitionsHandler implements ApiHandler<CreatePartitionsRequestData, CreatePartitionsResponseData> {
    /** As Kafka: from v3 a topic over the controller mutation quota is refused with THROTTLING_QUOTA_EXCEEDED. */
    private static final int STRICT_QUOTA_SINCE = 3;

    private final int nodeId;
    private final TopicManager topics;
    private final ControllerMutations mutations;

    /** @param quotas the client quotas whose {@code controller_mutation_rate} applies; null for none */
    public CreatePartitionsHandler(int nodeId, TopicManager topics, ClientQuotaManager quotas) {
        this.nodeId = nodeId;
        this.topics = topics;
        this.mutations = new ControllerMutations(quotas);
    }

    @Override
    public CompletableFuture<CreatePartitionsResponseData> handle(RequestContext context, CreatePartitionsRequestData request) {
        Map<String, Integer> counts = new HashMap<>();
        request.topics().forEach(t -> counts.merge(t.name(), 1, Integer::sum));
        List<CreatePartitionsTopicResult> results = new ArrayList<>();
        MutationQuota quota = mutations.quotaFor(context, STRICT_QUOTA_SINCE);
        PartitionMutations charge = ControllerMutations.charging(quota);
        for (CreatePartitionsTopic t : request.topics()) {
            CreatePartitionsTopicResult r = new CreatePartitionsTopicResult().setName(t.name());
            try {
                if (counts.get(t.name()) > 1) {
                    throw new TopicException(Errors.INVALID_REQUEST, "Duplicate topic in request.");
                }
                if (!context.access().allowedOnTopic(Operation.ALTER, t.name())) {
                    throw new TopicException(Errors.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed.");
                }
                checkAssignments(t);
                topics.createPartitions(t.name(), t.count(), request.validateOnly(), charge);
                r.setErrorCode(Errors.NONE).setErrorMessage(null);
            } catch (RuntimeException e) {
                r.setErrorCode(StorageErrors.code(e)).setErrorMessage(StorageErrors.message(e));
            }
            results.add(r);
        }
        return CompletableFuture.completedFuture(new CreatePartitionsResponseData()
                .setThrottleTimeMs(quota.throttleTimeMs()).setResults(results));
    }

    private void checkAssignments(CreatePartitionsTopic t) {
        if (t.assignments() == null) {
            return;
        }
        for (CreatePartitionsAssignment a : t.assignments()) {
            if (!a.brokerIds().equals(List.of(nodeId))) {
                throw new TopicException(Errors.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes broker(s) other than " + nodeId + ": " + a.brokerIds());
            }
        }
        topics.topic(t.name()).ifPresent(topic -> {
            int added = t.count() - topic.partitionCount();
            if (added > 0 && t.assignments().size() != added) {
                throw new TopicException(Errors.INVALID_REPLICA_ASSIGNMENT, "Attempted to add " + added
                        + " additional partition(s), but only " + t.assignments().size() + " assignment(s) were specified.");
            }
        });
    }
}
