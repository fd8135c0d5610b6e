package io.kaas.broker.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.admin.Answer;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.CreateTopicsRequestData;
import io.kaas.wire.message.CreateTopicsResponseData;
import io.kaas.wire.message.DeleteRecordsRequestData;
import io.kaas.wire.message.DeleteRecordsResponseData;
import io.kaas.wire.message.IncrementalAlterConfigsRequestData;
import io.kaas.wire.message.IncrementalAlterConfigsResponseData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's topic actions, each the Kafka API an Admin client would send, run in-process as the caller:
 * {@code POST /api/v1/topics} (CreateTopics: CREATE on the cluster or topic), {@code PATCH
 * /api/v1/topics/{name}/configs} (IncrementalAlterConfigs: ALTER_CONFIGS on the topic) and {@code POST
 * /api/v1/topics/{name}/delete-records} (DeleteRecords: DELETE on the topic).
 */
final class TopicActions {

    private static final Logger LOG = LoggerFactory.getLogger(TopicActions.class);
    private static final int CREATE_TOPICS_VERSION = 7;
    private static final int INCREMENTAL_ALTER_CONFIGS_VERSION = 1;
    private static final int DELETE_RECORDS_VERSION = 2;
    private static final int TIMEOUT_MS = 30_000;
    private static final byte SET = 0;
    private static final byte DELETE = 1;

    private final ClusterReads reads;
    private final TopicsResource topics;

    TopicActions(ClusterReads reads, TopicsResource topics) {
        this.reads = reads;
        this.topics = topics;
    }

    Answer create(ConsoleCall call) {
        JsonNode body = call.body();
        String name = Json.requiredText(body, "name");
        long partitions = Json.requiredLong(body, "partitions");
        if (partitions < 1 || partitions > Integer.MAX_VALUE) {
            throw new ApiError(400, "INVALID_PARTITIONS", "topic '" + name + "': partitions must be at least 1, not "
                + partitions);
        }
        Integer replication = Json.optionalInt(body, "replicationFactor", -1);
        if (replication != -1 && (replication < 1 || replication > Short.MAX_VALUE)) {
            throw new ApiError(400, "INVALID_REPLICATION_FACTOR", "topic '" + name
                + "': replicationFactor must be at least 1, not " + replication);
        }
        List<CreateTopicsRequestData.CreatableTopicConfig> configs = new ArrayList<>();
        for (Map.Entry<String, String> e : stringMap(body, "configs").entrySet()) {
            configs.add(new CreateTopicsRequestData.CreatableTopicConfig().setName(e.getKey()).setValue(e.getValue()));
        }
        CreateTopicsRequestData request = new CreateTopicsRequestData().setTimeoutMs(TIMEOUT_MS).setValidateOnly(false)
            .setTopics(new ArrayList<>(List.of(new CreateTopicsRequestData.CreatableTopic().setName(name)
                .setNumPartitions((int) partitions).setReplicationFactor(replication.shortValue())
                .setAssignments(new ArrayList<>()).setConfigs(configs))));
        CreateTopicsResponseData response = reads.kafka().call(call.caller(), ApiMessageType.CREATE_TOPICS,
            CREATE_TOPICS_VERSION, request);
        for (CreateTopicsResponseData.CreatableTopicResult r : response.topics()) {
            KafkaErrors.check(r.errorCode(), r.errorMessage(), "cannot create topic '" + name + "'");
        }
        LOG.atInfo().addKeyValue("topic", name).addKeyValue("principal", call.caller().principal())
            .log("console: {} created topic '{}' with {} partitions", call.caller(), name, partitions);
        Answer detail = topics.get(call, name);
        return new Answer(201, detail.contentType(), detail.body(), Map.of("Location", "/api/v1/topics/" + name));
    }

