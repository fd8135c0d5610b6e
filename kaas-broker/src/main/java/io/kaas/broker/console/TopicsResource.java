package io.kaas.broker.console;

import io.kaas.broker.admin.Answer;
import io.kaas.broker.console.ClusterReads.Offset;
import io.kaas.broker.console.ClusterReads.Partition;
import io.kaas.wire.message.DescribeConfigsResponseData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /api/v1/topics} (the searchable table) and {@code GET /api/v1/topics/{name}} (one topic's partitions
 * and configs), from Metadata, ListOffsets, DescribeLogDirs and DescribeConfigs run as the caller: a topic the
 * caller may not describe is not listed (as Metadata), and is answered 403 when asked for by name.
 */
final class TopicsResource {

    private final ClusterReads reads;

    TopicsResource(ClusterReads reads) {
        this.reads = reads;
    }

    Answer list(ConsoleCall call) {
        String q = call.param("q");
        String needle = q == null ? "" : q.toLowerCase(Locale.ROOT);
        boolean internal = "true".equalsIgnoreCase(call.param("internal"));
        Caller caller = call.caller();
        MetadataResponseData md = reads.metadata(caller, null);
        List<MetadataResponseData.MetadataResponseTopic> shown = new ArrayList<>();
        List<Partition> partitions = new ArrayList<>();
        for (MetadataResponseData.MetadataResponseTopic t : md.topics()) {
            if (t.errorCode() != Errors.NONE || (t.isInternal() && !internal)
                    || !t.name().toLowerCase(Locale.ROOT).contains(needle)) {
                continue;
            }
            shown.add(t);
            for (MetadataResponseData.MetadataResponsePartition p : t.partitions()) {
                partitions.add(new Partition(t.name(), p.partitionIndex()));
            }
        }
        shown.sort(Comparator.comparing(MetadataResponseData.MetadataResponseTopic::name));
        List<Map<Partition, Offset>> listed = reads.offsets(caller, partitions, false, ClusterReads.EARLIEST,
            ClusterReads.LATEST, ClusterReads.MAX_TIMESTAMP);
        Map<Partition, Offset> start = listed.get(0);
        Map<Partition, Offset> end = listed.get(1);
        Map<Partition, Offset> last = listed.get(2);
        ClusterReads.LogDirs dirs = reads.logDirs(caller);
        Map<String, Map<String, String>> configs = new HashMap<>();
        for (DescribeConfigsResponseData.DescribeConfigsResult r
                : reads.topicConfigs(caller, shown.stream().map(MetadataResponseData.MetadataResponseTopic::name).toList())) {
            if (r.errorCode() == Errors.NONE) {
                Map<String, String> values = new HashMap<>();
                r.configs().forEach(c -> values.put(c.name(), c.value()));
                configs.put(r.resourceName(), values);
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (MetadataResponseData.MetadataResponseTopic t : shown) {
            long messages = 0;
            Long size = dirs == null ? null : 0L;
            Long lastWrite = null;
            String error = null;
            for (MetadataResponseData.MetadataResponsePartition p : t.partitions()) {
                Partition key = new Partition(t.name(), p.partitionIndex());
                if (error == null) {
                    error = error(p, start.get(key), dirs);
                }
                Offset s = start.get(key);
                Offset e = end.get(key);
                if (s != null && e != null && s.errorCode() == Errors.NONE && e.errorCode() == Errors.NONE) {
                    messages += Math.max(0, e.offset() - s.offset());
                }
                Offset l = last.get(key);
                if (l != null && l.errorCode() == Errors.NONE && l.offset() >= 0 && l.timestamp() >= 0) {
                    lastWrite = lastWrite == null ? l.timestamp() : Math.max(lastWrite, l.timestamp());
                }
                if (size != null) {
                    size += dirs.sizes().getOrDefault(key, 0L);
                }
            }
            Map<String, String> c = configs.getOrDefault(t.name(), Map.of());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", t.name());
            row.put("internal", t.isInternal());
            row.put("partitions", t.partitions().size());
            row.put("messages", messages);
            row.put("sizeBytes", size);
            row.put("retentionMs", c.containsKey("retention.ms") ? parseLong(c.get("retention.ms")) : null);
            row.put("cleanupPolicy", c.get("cleanup.policy"));
            row.put("lastWriteMs", lastWrite);
            row.put("error", error);
            rows.add(row);
        }
        return Json.answer(200, Map.of("topics", rows));
    }

    Answer get(ConsoleCall call, String name) {
        Caller caller = call.caller();
        MetadataResponseData.MetadataResponseTopic t = describe(caller, name);
        List<Partition> partitions = new ArrayList<>();
        List<MetadataResponseData.MetadataResponsePartition> sorted = new ArrayList<>(t.partitions());
        sorted.sort(Comparator.comparingInt(MetadataResponseData.MetadataResponsePartition::partitionIndex));
        for (MetadataResponseData.MetadataResponsePartition p : sorted) {
            partitions.add(new Partition(name, p.partitionIndex()));
        }
        List<Map<Partition, Offset>> listed = reads.offsets(caller, partitions, false, ClusterReads.EARLIEST,
            ClusterReads.LATEST);
        Map<Partition, Offset> start = listed.get(0);
        Map<Partition, Offset> end = listed.get(1);
        ClusterReads.LogDirs dirs = reads.logDirs(caller);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (MetadataResponseData.MetadataResponsePartition p : sorted) {
            Partition key = new Partition(name, p.partitionIndex());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("partition", p.partitionIndex());
            row.put("leader", p.leaderId());
            row.put("leaderEpoch", p.leaderEpoch());
            row.put("startOffset", offset(start.get(key)));
            row.put("endOffset", offset(end.get(key)));
            row.put("sizeBytes", dirs == null ? null : dirs.sizes().get(key));
            row.put("error", error(p, start.get(key), dirs));
            rows.add(row);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", t.name());
        body.put("internal", t.isInternal());
        body.put("topicId", t.topicId() == null ? null : kafkaUuid(t.topicId()));
        body.put("partitions", rows);
        body.put("configs", configs(caller, name));
        return Json.answer(200, body);
    }

    /** The topic's configs as DescribeConfigs answers them to the caller (sensitive values null). */
    List<Map<String, Object>> configs(Caller caller, String name) {
        List<DescribeConfigsResponseData.DescribeConfigsResult> results = reads.topicConfigs(caller, List.of(name));
        List<Map<String, Object>> configs = new ArrayList<>();
        for (DescribeConfigsResponseData.DescribeConfigsResult r : results) {
            KafkaErrors.check(r.errorCode(), r.errorMessage(), "cannot describe the configs of topic '" + name + "'");
            List<DescribeConfigsResponseData.DescribeConfigsResourceResult> sorted = new ArrayList<>(r.configs());
            sorted.sort(Comparator.comparing(DescribeConfigsResponseData.DescribeConfigsResourceResult::name));
            for (DescribeConfigsResponseData.DescribeConfigsResourceResult c : sorted) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", c.name());
                row.put("value", c.isSensitive() ? null : c.value());
                row.put("source", ClusterReads.sourceName(c.configSource()));
                row.put("sensitive", c.isSensitive());
                row.put("readOnly", c.readOnly());
                configs.add(row);
            }
        }
        return configs;
    }

    /**
     * The metadata of topic {@code name} as the caller may see it.
     *
     * @throws ApiError 404 UNKNOWN_TOPIC_OR_PARTITION, 403 TOPIC_AUTHORIZATION_FAILED, as Metadata answers
     */
    MetadataResponseData.MetadataResponseTopic describe(Caller caller, String name) {
        MetadataResponseData md = reads.metadata(caller, List.of(name));
        for (MetadataResponseData.MetadataResponseTopic t : md.topics()) {
            if (name.equals(t.name())) {
                if (t.errorCode() == Errors.UNKNOWN_TOPIC_OR_PARTITION) {
                    throw new ApiError(404, "UNKNOWN_TOPIC_OR_PARTITION", "topic '" + name + "' does not exist");
                }
                if (t.errorCode() == Errors.TOPIC_AUTHORIZATION_FAILED) {
                    throw new ApiError(403, "TOPIC_AUTHORIZATION_FAILED", caller.principal()
                        + " is not authorized to describe topic '" + name + "'");
                }
                KafkaErrors.check(t.errorCode(), null, "cannot describe topic '" + name + "'");
                return t;
            }
        }
        throw new ApiError(404, "UNKNOWN_TOPIC_OR_PARTITION", "topic '" + name + "' does not exist");
    }

    /** A topic id as Kafka's tools print it (Uuid.toString: URL-safe base64 of its 16 bytes, unpadded). */
    static String kafkaUuid(java.util.UUID id) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
            .putLong(id.getLeastSignificantBits());
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    /**
     * Why a partition's offsets or size are not shown: its leader (another broker) did not answer, or ListOffsets
     * refused it; null when they are shown.
     */
    private static String error(MetadataResponseData.MetadataResponsePartition p, Offset o, ClusterReads.LogDirs dirs) {
        if (o != null && o.failure() != null) {
            return o.failure();
        }
        if (dirs != null && dirs.unanswered().containsKey(p.leaderId())) {
            return dirs.unanswered().get(p.leaderId());
        }
        if (o != null && o.errorCode() != Errors.NONE) {
            return KafkaErrors.name(o.errorCode()) + (p.leaderId() < 0 ? ": the partition has no leader now" : "");
        }
        return null;
    }

    private static Long offset(Offset o) {
        return o == null || o.errorCode() != Errors.NONE ? null : o.offset();
    }

    private static Long parseLong(String v) {
        try {
            return v == null ? null : Long.parseLong(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
