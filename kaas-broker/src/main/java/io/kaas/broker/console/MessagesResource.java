package io.kaas.broker.console;

import io.kaas.broker.admin.Answer;
import io.kaas.broker.console.ClusterReads.Offset;
import io.kaas.broker.console.ClusterReads.Partition;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The message browser: {@code GET /api/v1/topics/{name}/messages} (newest, from an offset or from a timestamp, one
 * partition or all) and {@code GET /api/v1/topics/{name}/partitions/{p}/messages/{offset}} (one message,
 * untruncated). Records are read with Fetch run in-process as the caller (READ on the topic), read_committed: no
 * control records, no records of aborted transactions, nothing past the last stable offset. A partition another
 * broker leads is read from that broker ({@link Forwarder}) once this broker's Fetch, run as the caller, has allowed
 * it (it answers NOT_LEADER_OR_FOLLOWER only after the READ check); a leader that does not answer in time is
 * answered 504 NETWORK_EXCEPTION for one partition, and listed in {@code errors} when all are read.
 */
final class MessagesResource {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    static final int DEFAULT_MAX_BYTES = 4096;
    private static final int FETCH_VERSION = 12;
    private static final int PARTITION_FETCH_BYTES = 1024 * 1024;
    private static final int MAX_FETCHES = 16;

    private final ClusterReads reads;
    private final TopicsResource topics;

    MessagesResource(ClusterReads reads, TopicsResource topics) {
        this.reads = reads;
        this.topics = topics;
    }

    /** One record as shown, with the partition it came from. */
    private record Shown(int partition, FetchedRecords.Record record) {
    }

