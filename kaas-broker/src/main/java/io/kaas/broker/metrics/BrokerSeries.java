package io.kaas.broker.metrics;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.cluster.ClusterMember;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.GroupCoordinator;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The Kafka-named series, as the Prometheus JMX exporter shows Kafka's MBeans with Strimzi's rules: broker state,
 * controller and partition counts, BrokerTopicMetrics per topic and broker-wide, the log offsets of each partition,
 * and kafka_exporter's {@code kafka_consumergroup_lag}. Offsets and lag are computed when scraped.
 */
public final class BrokerSeries {

    /** Kafka's BrokerState values (kafka.server:type=KafkaServer,name=BrokerState). */
    static final int STARTING = 1;
    static final int RUNNING = 3;

    private final MeterRegistry registry;
    private final TopicManager topics;
    private final ClusterMember cluster;
    private final GroupCoordinator groups;
    private final BrokerTopicStats stats;
    private final Set<String> countedTopics = ConcurrentHashMap.newKeySet();
    private final MultiGauge logSize;
    private final MultiGauge logStart;
    private final MultiGauge logEnd;
    private final MultiGauge lag;
    private final RemoteEndOffsets remoteEnds;
    private volatile int partitionCount;

    private BrokerSeries(MeterRegistry registry, TopicManager topics, ClusterMember cluster, GroupCoordinator groups,
                         RemoteEndOffsets remoteEnds) {
        this.registry = registry;
        this.remoteEnds = remoteEnds;
        this.topics = topics;
        this.cluster = cluster;
        this.groups = groups;
        this.stats = topics.stats();
        this.logSize = MultiGauge.builder("kafka.log.log.size")
            .description("Bytes of the partition's log (kafka.log:type=Log,name=Size)").register(registry);
        this.logStart = MultiGauge.builder("kafka.log.log.logstartoffset")
            .description("The partition's log start offset").register(registry);
        this.logEnd = MultiGauge.builder("kafka.log.log.logendoffset")
            .description("The partition's log end offset (high watermark: kaas has no follower replicas)")
            .register(registry);
        this.lag = MultiGauge.builder("kafka.consumergroup.lag")
            .description("Log end offset minus the group's committed offset (as kafka_exporter)").register(registry);
    }

    /** Registers the series of a started broker on {@code metrics}. */
    public static BrokerSeries register(BrokerMetrics metrics, int nodeId, TopicManager topics, ClusterMember cluster,
                                        GroupCoordinator groups, BooleanSupplier running) {
        return register(metrics, nodeId, topics, cluster, groups, running, null);
    }

    /**
     * As above, the lag of partitions another broker writes computed from their end offsets as {@code remoteEnds}
     * caches them (null: such partitions are left out).
     */
    public static BrokerSeries register(BrokerMetrics metrics, int nodeId, TopicManager topics, ClusterMember cluster,
                                        GroupCoordinator groups, BooleanSupplier running, RemoteEndOffsets remoteEnds) {
        MeterRegistry registry = metrics.registry();
        BrokerSeries series = new BrokerSeries(registry, topics, cluster, groups, remoteEnds);
        Gauge.builder("kafka.server.kafkaserver.brokerstate", running, r -> r.getAsBoolean() ? RUNNING : STARTING)
            .description("Kafka's BrokerState: 1 starting, 3 running").strongReference(true).register(registry);
        Gauge.builder("kafka.controller.kafkacontroller.activecontrollercount", cluster,
                c -> c.controllerId().filter(id -> id == nodeId).isPresent() ? 1 : 0)
            .description("1 on the broker that is the controller, else 0").strongReference(true).register(registry);
        Gauge.builder("kafka.server.replicamanager.partitioncount", series, s -> s.partitionCount)
            .description("Partitions on this broker").strongReference(true).register(registry);
        Gauge.builder("kafka.server.replicamanager.leadercount", series, s -> s.partitionCount)
            .description("Partitions this broker leads (every partition it holds: kaas writes each on one broker)")
            .strongReference(true).register(registry);
        NetworkIdle.register(registry);
        series.registerTopicCounters(null, series.stats.allTopics());
        metrics.beforeScrape(series::refresh);
        series.refresh();
        return series;
    }

    /**
     * {@code kaas_plugin_info{kind,name,version}} for every backend found (built in or from plugins/), and
     * {@code kaas_storage_engine_info{name}} / {@code kaas_cluster_store_info{name}} for the ones in use: each 1.
     */
    public static void registerInfo(BrokerMetrics metrics, List<io.kaas.plugins.FoundBackend> found, String engine,
                                    String store) {
        MeterRegistry registry = metrics.registry();
        for (io.kaas.plugins.FoundBackend b : found) {
            Gauge.builder("kaas.plugin.info", () -> 1).description("A backend the broker found (1)")
                .tags("kind", b.kind(), "name", b.name(), "version", b.version() == null ? "" : b.version())
                .strongReference(true).register(registry);
        }
        Gauge.builder("kaas.storage.engine.info", () -> 1).description("The storage engine in use (1)")
            .tag("name", engine).strongReference(true).register(registry);
        Gauge.builder("kaas.cluster.store.info", () -> 1).description("The cluster-state store in use (1)")
            .tag("name", store).strongReference(true).register(registry);
    }

