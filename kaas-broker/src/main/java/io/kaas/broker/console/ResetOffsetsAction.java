package io.kaas.broker.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.admin.Answer;
import io.kaas.broker.console.ClusterReads.Offset;
import io.kaas.broker.console.ClusterReads.Partition;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.message.OffsetCommitRequestData;
import io.kaas.wire.message.OffsetCommitResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/v1/groups/{id}/reset-offsets}, as {@code kafka-consumer-groups --reset-offsets --execute}: refused
 * (409 NON_EMPTY_GROUP) while the group has members; the new offsets (earliest, latest, an offset, or the first
 * offset at a timestamp: ListOffsets, DESCRIBE on the topic) are committed with OffsetCommit run in-process as the
 * caller (READ on the group and on the topic), generation -1 and no member, as the Admin client's
 * alterConsumerGroupOffsets. An offset outside a partition's range is refused (416), not clamped.
 */
final class ResetOffsetsAction {

    private static final Logger LOG = LoggerFactory.getLogger(ResetOffsetsAction.class);
    private static final int OFFSET_COMMIT_VERSION = 8;
    private static final Set<String> EMPTY_STATES = Set.of("Empty", "Dead", "empty", "dead");

    private final ClusterReads reads;
    private final TopicsResource topics;
    private final GroupsResource groups;
    private final GroupReads groupReads;

    ResetOffsetsAction(ClusterReads reads, TopicsResource topics, GroupsResource groups) {
        this.reads = reads;
        this.topics = topics;
        this.groups = groups;
        this.groupReads = new GroupReads(reads);
    }

    Answer reset(ConsoleCall call, String groupId) {
        JsonNode body = call.body();
        String topic = Json.requiredText(body, "topic");
        String to = Json.requiredText(body, "to");
        if (!Set.of("earliest", "latest", "offset", "timestamp").contains(to)) {
            throw ApiError.badRequest("field 'to' must be earliest, latest, offset or timestamp, not '" + to + "'");
        }
        Long value = null;
        if (to.equals("offset") || to.equals("timestamp")) {
            value = Json.requiredLong(body, "value");
        }
        Caller caller = call.caller();
        MetadataResponseData.MetadataResponseTopic t = topics.describe(caller, topic);
        List<Integer> all = t.partitions().stream().map(MetadataResponseData.MetadataResponsePartition::partitionIndex)
            .sorted().toList();
        List<Integer> chosen = new ArrayList<>();
        JsonNode ps = body.get("partitions");
        if (ps == null || ps.isNull()) {
            chosen.addAll(all);
        } else {
            if (!ps.isArray() || ps.isEmpty()) {
                throw ApiError.badRequest("field 'partitions' must be a non-empty array of partition numbers, or null "
                    + "for all");
            }
            for (JsonNode p : ps) {
                if (!p.isIntegralNumber() || !p.canConvertToInt()) {
                    throw ApiError.badRequest("field 'partitions' must hold partition numbers");
                }
                if (!all.contains(p.asInt())) {
                    throw new ApiError(404, "UNKNOWN_TOPIC_OR_PARTITION", "partition " + p.asInt() + " of topic '"
                        + topic + "' does not exist (it has " + all.size() + " partitions)");
                }
                chosen.add(p.asInt());
            }
        }
        GroupsResource.Described group = describeOrNew(caller, groupId);
        if (group != null && !group.members().isEmpty() || group != null && !EMPTY_STATES.contains(group.state())) {
            throw new ApiError(409, "NON_EMPTY_GROUP", "group '" + groupId + "' is " + group.state() + " with "
                + group.members().size() + " member(s): stop its consumers before resetting its offsets");
        }
        List<Partition> keys = chosen.stream().map(p -> new Partition(topic, p)).toList();
        List<Map<Partition, Offset>> listed = to.equals("timestamp")
            ? reads.offsets(caller, keys, false, ClusterReads.EARLIEST, ClusterReads.LATEST, value)
            : reads.offsets(caller, keys, false, ClusterReads.EARLIEST, ClusterReads.LATEST);
        Map<Partition, Offset> starts = listed.get(0);
        Map<Partition, Offset> ends = listed.get(1);
        Map<Partition, Offset> atTime = to.equals("timestamp") ? listed.get(2) : Map.of();
        Map<Integer, Long> target = new TreeMap<>();
        for (Partition k : keys) {
            long start = offset(starts.get(k), k);
            long end = offset(ends.get(k), k);
            long o = switch (to) {
                case "earliest" -> start;
                case "latest" -> end;
                case "offset" -> value;
                default -> {
                    Offset hit = atTime.get(k);
                    yield hit == null || hit.errorCode() != Errors.NONE || hit.offset() < 0 ? end : hit.offset();
                }
            };
            if (o < start || o > end) {
                throw new ApiError(416, "OFFSET_OUT_OF_RANGE", "offset " + o + " is outside partition " + k.partition()
                    + "'s range [" + start + ", " + end + ")");
            }
            target.put(k.partition(), o);
        }
        List<OffsetCommitRequestData.OffsetCommitRequestPartition> parts = new ArrayList<>();
        target.forEach((p, o) -> parts.add(new OffsetCommitRequestData.OffsetCommitRequestPartition()
            .setPartitionIndex(p).setCommittedOffset(o).setCommittedLeaderEpoch(-1).setCommittedMetadata("")));
        OffsetCommitRequestData request = new OffsetCommitRequestData().setGroupId(groupId)
            .setGenerationIdOrMemberEpoch(-1).setMemberId("").setGroupInstanceId(null).setRetentionTimeMs(-1)
            .setTopics(new ArrayList<>(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(topic)
                .setPartitions(parts))));
        OffsetCommitResponseData response = reads.kafka().call(caller, ApiMessageType.OFFSET_COMMIT,
            OFFSET_COMMIT_VERSION, request);
        response = toCoordinator(caller, groupId, request, response);
        for (OffsetCommitResponseData.OffsetCommitResponseTopic rt : response.topics()) {
            for (OffsetCommitResponseData.OffsetCommitResponsePartition rp : rt.partitions()) {
                if (rp.errorCode() == Errors.GROUP_AUTHORIZATION_FAILED) {
                    throw new ApiError(403, "GROUP_AUTHORIZATION_FAILED", caller.principal()
                        + " is not authorized to commit offsets of group '" + groupId + "'");
                }
                if (rp.errorCode() == Errors.TOPIC_AUTHORIZATION_FAILED) {
                    throw new ApiError(403, "TOPIC_AUTHORIZATION_FAILED", caller.principal()
                        + " is not authorized to read topic '" + topic + "'");
                }
                if (rp.errorCode() == Errors.UNKNOWN_MEMBER_ID || rp.errorCode() == Errors.ILLEGAL_GENERATION) {
                    throw new ApiError(409, "NON_EMPTY_GROUP", "group '" + groupId
                        + "' has members again: stop its consumers before resetting its offsets");
                }
                KafkaErrors.check(rp.errorCode(), null, "cannot commit the offset of partition " + rp.partitionIndex()
                    + " of topic '" + topic + "' for group '" + groupId + "'");
            }
        }
        LOG.atInfo().addKeyValue("group", groupId).addKeyValue("topic", topic)
            .addKeyValue("principal", caller.principal())
            .log("console: {} reset the offsets of group '{}' on topic '{}' to {}: {}", caller, groupId, topic, to,
                target);
        List<Map<String, Object>> offsets = new ArrayList<>();
        target.forEach((p, o) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partition", p);
            m.put("offset", o);
            offsets.add(m);
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("groupId", groupId);
        out.put("topic", topic);
        out.put("offsets", offsets);
        return Json.answer(200, out);
    }

