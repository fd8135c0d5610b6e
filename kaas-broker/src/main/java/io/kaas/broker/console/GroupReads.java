package io.kaas.broker.console;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ConsumerGroupDescribeRequestData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.DescribeGroupsRequestData;
import io.kaas.wire.message.DescribeGroupsResponseData;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.message.FindCoordinatorResponseData;
import io.kaas.wire.message.ListGroupsRequestData;
import io.kaas.wire.message.ListGroupsResponseData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.message.OffsetFetchRequestData;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The group reads of the console across a cluster. Each runs here first, as the caller: ListGroups answers the groups
 * this broker coordinates, DescribeGroups, ConsumerGroupDescribe and OffsetFetch answer NOT_COORDINATOR for a group
 * another broker coordinates, but only after the caller's DESCRIBE on it was checked. Those groups are then asked of
 * their coordinator (FindCoordinator, run here as the caller) over the inter-broker listener ({@link Forwarder}).
 * The coordinator answers this broker, so what the caller may not see is taken out here as the Kafka API would:
 * other brokers' groups the caller may not describe are not listed (FindCoordinator answers
 * GROUP_AUTHORIZATION_FAILED), a consumer group whose topics it may not all describe is TOPIC_AUTHORIZATION_FAILED,
 * committed offsets of topics it may not describe are left out.
 */
final class GroupReads {

    static final int LIST_GROUPS_VERSION = 5;
    static final int DESCRIBE_GROUPS_VERSION = 5;
    static final int CONSUMER_GROUP_DESCRIBE_VERSION = 0;
    static final int OFFSET_FETCH_VERSION = 8;
    private static final int FIND_COORDINATOR_VERSION = 4;
    private static final byte GROUP_KEY = 0;

    private final ClusterReads reads;

    GroupReads(ClusterReads reads) {
        this.reads = reads;
    }

    /** The groups of the cluster the caller may describe, and the brokers that could not be asked. */
    record Listed(List<ListGroupsResponseData.ListedGroup> groups, List<Map<String, Object>> errors) {
    }