    private void registerTopicCounters(String topic, TopicStats s) {
        Tags tags = topic == null ? Tags.empty() : Tags.of("topic", topic);
        counter("kafka.server.brokertopicmetrics.messagesin", "Records appended", tags, s, TopicStats::messagesIn);
        counter("kafka.server.brokertopicmetrics.bytesin", "Record bytes appended", tags, s, TopicStats::bytesIn);
        counter("kafka.server.brokertopicmetrics.bytesout", "Record bytes fetched", tags, s, TopicStats::bytesOut);
        counter("kafka.server.brokertopicmetrics.failedproducerequests", "Partitions of produce requests that failed",
            tags, s, TopicStats::failedProduceRequests);
        counter("kafka.server.brokertopicmetrics.failedfetchrequests", "Partitions of fetch requests that failed",
            tags, s, TopicStats::failedFetchRequests);
        counter("kafka.server.brokertopicmetrics.totalproducerequests", "Partitions of produce requests", tags, s,
            TopicStats::totalProduceRequests);
        counter("kafka.server.brokertopicmetrics.totalfetchrequests", "Partitions of fetch requests", tags, s,
            TopicStats::totalFetchRequests);
    }

    private void counter(String name, String description, Tags tags, TopicStats s, ToDoubleFunction<TopicStats> f) {
        FunctionCounter.builder(name, s, f).description(description).tags(tags).register(registry);
    }

    /** Called before each scrape: counters for new topics, then offsets, partition count and lag. */
    void refresh() {
        for (Map.Entry<String, TopicStats> e : stats.byTopic().entrySet()) {
            if (countedTopics.add(e.getKey())) {
                registerTopicCounters(e.getKey(), e.getValue());
            }
        }
        List<MultiGauge.Row<?>> size = new ArrayList<>();
        List<MultiGauge.Row<?>> start = new ArrayList<>();
        List<MultiGauge.Row<?>> end = new ArrayList<>();
        int count = 0;
        for (Topic t : topics.topics()) {
            for (int p = 0; p < t.partitionCount(); p++) {
                PartitionLog log = t.log(p);
                if (log == null) {
                    continue;
                }
                count++;
                LogOffsets o = log.offsets();
                Tags tags = Tags.of("topic", t.name(), "partition", Integer.toString(p));
                start.add(MultiGauge.Row.of(tags, o.logStartOffset()));
                end.add(MultiGauge.Row.of(tags, o.highWatermark()));
                long bytes = log.sizeInBytes();
                if (bytes >= 0) {
                    size.add(MultiGauge.Row.of(tags, bytes));
                }
            }
        }
        partitionCount = count;
        logSize.register(size, true);
        logStart.register(start, true);
        logEnd.register(end, true);
        lag.register(lagRows(), true);
    }

    /**
     * Per group this broker coordinates and partition with a committed offset: end offset minus committed. The end
     * offset of a partition this broker writes is its log's; of one another broker writes, the cached answer of that
     * broker ({@link RemoteEndOffsets}; left out until there is one).
     */
    private List<MultiGauge.Row<?>> lagRows() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        Set<TopicPartitionRef> remote = new java.util.HashSet<>();
        for (var listed : groups.admin().listGroups(List.of(), List.of())) {
            String group = listed.groupId();
            for (Map.Entry<TopicPartitionRef, CommittedOffset> c : groups.committedOffsets(group).entrySet()) {
                if (c.getValue().offset() < 0) {
                    continue;
                }
                TopicPartitionRef tp = c.getKey();
                PartitionLog log = topics.log(tp.topic(), tp.partition());
                long end;
                if (log != null) {
                    end = log.offsets().highWatermark();
                } else if (remoteEnds != null && topics.topic(tp.topic()).isPresent()) {
                    remote.add(tp);
                    java.util.OptionalLong cached = remoteEnds.endOffset(tp);
                    if (cached.isEmpty()) {
                        continue;
                    }
                    end = cached.getAsLong();
                } else {
                    continue;
                }
                long lagged = Math.max(0, end - c.getValue().offset());
                rows.add(MultiGauge.Row.of(Tags.of("consumergroup", group, "topic", tp.topic(),
                    "partition", Integer.toString(tp.partition())), lagged));
            }
        }
        if (remoteEnds != null) {
            remoteEnds.want(remote);
        }
        return rows;
    }
}