    Answer alterConfigs(ConsoleCall call, String topic) {
        JsonNode body = call.body();
        Map<String, String> set = stringMap(body, "set");
        List<String> delete = new ArrayList<>();
        JsonNode d = body.get("delete");
        if (d != null && !d.isNull()) {
            if (!d.isArray()) {
                throw ApiError.badRequest("field 'delete' must be an array of config names");
            }
            for (JsonNode n : d) {
                if (!n.isTextual()) {
                    throw ApiError.badRequest("field 'delete' must be an array of config names");
                }
                delete.add(n.asText());
            }
        }
        if (set.isEmpty() && delete.isEmpty()) {
            throw ApiError.badRequest("nothing to change: give 'set' and/or 'delete'");
        }
        List<IncrementalAlterConfigsRequestData.AlterableConfig> ops = new ArrayList<>();
        set.forEach((k, v) -> ops.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName(k)
            .setConfigOperation(SET).setValue(v)));
        for (String k : delete) {
            ops.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName(k).setConfigOperation(DELETE)
                .setValue(null));
        }
        IncrementalAlterConfigsRequestData request = new IncrementalAlterConfigsRequestData().setValidateOnly(false)
            .setResources(new ArrayList<>(List.of(new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                .setResourceType(ClusterReads.TOPIC_RESOURCE).setResourceName(topic).setConfigs(ops))));
        IncrementalAlterConfigsResponseData response = reads.kafka().call(call.caller(),
            ApiMessageType.INCREMENTAL_ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS_VERSION, request);
        for (IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse r : response.responses()) {
            if (r.errorCode() == io.kaas.wire.protocol.Errors.UNKNOWN_TOPIC_OR_PARTITION) {
                throw new ApiError(404, "UNKNOWN_TOPIC_OR_PARTITION", "topic '" + topic + "' does not exist");
            }
            KafkaErrors.check(r.errorCode(), r.errorMessage(), "cannot change the configs of topic '" + topic + "'");
        }
        LOG.atInfo().addKeyValue("topic", topic).addKeyValue("principal", call.caller().principal())
            .log("console: {} changed the configs of topic '{}': set {}, deleted {}", call.caller(), topic,
                set.keySet(), delete);
        return Json.answer(200, Map.of("configs", topics.configs(call.caller(), topic)));
    }

    Answer deleteRecords(ConsoleCall call, String topic) {
        JsonNode body = call.body();
        long partition = Json.requiredLong(body, "partition");
        long before = Json.requiredLong(body, "beforeOffset");
        if (partition < 0 || partition > Integer.MAX_VALUE) {
            throw ApiError.badRequest("partition must be a partition number, not " + partition);
        }
        if (before < 0) {
            throw new ApiError(416, "OFFSET_OUT_OF_RANGE", "beforeOffset must be an offset (0 or more), not " + before);
        }
        DeleteRecordsRequestData request = new DeleteRecordsRequestData().setTimeoutMs(TIMEOUT_MS)
            .setTopics(new ArrayList<>(List.of(new DeleteRecordsRequestData.DeleteRecordsTopic().setName(topic)
                .setPartitions(new ArrayList<>(List.of(new DeleteRecordsRequestData.DeleteRecordsPartition()
                    .setPartitionIndex((int) partition).setOffset(before)))))));
        DeleteRecordsResponseData response = reads.kafka().call(call.caller(), ApiMessageType.DELETE_RECORDS,
            DELETE_RECORDS_VERSION, request);
        // NOT_LEADER_OR_FOLLOWER comes after the caller's DELETE was checked: the leader deletes them.
        java.util.Optional<Integer> leader = response.topics().stream().flatMap(t -> t.partitions().stream())
            .anyMatch(p -> p.errorCode() == io.kaas.wire.protocol.Errors.NOT_LEADER_OR_FOLLOWER)
            ? reads.forwarder().remoteLeader(topic, (int) partition) : java.util.Optional.empty();
        if (leader.isPresent()) {
            Forwarder.Reply<DeleteRecordsResponseData> reply = reads.forwarder().send1(leader.get(), request,
                DELETE_RECORDS_VERSION, "DeleteRecords of partition " + partition + " of topic '" + topic + "'");
            if (!reply.answered()) {
                throw Forwarder.unanswered(reply.failure());
            }
            response = reply.answer();
        }
        for (DeleteRecordsResponseData.DeleteRecordsTopicResult t : response.topics()) {
            for (DeleteRecordsResponseData.DeleteRecordsPartitionResult p : t.partitions()) {
                if (p.errorCode() == io.kaas.wire.protocol.Errors.OFFSET_OUT_OF_RANGE) {
                    throw new ApiError(416, "OFFSET_OUT_OF_RANGE", "beforeOffset " + before + " is past the end of "
                        + "partition " + partition + " of topic '" + topic + "'");
                }
                if (p.errorCode() == io.kaas.wire.protocol.Errors.UNKNOWN_TOPIC_OR_PARTITION) {
                    throw new ApiError(404, "UNKNOWN_TOPIC_OR_PARTITION", "partition " + partition + " of topic '"
                        + topic + "' does not exist");
                }
                KafkaErrors.check(p.errorCode(), null, "cannot delete the records of partition " + partition
                    + " of topic '" + topic + "' before offset " + before);
                LOG.atInfo().addKeyValue("topic", topic).addKeyValue("partition", partition)
                    .addKeyValue("principal", call.caller().principal())
                    .log("console: {} deleted the records of partition {} of topic '{}' before offset {}",
                        call.caller(), partition, topic, before);
                return Json.answer(200, Map.of("lowWatermark", p.lowWatermark()));
            }
        }
        throw new ApiError(500, "UNKNOWN_SERVER_ERROR", "DeleteRecords answered nothing for partition " + partition
            + " of topic '" + topic + "'");
    }

    /** Field {@code name} of {@code body} as a map of strings; absent or null is empty. */
    static Map<String, String> stringMap(JsonNode body, String name) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode n = body.get(name);
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw ApiError.badRequest("field '" + name + "' must be an object of string values");
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (!e.getValue().isTextual()) {
                throw ApiError.badRequest("field '" + name + "." + e.getKey() + "' must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