    Listed listGroups(Caller caller) {
        ListGroupsRequestData request = new ListGroupsRequestData().setStatesFilter(new ArrayList<>())
            .setTypesFilter(new ArrayList<>());
        ListGroupsResponseData here = reads.kafka().call(caller, ApiMessageType.LIST_GROUPS, LIST_GROUPS_VERSION,
            request);
        KafkaErrors.check(here.errorCode(), null, "cannot list the groups");
        Map<String, ListGroupsResponseData.ListedGroup> groups = new TreeMap<>();
        here.groups().forEach(g -> groups.put(g.groupId(), g));
        List<Forwarder.Ask> asks = new ArrayList<>();
        for (int node : reads.forwarder().otherBrokers()) {
            asks.add(new Forwarder.Ask(node, request));
        }
        List<Map<String, Object>> errors = new ArrayList<>();
        Map<String, ListGroupsResponseData.ListedGroup> elsewhere = new LinkedHashMap<>();
        for (Forwarder.Reply<ListGroupsResponseData> reply
                : reads.forwarder().<ListGroupsResponseData>sendAll(asks, LIST_GROUPS_VERSION, "ListGroups")) {
            String failure = !reply.answered() ? reply.failure() : reply.answer().errorCode() == Errors.NONE ? null
                : "broker " + reply.nodeId() + " answered ListGroups with " + KafkaErrors.name(reply.answer().errorCode());
            if (failure != null) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("broker", reply.nodeId());
                e.put("error", failure);
                errors.add(e);
                continue;
            }
            reply.answer().groups().stream().filter(g -> !groups.containsKey(g.groupId()))
                .forEach(g -> elsewhere.put(g.groupId(), g));
        }
        // Another broker listed them to this broker: keep those the caller may describe.
        Set<String> allowed = coordinators(caller, elsewhere.keySet()).keySet();
        elsewhere.forEach((id, g) -> {
            if (allowed.contains(id)) {
                groups.put(id, g);
            }
        });
        return new Listed(new ArrayList<>(groups.values()), errors);
    }

    /**
     * Group {@code groupId} as ListGroups lists it: here as the caller, else at its coordinator when another broker
     * coordinates it and the caller may describe it (FindCoordinator here); empty when neither lists it.
     */
    Optional<ListGroupsResponseData.ListedGroup> listed(Caller caller, String groupId) {
        ListGroupsRequestData request = new ListGroupsRequestData().setStatesFilter(new ArrayList<>())
            .setTypesFilter(new ArrayList<>());
        ListGroupsResponseData here = reads.kafka().call(caller, ApiMessageType.LIST_GROUPS, LIST_GROUPS_VERSION,
            request);
        KafkaErrors.check(here.errorCode(), null, "cannot list the groups");
        Optional<ListGroupsResponseData.ListedGroup> found = here.groups().stream()
            .filter(g -> g.groupId().equals(groupId)).findFirst();
        if (found.isPresent()) {
            return found;
        }
        Integer node = coordinators(caller, List.of(groupId)).get(groupId);
        if (node == null || node == reads.forwarder().localNodeId()) {
            return Optional.empty();
        }
        Forwarder.Reply<ListGroupsResponseData> reply = reads.forwarder().send1(node, request, LIST_GROUPS_VERSION,
            "ListGroups");
        return !reply.answered() ? Optional.empty() : reply.answer().groups().stream()
            .filter(g -> g.groupId().equals(groupId)).findFirst();
    }

    /**
     * The coordinator of each of {@code groups} the caller may describe, by FindCoordinator run here as the caller;
     * a group the caller may not describe, or without a coordinator now, is left out.
     */
    Map<String, Integer> coordinators(Caller caller, Collection<String> groups) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (groups.isEmpty()) {
            return out;
        }
        FindCoordinatorResponseData response = reads.kafka().call(caller, ApiMessageType.FIND_COORDINATOR,
            FIND_COORDINATOR_VERSION, new FindCoordinatorRequestData().setKeyType(GROUP_KEY)
                .setCoordinatorKeys(new ArrayList<>(groups)));
        for (FindCoordinatorResponseData.Coordinator c : response.coordinators()) {
            if (c.errorCode() == Errors.NONE && c.nodeId() >= 0) {
                out.put(c.key(), c.nodeId());
            }
        }
        return out;
    }

    /** DescribeGroups of {@code ids}: here, then at their coordinators for those another broker coordinates. */
    List<DescribeGroupsResponseData.DescribedGroup> describeGroups(Caller caller, List<String> ids) {
        DescribeGroupsResponseData here = reads.kafka().call(caller, ApiMessageType.DESCRIBE_GROUPS,
            DESCRIBE_GROUPS_VERSION, describeGroupsRequest(ids));
        List<DescribeGroupsResponseData.DescribedGroup> out = new ArrayList<>(here.groups());
        Map<Integer, List<String>> byNode = elsewhere(caller, out.stream()
            .filter(g -> g.errorCode() == Errors.NOT_COORDINATOR).map(DescribeGroupsResponseData.DescribedGroup::groupId)
            .toList());
        List<Forwarder.Ask> asks = new ArrayList<>();
        byNode.forEach((node, groups) -> asks.add(new Forwarder.Ask(node, describeGroupsRequest(groups))));
        List<Forwarder.Reply<DescribeGroupsResponseData>> replies = reads.forwarder().sendAll(asks,
            DESCRIBE_GROUPS_VERSION, "DescribeGroups");
        for (int i = 0; i < replies.size(); i++) {
            Forwarder.Reply<DescribeGroupsResponseData> reply = replies.get(i);
            List<String> asked = ((DescribeGroupsRequestData) asks.get(i).request()).groups();
            for (String id : asked) {
                DescribeGroupsResponseData.DescribedGroup answer = reply.answered()
                    ? reply.answer().groups().stream().filter(g -> g.groupId().equals(id)).findFirst().orElse(null)
                    : null;
                replace(out, id, answer != null ? answer : new DescribeGroupsResponseData.DescribedGroup().setGroupId(id)
                    .setErrorCode(Errors.NETWORK_EXCEPTION).setErrorMessage(reply.answered() ? "broker "
                        + reply.nodeId() + " did not describe it" : reply.failure()).setMembers(new ArrayList<>()));
            }
        }
        return out;
    }

    private static DescribeGroupsRequestData describeGroupsRequest(List<String> ids) {
        return new DescribeGroupsRequestData().setGroups(new ArrayList<>(ids)).setIncludeAuthorizedOperations(false);
    }

    private static void replace(List<DescribeGroupsResponseData.DescribedGroup> groups, String id,
                                DescribeGroupsResponseData.DescribedGroup by) {
        groups.replaceAll(g -> g.groupId().equals(id) ? by : g);
    }

    /** ConsumerGroupDescribe of {@code ids}, as {@link #describeGroups}. */
    List<ConsumerGroupDescribeResponseData.DescribedGroup> describeConsumerGroups(Caller caller, List<String> ids) {
        ConsumerGroupDescribeResponseData here = reads.kafka().call(caller, ApiMessageType.CONSUMER_GROUP_DESCRIBE,
            CONSUMER_GROUP_DESCRIBE_VERSION, consumerGroupDescribeRequest(ids));
        List<ConsumerGroupDescribeResponseData.DescribedGroup> out = new ArrayList<>(here.groups());
        Map<Integer, List<String>> byNode = elsewhere(caller, out.stream()
            .filter(g -> g.errorCode() == Errors.NOT_COORDINATOR)
            .map(ConsumerGroupDescribeResponseData.DescribedGroup::groupId).toList());
        List<Forwarder.Ask> asks = new ArrayList<>();
        byNode.forEach((node, groups) -> asks.add(new Forwarder.Ask(node, consumerGroupDescribeRequest(groups))));
        List<Forwarder.Reply<ConsumerGroupDescribeResponseData>> replies = reads.forwarder().sendAll(asks,
            CONSUMER_GROUP_DESCRIBE_VERSION, "ConsumerGroupDescribe");
        Supplier<Set<String>> describable = describableTopics(caller);
        for (int i = 0; i < replies.size(); i++) {
            Forwarder.Reply<ConsumerGroupDescribeResponseData> reply = replies.get(i);
            for (String id : ((ConsumerGroupDescribeRequestData) asks.get(i).request()).groupIds()) {
                ConsumerGroupDescribeResponseData.DescribedGroup answer = reply.answered()
                    ? reply.answer().groups().stream().filter(g -> g.groupId().equals(id)).findFirst().orElse(null)
                    : null;
                ConsumerGroupDescribeResponseData.DescribedGroup by;
                if (answer == null) {
                    by = new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(id)
                        .setErrorCode(Errors.NETWORK_EXCEPTION).setErrorMessage(reply.answered() ? "broker "
                            + reply.nodeId() + " did not describe it" : reply.failure());
                } else if (answer.errorCode() == Errors.NONE && !describable.get().containsAll(topics(answer))) {
                    // As ConsumerGroupDescribe here: every topic of the group must be describable by the caller.
                    by = new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(id)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED)
                        .setErrorMessage("The described group uses topics that the client is not authorized to describe.");
                } else {
                    by = answer;
                }
                out.replaceAll(g -> g.groupId().equals(id) ? by : g);
            }
        }
        return out;
    }

    private static ConsumerGroupDescribeRequestData consumerGroupDescribeRequest(List<String> ids) {
        return new ConsumerGroupDescribeRequestData().setGroupIds(new ArrayList<>(ids))
            .setIncludeAuthorizedOperations(false);
    }

    private static Set<String> topics(ConsumerGroupDescribeResponseData.DescribedGroup g) {
        Set<String> out = new HashSet<>();
        for (ConsumerGroupDescribeResponseData.Member m : g.members()) {
            if (m.subscribedTopicNames() != null) {
                out.addAll(m.subscribedTopicNames());
            }
            for (ConsumerGroupDescribeResponseData.Assignment a : List.of(m.assignment(), m.targetAssignment())) {
                if (a != null) {
                    a.topicPartitions().forEach(tp -> out.add(tp.topicName()));
                }
            }
        }
        return out;
    }

    /**
     * OffsetFetch (every committed offset) of {@code groups}: here, then at their coordinators for those another
     * broker coordinates, keeping only the topics the caller may describe (as OffsetFetch does here).
     */
    Fetched offsetFetch(Caller caller, List<String> groups) {
        OffsetFetchResponseData here = reads.kafka().call(caller, ApiMessageType.OFFSET_FETCH, OFFSET_FETCH_VERSION,
            offsetFetchRequest(groups));
        List<OffsetFetchResponseData.OffsetFetchResponseGroup> out = new ArrayList<>(here.groups());
        Map<Integer, List<String>> byNode = elsewhere(caller, out.stream()
            .filter(g -> g.errorCode() == Errors.NOT_COORDINATOR)
            .map(OffsetFetchResponseData.OffsetFetchResponseGroup::groupId).toList());
        List<Forwarder.Ask> asks = new ArrayList<>();
        byNode.forEach((node, ids) -> asks.add(new Forwarder.Ask(node, offsetFetchRequest(ids))));
        List<Forwarder.Reply<OffsetFetchResponseData>> replies = reads.forwarder().sendAll(asks, OFFSET_FETCH_VERSION,
            "OffsetFetch");
        Supplier<Set<String>> describable = describableTopics(caller);
        Map<String, String> failures = new LinkedHashMap<>();
        for (int i = 0; i < replies.size(); i++) {
            Forwarder.Reply<OffsetFetchResponseData> reply = replies.get(i);
            if (!reply.answered()) {
                for (OffsetFetchRequestData.OffsetFetchRequestGroup g
                        : ((OffsetFetchRequestData) asks.get(i).request()).groups()) {
                    failures.put(g.groupId(), reply.failure());
                }
                continue;
            }
            for (OffsetFetchResponseData.OffsetFetchResponseGroup g : reply.answer().groups()) {
                g.topics().removeIf(t -> !describable.get().contains(t.name()));
                out.replaceAll(o -> o.groupId().equals(g.groupId()) ? g : o);
            }
        }
        return new Fetched(out, failures);
    }

    /** OffsetFetch's groups, and why a group's coordinator (another broker) gave no answer. */
    record Fetched(List<OffsetFetchResponseData.OffsetFetchResponseGroup> groups, Map<String, String> failures) {
    }

    private static OffsetFetchRequestData offsetFetchRequest(List<String> groups) {
        List<OffsetFetchRequestData.OffsetFetchRequestGroup> request = new ArrayList<>();
        for (String g : groups) {
            request.add(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId(g).setTopics(null));
        }
        return new OffsetFetchRequestData().setGroups(request).setRequireStable(false);
    }

    /** The groups of {@code ids} (answered NOT_COORDINATOR here) by the other broker that coordinates them. */
    private Map<Integer, List<String>> elsewhere(Caller caller, List<String> ids) {
        Map<Integer, List<String>> byNode = new TreeMap<>();
        coordinators(caller, ids).forEach((id, node) -> {
            if (node != reads.forwarder().localNodeId()) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(id);
            }
        });
        return byNode;
    }

    /** The topics the caller may describe (Metadata of all topics, run here as the caller), read once when asked. */
    private Supplier<Set<String>> describableTopics(Caller caller) {
        Set<String>[] memo = new Set[1];
        return () -> {
            if (memo[0] == null) {
                Set<String> names = new HashSet<>();
                for (MetadataResponseData.MetadataResponseTopic t : reads.metadata(caller, null).topics()) {
                    if (t.errorCode() == Errors.NONE) {
                        names.add(t.name());
                    }
                }
                memo[0] = names;
            }
            return memo[0];
        };
    }
}
