package io.kaas.broker.console;

import io.kaas.broker.admin.Answer;
import io.kaas.broker.console.ClusterReads.Offset;
import io.kaas.broker.console.ClusterReads.Partition;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.DescribeGroupsResponseData;
import io.kaas.wire.message.ListGroupsResponseData;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.protocol.Errors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/groups} and {@code GET /api/v1/groups/{id}}: the groups as ListGroups, DescribeGroups (classic
 * groups), ConsumerGroupDescribe (KIP-848 consumer groups) and OffsetFetch answer the caller (DESCRIBE on the group,
 * and on the topics), with each partition's lag: its end offset (ListOffsets, the high watermark, as
 * kafka-consumer-groups) minus the committed offset. In a cluster the groups other brokers coordinate and the end
 * offsets of partitions they lead are asked of them ({@link GroupReads}, {@link ClusterReads}).
 */
final class GroupsResource {

    private final ClusterReads reads;
    private final GroupReads groupReads;
    private final ChartsSampler charts;

    GroupsResource(ClusterReads reads, ChartsSampler charts) {
        this.reads = reads;
        this.groupReads = new GroupReads(reads);
        this.charts = charts;
    }

    /** A group as described: state, protocol, members and their assignments. */
    record Described(String groupId, String state, String protocol, String protocolType, String assignor,
                     List<Map<String, Object>> members, Set<Partition> assigned) {
    }

