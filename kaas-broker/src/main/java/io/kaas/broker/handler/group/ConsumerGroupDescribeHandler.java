package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.ConsumerGroupDescribeRequestData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData.Assignment;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData.DescribedGroup;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData.Member;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * ConsumerGroupDescribe v0-1 (KIP-848): epochs, assignor, members with their current and target
 * assignments (v1 adds the member type). A classic group answers GROUP_ID_NOT_FOUND ("… is not a
 * consumer group."), on which the admin client falls back to DescribeGroups. As in Kafka, a group whose
 * members subscribe to, own or are assigned a topic the client may not DESCRIBE is answered
 * TOPIC_AUTHORIZATION_FAILED.
 */
public final class ConsumerGroupDescribeHandler
        implements ApiHandler<ConsumerGroupDescribeRequestData, ConsumerGroupDescribeResponseData> {
    static final String TOPICS_DENIED = "The described group uses topics that the client is not authorized to describe.";

    private final GroupCoordinator coordinator;

    public ConsumerGroupDescribeHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<ConsumerGroupDescribeResponseData> handle(RequestContext context,
                                                                      ConsumerGroupDescribeRequestData request) {
        List<DescribedGroup> groups = new ArrayList<>();
        for (String groupId : request.groupIds()) {
            if (!context.access().allowed(Operation.DESCRIBE, ResourceType.GROUP, groupId)) {
                groups.add(new DescribedGroup().setGroupId(groupId).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED)
                        .setErrorMessage("Group authorization failed."));
                continue;
            }
            DescribedGroup described = coordinator.admin().describeConsumerGroup(groupId, context.apiVersion());
            if (described.errorCode() == Errors.NONE && !allTopicsDescribable(context, described)) {
                groups.add(new DescribedGroup().setGroupId(groupId).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED)
                        .setErrorMessage(TOPICS_DENIED));
                continue;
            }
            if (request.includeAuthorizedOperations()) {
                described.setAuthorizedOperations(context.access().authorizedOperations(ResourceType.GROUP, groupId));
            }
            groups.add(described);
        }
        return CompletableFuture.completedFuture(new ConsumerGroupDescribeResponseData().setGroups(groups));
    }

    /** Whether the request may DESCRIBE every topic the group's members subscribe to, own or are to own. */
    private static boolean allTopicsDescribable(RequestContext context, DescribedGroup group) {
        Set<String> topics = new HashSet<>();
        for (Member member : group.members()) {
            if (member.subscribedTopicNames() != null) {
                topics.addAll(member.subscribedTopicNames());
            }
            for (Assignment assignment : List.of(member.assignment(), member.targetAssignment())) {
                assignment.topicPartitions().forEach(tp -> topics.add(tp.topicName()));
            }
        }
        return context.access().allowedTopics(Operation.DESCRIBE, topics).size() == topics.size();
    }
}