    /**
     * The coordinator's answer when this broker's was NOT_COORDINATOR (given only once the caller's READ on the group
     * and the topic was checked): the same commit, sent to the group's coordinator over the inter-broker listener.
     */
    private OffsetCommitResponseData toCoordinator(Caller caller, String groupId, OffsetCommitRequestData request,
                                                   OffsetCommitResponseData here) {
        boolean elsewhere = here.topics().stream().flatMap(t -> t.partitions().stream())
            .anyMatch(p -> p.errorCode() == Errors.NOT_COORDINATOR);
        Integer node = elsewhere ? groupReads.coordinators(caller, List.of(groupId)).get(groupId) : null;
        if (node == null || node == reads.forwarder().localNodeId()) {
            return here;
        }
        Forwarder.Reply<OffsetCommitResponseData> reply = reads.forwarder().send1(node, request, OFFSET_COMMIT_VERSION,
            "OffsetCommit of group '" + groupId + "'");
        if (!reply.answered()) {
            throw Forwarder.unanswered(reply.failure() + " (the offsets may or may not have been reset)");
        }
        return reply.answer();
    }

    /** The group, or null when it does not exist yet (its offsets are then the first it has). */
    private GroupsResource.Described describeOrNew(Caller caller, String groupId) {
        try {
            return groups.describe(caller, groupId);
        } catch (ApiError e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    private static long offset(Offset o, Partition k) {
        if (o == null) {
            throw new ApiError(500, "UNKNOWN_SERVER_ERROR", "ListOffsets gave no answer for partition " + k.partition()
                + " of topic '" + k.topic() + "'");
        }
        if (o.failure() != null) {
            throw Forwarder.unanswered(o.failure());
        }
        KafkaErrors.check(o.errorCode(), null, "cannot list the offsets of partition " + k.partition() + " of topic '"
            + k.topic() + "'");
        return o.offset();
    }
}