    Answer list(ConsoleCall call) {
        Caller caller = call.caller();
        GroupReads.Listed all = groupReads.listGroups(caller);
        List<ListGroupsResponseData.ListedGroup> listed = all.groups();
        List<String> classic = new ArrayList<>();
        List<String> consumer = new ArrayList<>();
        for (ListGroupsResponseData.ListedGroup g : listed) {
            (isConsumerProtocol(g) ? consumer : classic).add(g.groupId());
        }
        Map<String, Described> described = new HashMap<>();
        describeClassic(caller, classic).forEach(d -> described.put(d.groupId(), d));
        describeConsumer(caller, consumer).forEach(d -> described.put(d.groupId(), d));
        Map<String, List<Map<String, Object>>> offsets = offsets(caller, listed.stream()
            .map(ListGroupsResponseData.ListedGroup::groupId).toList(), described, new HashMap<>());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ListGroupsResponseData.ListedGroup g : listed) {
            Described d = described.get(g.groupId());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("groupId", g.groupId());
            row.put("state", d != null ? d.state() : g.groupState());
            row.put("protocol", isConsumerProtocol(g) ? "consumer" : "classic");
            row.put("protocolType", g.protocolType());
            row.put("members", d == null ? 0 : d.members().size());
            row.put("totalLag", totalLag(offsets.get(g.groupId())));
            rows.add(row);
        }
        rows.sort(Comparator.comparing(r -> (String) r.get("groupId")));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("groups", rows);
        body.put("errors", all.errors());
        return Json.answer(200, body);
    }

    Answer get(ConsoleCall call, String groupId) {
        Caller caller = call.caller();
        Described d = describe(caller, groupId);
        Map<String, String> failures = new HashMap<>();
        List<Map<String, Object>> offsets = offsets(caller, List.of(groupId), Map.of(groupId, d), failures)
            .getOrDefault(groupId, List.of());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("groupId", groupId);
        body.put("state", d.state());
        body.put("protocol", d.protocol());
        body.put("protocolType", d.protocolType());
        body.put("assignor", d.assignor());
        body.put("coordinator", groupReads.coordinators(caller, List.of(groupId)).get(groupId));
        body.put("members", d.members());
        body.put("offsets", offsets);
        body.put("totalLag", totalLag(offsets));
        body.put("lagHistory", charts.lagHistory(groupId));
        body.put("error", failures.get(groupId));
        return Json.answer(200, body);
    }

    /**
     * Group {@code groupId} as the caller may describe it.
     *
     * @throws ApiError 404 GROUP_ID_NOT_FOUND, 403 GROUP_AUTHORIZATION_FAILED
     */
    Described describe(Caller caller, String groupId) {
        ListGroupsResponseData.ListedGroup listed = groupReads.listed(caller, groupId).orElse(null);
        if (listed != null && isConsumerProtocol(listed)) {
            return describeConsumer(caller, List.of(groupId)).get(0);
        }
        Described d = describeClassic(caller, List.of(groupId)).get(0);
        if (listed == null && "Dead".equals(d.state())) {
            throw new ApiError(404, "GROUP_ID_NOT_FOUND", "group '" + groupId + "' does not exist");
        }
        return d;
    }

    private static boolean isConsumerProtocol(ListGroupsResponseData.ListedGroup g) {
        return "consumer".equals(g.groupType());
    }

    private List<Described> describeClassic(Caller caller, List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<Described> out = new ArrayList<>();
        for (DescribeGroupsResponseData.DescribedGroup g : groupReads.describeGroups(caller, ids)) {
            checkGroup(g.errorCode(), g.errorMessage(), caller, g.groupId());
            List<Map<String, Object>> members = new ArrayList<>();
            Set<Partition> assigned = new LinkedHashSet<>();
            for (DescribeGroupsResponseData.DescribedGroupMember m : g.members()) {
                List<Partition> parts = "consumer".equals(g.protocolType())
                    ? assignment(m.memberAssignment()) : List.of();
                assigned.addAll(parts);
                members.add(member(m.memberId(), m.clientId(), m.clientHost(), parts));
            }
            out.add(new Described(g.groupId(), g.groupState(), "classic", g.protocolType(),
                g.protocolData() == null || g.protocolData().isEmpty() ? null : g.protocolData(), members, assigned));
        }
        return out;
    }

    private List<Described> describeConsumer(Caller caller, List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<Described> out = new ArrayList<>();
        for (ConsumerGroupDescribeResponseData.DescribedGroup g : groupReads.describeConsumerGroups(caller, ids)) {
            checkGroup(g.errorCode(), g.errorMessage(), caller, g.groupId());
            List<Map<String, Object>> members = new ArrayList<>();
            Set<Partition> assigned = new LinkedHashSet<>();
            for (ConsumerGroupDescribeResponseData.Member m : g.members()) {
                List<Partition> parts = new ArrayList<>();
                if (m.assignment() != null) {
                    for (ConsumerGroupDescribeResponseData.TopicPartitions tp : m.assignment().topicPartitions()) {
                        for (int p : tp.partitions()) {
                            parts.add(new Partition(tp.topicName(), p));
                        }
                    }
                }
                assigned.addAll(parts);
                members.add(member(m.memberId(), m.clientId(), m.clientHost(), parts));
            }
            out.add(new Described(g.groupId(), g.groupState(), "consumer", "consumer", g.assignorName(), members,
                assigned));
        }
        return out;
    }

    private static void checkGroup(short code, String message, Caller caller, String groupId) {
        if (code == Errors.GROUP_AUTHORIZATION_FAILED) {
            throw new ApiError(403, "GROUP_AUTHORIZATION_FAILED", caller.principal()
                + " is not authorized to describe group '" + groupId + "'");
        }
        if (code == Errors.GROUP_ID_NOT_FOUND) {
            throw new ApiError(404, "GROUP_ID_NOT_FOUND", "group '" + groupId + "' does not exist");
        }
        KafkaErrors.check(code, message, "cannot describe group '" + groupId + "'");
    }

    private static Map<String, Object> member(String id, String clientId, String host, List<Partition> parts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("memberId", id);
        m.put("clientId", clientId);
        m.put("host", host);
        List<Map<String, Object>> a = new ArrayList<>();
        parts.stream().sorted(Comparator.comparing(Partition::topic).thenComparingInt(Partition::partition))
            .forEach(p -> a.add(Map.of("topic", p.topic(), "partition", p.partition())));
        m.put("assignments", a);
        return m;
    }

    /** The partitions of a consumer-protocol assignment (ConsumerProtocolAssignment v0-3), empty if malformed. */
    static List<Partition> assignment(byte[] bytes) {
        List<Partition> out = new ArrayList<>();
        if (bytes == null || bytes.length < 6) {
            return out;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            b.getShort(); // version
            int topics = b.getInt();
            for (int i = 0; i < topics; i++) {
                short len = b.getShort();
                byte[] name = new byte[len];
                b.get(name);
                String topic = new String(name, StandardCharsets.UTF_8);
                int n = b.getInt();
                for (int j = 0; j < n; j++) {
                    out.add(new Partition(topic, b.getInt()));
                }
            }
        } catch (RuntimeException e) {
            return List.of();
        }
        return out;
    }

    /** Per group: its committed offsets (and partitions assigned without one) with end offset and lag. */
    private Map<String, List<Map<String, Object>>> offsets(Caller caller, List<String> groups,
                                                           Map<String, Described> described,
                                                           Map<String, String> failures) {
        Map<String, List<Map<String, Object>>> out = new HashMap<>();
        if (groups.isEmpty()) {
            return out;
        }
        GroupReads.Fetched fetched = groupReads.offsetFetch(caller, groups);
        failures.putAll(fetched.failures());
        Map<String, Map<Partition, Long>> committed = new HashMap<>();
        Set<Partition> all = new LinkedHashSet<>();
        for (OffsetFetchResponseData.OffsetFetchResponseGroup g : fetched.groups()) {
            if (g.errorCode() != Errors.NONE) {
                continue;
            }
            Map<Partition, Long> c = new HashMap<>();
            for (OffsetFetchResponseData.OffsetFetchResponseTopics t : g.topics()) {
                for (OffsetFetchResponseData.OffsetFetchResponsePartitions p : t.partitions()) {
                    if (p.errorCode() == Errors.NONE && p.committedOffset() >= 0) {
                        Partition key = new Partition(t.name(), p.partitionIndex());
                        c.put(key, p.committedOffset());
                        all.add(key);
                    }
                }
            }
            committed.put(g.groupId(), c);
        }
        for (Described d : described.values()) {
            all.addAll(d.assigned());
        }
        Map<Partition, Offset> ends = reads.offsets(caller, all, ClusterReads.LATEST, false);
        for (String g : groups) {
            Map<Partition, Long> c = committed.getOrDefault(g, Map.of());
            Set<Partition> keys = new LinkedHashSet<>(c.keySet());
            Described d = described.get(g);
            if (d != null) {
                keys.addAll(d.assigned());
            }
            List<Partition> sorted = new ArrayList<>(keys);
            sorted.sort(Comparator.comparing(Partition::topic).thenComparingInt(Partition::partition));
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Partition p : sorted) {
                Offset e = ends.get(p);
                Long end = e == null || e.errorCode() != Errors.NONE ? null : e.offset();
                Long com = c.get(p);
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("topic", p.topic());
                row.put("partition", p.partition());
                row.put("committed", com);
                row.put("endOffset", end);
                row.put("lag", com == null || end == null ? null : Math.max(0, end - com));
                rows.add(row);
            }
            out.put(g, rows);
        }
        return out;
    }

    private static long totalLag(List<Map<String, Object>> offsets) {
        long total = 0;
        if (offsets != null) {
            for (Map<String, Object> o : offsets) {
                if (o.get("lag") instanceof Long l) {
                    total += l;
                }
            }
        }
        return total;
    }
}
