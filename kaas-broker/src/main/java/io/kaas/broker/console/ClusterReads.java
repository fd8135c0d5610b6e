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

    /**
     * What ListOffsets answered for one partition; {@code failure} says why the partition's leader, another broker,
     * gave no answer (then the error is NETWORK_EXCEPTION).
     */
    record Offset(short errorCode, long offset, long timestamp, String failure) {
        Offset(short errorCode, long offset, long timestamp) {
            this(errorCode, offset, timestamp, null);
        }
    }

    private final KafkaRequests kafka;
    private final Forwarder forwarder;

    ClusterReads(KafkaRequests kafka, Forwarder forwarder) {
        this.kafka = kafka;
        this.forwarder = forwarder;
    }

    KafkaRequests kafka() {
        return kafka;
    }

    Forwarder forwarder() {
        return forwarder;
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
        return offsets(caller, partitions, committed, timestamp).get(0);
    }

    /**
     * The offsets for each of {@code timestamps}, one map each, as {@link #offsets(Caller, Collection, long,
     * boolean)}. Each ListOffsets runs here as the caller first (DESCRIBE on the topic); the partitions it answers
     * NOT_LEADER_OR_FOLLOWER for (the caller is allowed, another broker leads them) are asked of their leaders, all
     * brokers and timestamps at once, so a broker that does not answer costs one timeout, not one per timestamp.
     */
    List<Map<Partition, Offset>> offsets(Caller caller, Collection<Partition> partitions, boolean committed,
                                         long... timestamps) {
        List<Map<Partition, Offset>> out = new ArrayList<>();
        List<Forwarder.Ask> asks = new ArrayList<>();
        List<Map<Partition, Offset>> askedFor = new ArrayList<>();
        for (long timestamp : timestamps) {
            Map<Partition, Offset> answers = new HashMap<>();
            out.add(answers);
            if (partitions.isEmpty()) {
                continue;
            }
            ListOffsetsResponseData response = kafka.call(caller, ApiMessageType.LIST_OFFSETS, LIST_OFFSETS_VERSION,
                listOffsets(partitions, timestamp, committed));
            Map<Integer, List<Partition>> byLeader = new HashMap<>();
            for (ListOffsetsResponseData.ListOffsetsTopicResponse t : response.topics()) {
                for (ListOffsetsResponseData.ListOffsetsPartitionResponse p : t.partitions()) {
                    Partition key = new Partition(t.name(), p.partitionIndex());
                    answers.put(key, new Offset(p.errorCode(), p.offset(), p.timestamp()));
                    if (p.errorCode() == Errors.NOT_LEADER_OR_FOLLOWER) {
                        forwarder.remoteLeader(key.topic(), key.partition())
                            .ifPresent(node -> byLeader.computeIfAbsent(node, n -> new ArrayList<>()).add(key));
                    }
                }
            }
            byLeader.forEach((node, keys) -> {
                asks.add(new Forwarder.Ask(node, listOffsets(keys, timestamp, committed)));
                askedFor.add(answers);
            });
        }
        List<Forwarder.Reply<ListOffsetsResponseData>> replies = forwarder.sendAll(asks, LIST_OFFSETS_VERSION,
            "ListOffsets");
        for (int i = 0; i < replies.size(); i++) {
            Forwarder.Reply<ListOffsetsResponseData> reply = replies.get(i);
            Map<Partition, Offset> into = askedFor.get(i);
            if (!reply.answered()) {
                for (ListOffsetsRequestData.ListOffsetsTopic t : ((ListOffsetsRequestData) asks.get(i).request()).topics()) {
                    for (ListOffsetsRequestData.ListOffsetsPartition p : t.partitions()) {
                        into.put(new Partition(t.name(), p.partitionIndex()),
                            new Offset(Errors.NETWORK_EXCEPTION, -1, -1, reply.failure()));
                    }
                }
                continue;
            }
            for (ListOffsetsResponseData.ListOffsetsTopicResponse t : reply.answer().topics()) {
                for (ListOffsetsResponseData.ListOffsetsPartitionResponse p : t.partitions()) {
                    into.put(new Partition(t.name(), p.partitionIndex()),
                        new Offset(p.errorCode(), p.offset(), p.timestamp()));
                }
            }
        }
        return out;
    }

    private static ListOffsetsRequestData listOffsets(Collection<Partition> partitions, long timestamp,
                                                      boolean committed) {
        Map<String, ListOffsetsRequestData.ListOffsetsTopic> byTopic = new HashMap<>();
        for (Partition p : partitions) {
            byTopic.computeIfAbsent(p.topic(), t -> new ListOffsetsRequestData.ListOffsetsTopic().setName(t)
                .setPartitions(new ArrayList<>())).partitions()
                .add(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(p.partition())
                    .setCurrentLeaderEpoch(-1).setTimestamp(timestamp));
        }
        return new ListOffsetsRequestData().setReplicaId(-1).setIsolationLevel((byte) (committed ? 1 : 0))
            .setTopics(new ArrayList<>(byTopic.values()));
    }

    /**
     * The size in bytes of every partition of the cluster, or null when the caller may not describe the cluster:
     * DescribeLogDirs here as the caller (DESCRIBE on the cluster), then, once allowed, of every other live broker
     * (each answers the partitions it writes), all at once.
     */
    LogDirs logDirs(Caller caller) {
        LogDirs local = localLogDirs(caller);
        if (local == null) {
            return null;
        }
        Map<Partition, Long> sizes = new HashMap<>(local.sizes());
        List<Forwarder.Ask> asks = new ArrayList<>();
        for (int node : forwarder.otherBrokers()) {
            asks.add(new Forwarder.Ask(node, new DescribeLogDirsRequestData().setTopics(null)));
        }
        Map<Integer, String> unanswered = new HashMap<>();
        for (Forwarder.Reply<DescribeLogDirsResponseData> reply
                : forwarder.<DescribeLogDirsResponseData>sendAll(asks, DESCRIBE_LOG_DIRS_VERSION, "DescribeLogDirs")) {
            if (!reply.answered()) {
                unanswered.put(reply.nodeId(), reply.failure());
            } else if (reply.answer().errorCode() != Errors.NONE) {
                unanswered.put(reply.nodeId(), "broker " + reply.nodeId() + " answered DescribeLogDirs with "
                    + KafkaErrors.name(reply.answer().errorCode()));
            } else {
                addSizes(reply.answer(), sizes);
            }
        }
        return new LogDirs(local.dirs(), sizes, unanswered);
    }

    /** This broker's log dirs and the sizes of its partitions, or null when the caller may not describe the cluster. */
    LogDirs localLogDirs(Caller caller) {
        DescribeLogDirsResponseData response = kafka.call(caller, ApiMessageType.DESCRIBE_LOG_DIRS,
            DESCRIBE_LOG_DIRS_VERSION, new DescribeLogDirsRequestData().setTopics(null));
        if (response.errorCode() != Errors.NONE) {
            return null;
        }
        Map<Partition, Long> sizes = new HashMap<>();
        addSizes(response, sizes);
        return new LogDirs(response.results(), sizes, Map.of());
    }

    private static void addSizes(DescribeLogDirsResponseData response, Map<Partition, Long> sizes) {
        for (DescribeLogDirsResponseData.DescribeLogDirsResult dir : response.results()) {
            for (DescribeLogDirsResponseData.DescribeLogDirsTopic t : dir.topics()) {
                for (DescribeLogDirsResponseData.DescribeLogDirsPartition p : t.partitions()) {
                    sizes.merge(new Partition(t.name(), p.partitionIndex()), p.partitionSize(), Long::sum);
                }
            }
        }
    }

    /**
     * This broker's log dirs as DescribeLogDirs answered them, each partition's size (of every broker that answered)
     * and why each broker that did not answer did not.
     */
    record LogDirs(List<DescribeLogDirsResponseData.DescribeLogDirsResult> dirs, Map<Partition, Long> sizes,
                   Map<Integer, String> unanswered) {
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