    Answer browse(ConsoleCall call, String topic) {
        Caller caller = call.caller();
        int limit = (int) call.longParam("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        int maxBytes = (int) call.longParam("maxBytes", DEFAULT_MAX_BYTES, 1, Integer.MAX_VALUE);
        String from = call.param("from") == null ? "newest" : call.param("from");
        if (!from.equals("newest") && !from.equals("offset") && !from.equals("timestamp")) {
            throw ApiError.badRequest("parameter 'from' must be newest, offset or timestamp, not '" + from + "'");
        }
        MetadataResponseData.MetadataResponseTopic t = topics.describe(caller, topic);
        List<Integer> partitions = selectPartitions(call.param("partition"), t, topic);
        if (from.equals("offset") && partitions.size() != 1) {
            throw ApiError.badRequest("from=offset needs one partition (parameter 'partition')");
        }
        if (from.equals("offset") && call.param("offset") == null) {
            throw ApiError.badRequest("from=offset needs parameter 'offset'");
        }
        long ts = -1;
        if (from.equals("timestamp")) {
            ts = call.longParam("timestamp", -1, 0, Long.MAX_VALUE);
            if (call.param("timestamp") == null) {
                throw ApiError.badRequest("from=timestamp needs parameter 'timestamp' (epoch milliseconds)");
            }
        }
        List<Partition> keys = partitions.stream().map(p -> new Partition(topic, p)).toList();
        List<Map<Partition, Offset>> listed = from.equals("timestamp")
            ? reads.offsets(caller, keys, true, ClusterReads.EARLIEST, ClusterReads.LATEST, ts)
            : reads.offsets(caller, keys, true, ClusterReads.EARLIEST, ClusterReads.LATEST);
        Map<Partition, Offset> starts = listed.get(0);
        Map<Partition, Offset> ends = listed.get(1);
        Map<Partition, Offset> atTime = from.equals("timestamp") ? listed.get(2) : null;
        List<Shown> shown = new ArrayList<>();
        List<Map<String, Object>> errors = new ArrayList<>();
        Map<String, Long> next = new TreeMap<>(Comparator.comparingInt(Integer::parseInt));
        for (Partition key : keys) {
            try {
                long begin = begin(call, from, limit, key, starts.get(key), ends.get(key), atTime);
                long after = begin;
                for (FetchedRecords.Record r : read(caller, key, begin, offsetOf(ends.get(key), key), limit)) {
                    shown.add(new Shown(key.partition(), r));
                    after = Math.max(after, r.offset() + 1);
                }
                next.put(Integer.toString(key.partition()), after);
            } catch (ApiError e) {
                // A leader that did not answer: the other partitions are still shown.
                if (keys.size() == 1 || !Forwarder.UNANSWERED.equals(e.error())) {
                    throw e;
                }
                Map<String, Object> failed = new LinkedHashMap<>();
                failed.put("partition", key.partition());
                failed.put("error", e.getMessage());
                errors.add(failed);
            }
        }
        Comparator<Shown> order = Comparator.comparingLong((Shown s) -> s.record().timestamp())
            .thenComparingInt(Shown::partition).thenComparingLong(s -> s.record().offset());
        shown.sort(from.equals("newest") ? order.reversed() : order);
        List<Map<String, Object>> messages = new ArrayList<>();
        for (Shown s : shown.subList(0, Math.min(limit, shown.size()))) {
            messages.add(render(s.partition(), s.record(), maxBytes));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("messages", messages);
        body.put("next", Map.of("partition", next));
        body.put("errors", errors);
        return Json.answer(200, body);
    }

    /** The first offset shown of {@code key}. */
    private static long begin(ConsoleCall call, String from, int limit, Partition key, Offset startOffset,
                              Offset endOffset, Map<Partition, Offset> atTime) {
        long start = offsetOf(startOffset, key);
        long end = offsetOf(endOffset, key);
        if (from.equals("newest")) {
            return Math.max(start, end - limit);
        }
        if (from.equals("offset")) {
            long begin = call.longParam("offset", 0, Long.MIN_VALUE, Long.MAX_VALUE);
            checkRange(begin, start, end, key);
            return begin;
        }
        Offset o = atTime.get(key);
        return o == null || o.errorCode() != Errors.NONE || o.offset() < 0 ? end : Math.max(start, o.offset());
    }

    Answer one(ConsoleCall call, String topic, int partition, long offset) {
        Caller caller = call.caller();
        MetadataResponseData.MetadataResponseTopic t = topics.describe(caller, topic);
        selectPartitions(Integer.toString(partition), t, topic);
        Partition key = new Partition(topic, partition);
        List<Map<Partition, Offset>> listed = reads.offsets(caller, List.of(key), true, ClusterReads.EARLIEST,
            ClusterReads.LATEST);
        long start = offsetOf(listed.get(0).get(key), key);
        long end = offsetOf(listed.get(1).get(key), key);
        checkRange(offset, start, end, key);
        if (offset == end) {
            throw new ApiError(416, "OFFSET_OUT_OF_RANGE", "offset " + offset + " is outside partition " + partition
                + "'s range [" + start + ", " + end + ")");
        }
        for (FetchedRecords.Record r : read(caller, key, offset, end, 1)) {
            if (r.offset() == offset) {
                return Json.answer(200, render(partition, r, Integer.MAX_VALUE));
            }
        }
        throw new ApiError(404, "NOT_FOUND", "partition " + partition + " of topic '" + topic
            + "' holds no committed record at offset " + offset + " (compacted away, aborted, or a transaction marker)");
    }

    private static List<Integer> selectPartitions(String param, MetadataResponseData.MetadataResponseTopic t,
                                                  String topic) {
        List<Integer> all = t.partitions().stream().map(MetadataResponseData.MetadataResponsePartition::partitionIndex)
            .sorted().toList();
        if (param == null || param.isEmpty() || param.equals("all")) {
            return all;
        }
        int p;
        try {
            p = Integer.parseInt(param);
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("parameter 'partition' must be a partition number or all, not '" + param + "'");
        }
        if (!all.contains(p)) {
            throw new ApiError(404, "UNKNOWN_TOPIC_OR_PARTITION", "partition " + p + " of topic '" + topic
                + "' does not exist (it has " + all.size() + " partitions)");
        }
        return List.of(p);
    }

    private static long offsetOf(Offset o, Partition key) {
        if (o == null) {
            throw new ApiError(500, "UNKNOWN_SERVER_ERROR", "ListOffsets gave no answer for partition "
                + key.partition() + " of topic '" + key.topic() + "'");
        }
        if (o.failure() != null) {
            throw Forwarder.unanswered(o.failure());
        }
        KafkaErrors.check(o.errorCode(), null, "cannot list the offsets of partition " + key.partition()
            + " of topic '" + key.topic() + "'");
        return o.offset();
    }

    private static void checkRange(long offset, long start, long end, Partition key) {
        if (offset < start || offset > end) {
            throw new ApiError(416, "OFFSET_OUT_OF_RANGE", "offset " + offset + " is outside partition "
                + key.partition() + "'s range [" + start + ", " + end + ")");
        }
    }

    /** Up to {@code limit} committed records of {@code key} from {@code begin}, below {@code end}. */
    private List<FetchedRecords.Record> read(Caller caller, Partition key, long begin, long end, int limit) {
        List<FetchedRecords.Record> out = new ArrayList<>();
        long position = begin;
        // At least one Fetch, even for nothing to read: it is what authorizes the read (READ on the topic).
        for (int i = 0; i == 0 || i < MAX_FETCHES && out.size() < limit && position < end; i++) {
            FetchResponseData.PartitionData data = fetch(caller, key, position);
            KafkaErrors.check(data.errorCode(), null, errorText(data.errorCode(), caller, key, position));
            FetchedRecords.Decoded decoded;
            try {
                decoded = FetchedRecords.decode(data);
            } catch (IOException | RuntimeException e) {
                throw new ApiError(500, "CORRUPT_MESSAGE", "cannot decode the records of partition " + key.partition()
                    + " of topic '" + key.topic() + "' from offset " + position + ": " + e.getMessage());
            }
            for (FetchedRecords.Record r : decoded.records()) {
                if (r.offset() >= begin && r.offset() < end && out.size() < limit) {
                    out.add(r);
                }
            }
            if (decoded.nextOffset() <= position) {
                break;
            }
            position = decoded.nextOffset();
        }
        return out;
    }

    private static String errorText(short code, Caller caller, Partition key, long position) {
        if (code == Errors.TOPIC_AUTHORIZATION_FAILED) {
            return caller.principal() + " is not authorized to read topic '" + key.topic() + "'";
        }
        return "cannot read partition " + key.partition() + " of topic '" + key.topic() + "' from offset " + position;
    }

    private FetchResponseData.PartitionData fetch(Caller caller, Partition key, long offset) {
        FetchRequestData request = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(0)
            .setMaxBytes(PARTITION_FETCH_BYTES).setIsolationLevel((byte) 1).setSessionId(0).setSessionEpoch(-1)
            .setRackId("").setForgottenTopicsData(new ArrayList<>())
            .setTopics(new ArrayList<>(List.of(new FetchRequestData.FetchTopic().setTopic(key.topic())
                .setPartitions(new ArrayList<>(List.of(new FetchRequestData.FetchPartition()
                    .setPartition(key.partition()).setCurrentLeaderEpoch(-1).setFetchOffset(offset)
                    .setLastFetchedEpoch(-1).setLogStartOffset(-1).setPartitionMaxBytes(PARTITION_FETCH_BYTES)))))));
        FetchResponseData response = reads.kafka().call(caller, ApiMessageType.FETCH, FETCH_VERSION, request);
        FetchResponseData.PartitionData here = partitionOf(response, key);
        // NOT_LEADER_OR_FOLLOWER comes after the READ check: the caller may read it, from the broker that leads it.
        java.util.Optional<Integer> leader = here == null || here.errorCode() != Errors.NOT_LEADER_OR_FOLLOWER
            ? java.util.Optional.empty() : reads.forwarder().remoteLeader(key.topic(), key.partition());
        if (leader.isEmpty()) {
            if (here != null) {
                return here;
            }
        } else {
            Forwarder.Reply<FetchResponseData> reply = reads.forwarder().send1(leader.get(), request, FETCH_VERSION,
                "Fetch of partition " + key.partition() + " of topic '" + key.topic() + "'");
            if (!reply.answered()) {
                throw Forwarder.unanswered(reply.failure());
            }
            FetchResponseData.PartitionData there = partitionOf(reply.answer(), key);
            if (there != null) {
                return there;
            }
        }
        throw new ApiError(500, "UNKNOWN_SERVER_ERROR", "Fetch answered nothing for partition " + key.partition()
            + " of topic '" + key.topic() + "'");
    }

    private static FetchResponseData.PartitionData partitionOf(FetchResponseData response, Partition key) {
        KafkaErrors.check(response.errorCode(), null, "Fetch of topic '" + key.topic() + "' failed");
        for (FetchResponseData.FetchableTopicResponse t : response.responses()) {
            for (FetchResponseData.PartitionData p : t.partitions()) {
                if (p.partitionIndex() == key.partition()) {
                    return p;
                }
            }
        }
        return null;
    }

    private static Map<String, Object> render(int partition, FetchedRecords.Record r, int maxBytes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", partition);
        m.put("offset", r.offset());
        m.put("timestamp", r.timestamp());
        m.put("timestampType", r.logAppendTime() ? "LOG_APPEND_TIME" : "CREATE_TIME");
        m.put("key", PayloadRenderer.render(r.key(), maxBytes));
        m.put("value", PayloadRenderer.render(r.value(), maxBytes));
        List<Map<String, Object>> headers = new ArrayList<>();
        for (FetchedRecords.Header h : r.headers()) {
            Map<String, Object> hm = new LinkedHashMap<>();
            hm.put("key", h.key());
            hm.put("value", PayloadRenderer.render(h.value(), maxBytes));
            headers.add(hm);
        }
        m.put("headers", headers);
        return m;
    }
}
