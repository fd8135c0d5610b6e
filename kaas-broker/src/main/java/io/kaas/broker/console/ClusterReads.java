package io.kaas.broker.console;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.DescribeConfigsRequestData;
import io.kaas.wire.message.DescribeConfigsResponseData;
import io.kaas.wire.message.DescribeLogDirsRequestData;
import io.kaas.wire.message.DescribeLogDirsResponseData;
import io.kaas.wire.message.ListOffsetsRequestData;
import io.kaas.wire.message.ListOffsetsResponseData;
import io.kaas.wire.message.MetadataRequestData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kafka reads several console resources share, each one in-process request as the caller: Metadata,
 * ListOffsets, DescribeLogDirs, DescribeConfigs. Errors the Kafka API answers per resource are left in the answers
 * for the resource to judge.
 */
final class ClusterReads {

    /** ListOffsets' special timestamps. */
    static final long LATEST = -1;
    static final long EARLIEST = -2;
    static final long MAX_TIMESTAMP = -3;
    /** The versions the console asks (topic names, not ids; served by every kaas since 1.0). */
    static final int METADATA_VERSION = 12;
    static final int LIST_OFFSETS_VERSION = 8;
    static final int DESCRIBE_LOG_DIRS_VERSION = 4;
    static final int DESCRIBE_CONFIGS_VERSION = 4;
    /** DescribeConfigs' resource type of a topic. */
    static final byte TOPIC_RESOURCE = 2;

    /** One partition of a topic. */
    record Partition(String topic, int partition) {
    }

    /** What ListOffsets answered for one partition. */
    record Offset(short errorCode, long offset, long timestamp) {
    }

    private final KafkaRequests kafka;

    ClusterReads(KafkaRequests kafka) {
        this.kafka = kafka;
    }

    KafkaRequests kafka() {
        return kafka;
    }

    /** Metadata of {@code topics}, or of every topic the caller may describe when null. */
    MetadataResponseData metadata(Caller caller, Collection<String> topics) {
        MetadataRequestData request = new MetadataRequestData().setAllowAutoTopicCreation(false)
            .setIncludeTopicAuthorizedOperations(false);
        if (topics == null) {
            request.setTopics(null);
        } else {
            List<MetadataRequestData.MetadataRequestTopic> list = new ArrayList<>();
            for (String t : topics) {
                list.add(new MetadataRequestData.MetadataRequestTopic().setName(t));
            }
            request.setTopics(list);
        }
        return kafka.call(caller, ApiMessageType.METADATA, METADATA_VERSION, request);
    }

    /**
     * The offset for {@code timestamp} (or LATEST, EARLIEST, MAX_TIMESTAMP) of each of {@code partitions};
     * {@code committed} for the last stable offset (read_committed) rather than the high watermark.
     */
    Map<Partition, Offset> offsets(Caller caller, Collection<Partition> partitions, long timestamp, boolean committed) {
        Map<String, ListOffsetsRequestData.ListOffsetsTopic> byTopic = new HashMap<>();
        for (Partition p : partitions) {
            byTopic.computeIfAbsent(p.topic(), t -> new ListOffsetsRequestData.ListOffsetsTopic().setName(t)
                .setPartitions(new ArrayList<>())).partitions()
                .add(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(p.partition())
                    .setCurrentLeaderEpoch(-1).setTimestamp(timestamp));
        }
        Map<Partition, Offset> out = new HashMap<>();
        if (byTopic.isEmpty()) {
            return out;
        }
        ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(-1)
            .setIsolationLevel((byte) (committed ? 1 : 0)).setTopics(new ArrayList<>(byTopic.values()));
        ListOffsetsResponseData response = kafka.call(caller, ApiMessageType.LIST_OFFSETS, LIST_OFFSETS_VERSION, request);
        for (ListOffsetsResponseData.ListOffsetsTopicResponse t : response.topics()) {
            for (ListOffsetsResponseData.ListOffsetsPartitionResponse p : t.partitions()) {
                out.put(new Partition(t.name(), p.partitionIndex()),
                    new Offset(p.errorCode(), p.offset(), p.timestamp()));
            }
        }
        return out;
    }

    /** The size in bytes of every partition on this broker, or null when the caller may not describe the cluster. */
    LogDirs logDirs(Caller caller) {
        DescribeLogDirsResponseData response = kafka.call(caller, ApiMessageType.DESCRIBE_LOG_DIRS,
            DESCRIBE_LOG_DIRS_VERSION, new DescribeLogDirsRequestData().setTopics(null));
        if (response.errorCode() != Errors.NONE) {
            return null;
        }
        Map<Partition, Long> sizes = new HashMap<>();
        for (DescribeLogDirsResponseData.DescribeLogDirsResult dir : response.results()) {
            for (DescribeLogDirsResponseData.DescribeLogDirsTopic t : dir.topics()) {
                for (DescribeLogDirsResponseData.DescribeLogDirsPartition p : t.partitions()) {
                    sizes.merge(new Partition(t.name(), p.partitionIndex()), p.partitionSize(), Long::sum);
                }
            }
        }
        return new LogDirs(response.results(), sizes);
    }

    /** The log dirs as DescribeLogDirs answered them, and each partition's size. */
    record LogDirs(List<DescribeLogDirsResponseData.DescribeLogDirsResult> dirs, Map<Partition, Long> sizes) {
    }

    /** The configs of each of {@code topics} (all keys, no synonyms). */
    List<DescribeConfigsResponseData.DescribeConfigsResult> topicConfigs(Caller caller, Collection<String> topics) {
        List<DescribeConfigsRequestData.DescribeConfigsResource> resources = new ArrayList<>();
        for (String t : topics) {
            resources.add(new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(TOPIC_RESOURCE)
                .setResourceName(t).setConfigurationKeys(null));
        }
        if (resources.isEmpty()) {
            return List.of();
        }
        DescribeConfigsResponseData response = kafka.call(caller, ApiMessageType.DESCRIBE_CONFIGS,
            DESCRIBE_CONFIGS_VERSION, new DescribeConfigsRequestData().setResources(resources).setIncludeSynonyms(false)
                .setIncludeDocumentation(false));
        return response.results();
    }

    /** The Admin client's name of DescribeConfigs' config source {@code id}. */
    static String sourceName(byte id) {
        return switch (id) {
            case 1 -> "DYNAMIC_TOPIC_CONFIG";
            case 2 -> "DYNAMIC_BROKER_CONFIG";
            case 3 -> "DYNAMIC_DEFAULT_BROKER_CONFIG";
            case 4 -> "STATIC_BROKER_CONFIG";
            case 5 -> "DEFAULT_CONFIG";
            case 6 -> "DYNAMIC_BROKER_LOGGER_CONFIG";
            case 7 -> "DYNAMIC_CLIENT_METRICS_CONFIG";
            case 8 -> "DYNAMIC_GROUP_CONFIG";
            default -> "UNKNOWN";
        };
    }
}
