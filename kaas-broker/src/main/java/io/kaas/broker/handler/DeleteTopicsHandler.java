package io.kaas.broker.handler;

import io.kaas.broker.quota.ClientQuotaManager;
import io.kaas.broker.quota.MutationQuota;
import io.kaas.broker.topic.PartitionMutations;
import io.kaas.api.auth.Operation;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicException;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.DeleteTopicsRequestData.DeleteTopicState;
import io.kaas.wire.message.DeleteTopicsRequestData;
import io.kaas.wire.message.DeleteTopicsResponseData.DeletableTopicResult;
import io.kaas.wire.message.DeleteTopicsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** DeleteTopics v1-6: by name, or (v6) by name or topic id. */
public final class DeleteTopicsHandler implements ApiHandler<DeleteTopicsRequestData, DeleteTopicsResponseData> {
    private static final UUID ZERO = new UUID(0, 0);

    /** As Kafka: from v5 a topic over the controller mutation quota is refused with THROTTLING_QUOTA_EXCEEDED. */
    private static final int STRICT_QUOTA_SINCE = 5;

    private final TopicManager topics;
    private final ControllerMutations mutations;

    /** @param quotas the client quotas whose {@code controller_mutation_rate} applies; null for none */
    public DeleteTopicsHandler(TopicManager topics, ClientQuotaManager quotas) {
        this.topics = topics;
        this.mutations = new ControllerMutations(quotas);
    }

    @Override
    public CompletableFuture<DeleteTopicsResponseData> handle(RequestContext context, DeleteTopicsRequestData request) {
        List<DeletableTopicResult> results = new ArrayList<>();
        MutationQuota quota = mutations.quotaFor(context, STRICT_QUOTA_SINCE);
        PartitionMutations charge = ControllerMutations.charging(quota);
        if (context.apiVersion() >= 6) {
            for (DeleteTopicState state : request.topics()) {
                results.add(deleteState(context, state, charge));
            }
        } else {
            for (String name : request.topicNames()) {
                results.add(deleteByName(context, name, null, charge));
            }
        }
        return CompletableFuture.completedFuture(new DeleteTopicsResponseData()
                .setThrottleTimeMs(quota.throttleTimeMs()).setResponses(results));
    }

    private DeletableTopicResult deleteState(RequestContext context, DeleteTopicState state, PartitionMutations charge) {
        boolean hasId = state.topicId() != null && !ZERO.equals(state.topicId());
        if (state.name() != null && hasId) {
            return new DeletableTopicResult().setName(state.name()).setTopicId(state.topicId())
                    .setErrorCode(Errors.INVALID_REQUEST)
                    .setErrorMessage("Both topic name and topic ID were provided; use one of them.");
        }
        if (!hasId) {
            return deleteByName(context, state.name(), ZERO, charge);
        }
        Optional<Topic> topic = topics.topic(state.topicId());
        if (topic.isEmpty()) {
            return new DeletableTopicResult().setName(null).setTopicId(state.topicId())
                    .setErrorCode(Errors.UNKNOWN_TOPIC_ID).setErrorMessage("This server does not host this topic ID.");
        }
        String name = topic.get().name();
        if (!context.access().allowedOnTopic(Operation.DELETE, name)) {
            // As Kafka: by id, the name is only shown to a principal that may DESCRIBE the topic.
            boolean describable = context.access().allowedOnTopic(Operation.DESCRIBE, name);
            return new DeletableTopicResult().setName(describable ? name : null).setTopicId(state.topicId())
                    .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED).setErrorMessage(null);
        }
        return deleteByName(context, name, state.topicId(), charge);
    }

    private DeletableTopicResult deleteByName(RequestContext context, String name, UUID requestedId,
                                              PartitionMutations charge) {
        DeletableTopicResult result = new DeletableTopicResult().setName(name)
                .setTopicId(requestedId == null ? ZERO : requestedId);
        if (!context.access().allowedOnTopic(Operation.DELETE, name)) {
            return result.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED).setErrorMessage(null);
        }
        try {
            TopicRecord deleted = topics.delete(name, Requesters.of(context), charge);
            return result.setTopicId(deleted.topicId()).setErrorCode(Errors.NONE).setErrorMessage(null);
        } catch (TopicException e) {
            return result.setErrorCode(e.errorCode()).setErrorMessage(e.getMessage());
        } catch (RuntimeException e) {
            return result.setErrorCode(StorageErrors.code(e)).setErrorMessage(StorageErrors.message(e));
        }
    }
}
