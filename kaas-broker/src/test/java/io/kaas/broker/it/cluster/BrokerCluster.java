package io.kaas.broker.it.cluster;

import io.kaas.broker.it.KafkaClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.awaitility.Awaitility;
import org.slf4j.LoggerFactory;

/**
 * Brokers in JVMs of their own ({@link BrokerProcess}) sharing one data directory, coordinated by a real ZooKeeper
 * ensemble under a chroot of their own, as several hosts mounting one volume would be. Node ids 1..n; a broker that is
 * killed can be started again on its port.
 */
public final class BrokerCluster implements AutoCloseable {
    private final Path dir;
    private final Path data;
    private final String connect;
    private final List<String> extra;
    private final Map<Integer, Integer> ports = new TreeMap<>();
    private final Map<Integer, BrokerProcess> brokers = new TreeMap<>();

    private final Path plugins;

    private BrokerCluster(Path dir, String connect, List<String> extra) throws Exception {
        this.dir = dir;
        this.data = Files.createDirectories(dir.resolve("shared-data"));
        // the zookeeper store ships as a plugin zip, as in the distribution's plugins/
        this.plugins = dir.resolve("plugins");
        io.kaas.broker.it.TestBroker.installPlugin("kaas-cluster-zookeeper", plugins);
        this.connect = connect;
        this.extra = extra;
    }

    /**
     * Starts brokers 1..{@code size} on {@code ensemble} under chroot {@code chroot}, each with {@code extra}
     * settings on top of the cluster's own.
     */
    public static BrokerCluster start(Path dir, ZooKeeperEnsemble ensemble, String chroot, int size, String... extra)
            throws Exception {
        BrokerCluster cluster = new BrokerCluster(dir, ensemble.connect(chroot), List.of(extra));
        try {
            for (int id = 1; id <= size; id++) {
                cluster.ports.put(id, io.kaas.broker.it.BrokerJvm.freePort());
            }
            for (int id = 1; id <= size; id++) {
                cluster.startBroker(id);
            }
            cluster.awaitRegistered(cluster.brokers.keySet());
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** Every setting a broker of this cluster starts with (its node id and listener are added by BrokerProcess). */
    public List<String> settings(int nodeId) {
        List<String> s = new ArrayList<>(List.of("log.dirs=" + data, "plugins.dir=" + plugins, "cluster.store=zookeeper",
                "zookeeper.connect=" + connect, "advertised.listeners=PLAINTEXT://127.0.0.1:" + ports.get(nodeId)));
        s.addAll(extra);
        return s;
    }

    /** Starts broker {@code nodeId} (again) on its port; returns once it listens. */
    public BrokerProcess startBroker(int nodeId) throws Exception {
        BrokerProcess b = BrokerProcess.start(nodeId, ports.get(nodeId), dir.resolve("broker-" + nodeId + ".log"),
                settings(nodeId));
        brokers.put(nodeId, b);
        return b;
    }

    public BrokerProcess broker(int nodeId) {
        return brokers.get(nodeId);
    }

    public Path dataDir() {
        return data;
    }

    public String zookeeperConnect() {
        return connect;
    }

    public int port(int nodeId) {
        return ports.get(nodeId);
    }

    /** Every broker's address, live or not: clients find the live ones. */
    public String bootstrap() {
        return ports.values().stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    public KafkaClients clients() {
        return KafkaClients.at(bootstrap());
    }

    public Set<Integer> live() {
        return brokers.entrySet().stream().filter(e -> e.getValue().isAlive()).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /**
     * Waits (at most 120 s) until Metadata lists exactly {@code ids} as the cluster's brokers; fails at once, with its
     * log, if one of them exited.
     */
    public void awaitRegistered(Set<Integer> ids) {
        try (Admin admin = clients().admin()) {
            Awaitility.await("brokers " + ids + " registered").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(100)).ignoreExceptionsMatching(e -> !(e instanceof IllegalStateException))
                    .until(() -> {
                        for (int id : ids) {
                            BrokerProcess b = brokers.get(id);
                            if (b != null && !b.isAlive()) {
                                throw new IllegalStateException("broker " + id + " exited: " + Files.readString(b.log()));
                            }
                        }
                        return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).stream()
                                .map(n -> n.id()).collect(Collectors.toSet()).equals(ids);
                    });
        }
    }

    /** The partitions of {@code topic} as Metadata answers now: index to leader id (-1 for none). */
    public Map<Integer, Integer> leaders(Admin admin, String topic) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
        Map<Integer, Integer> out = new TreeMap<>();
        for (TopicPartitionInfo p : d.partitions()) {
            out.put(p.partition(), p.leader() == null || p.leader().isEmpty() ? -1 : p.leader().id());
        }
        return out;
    }

    /**
     * Waits (at most {@code within}) until every partition of {@code topic} is led by one of {@code ids}; returns
     * {@link System#nanoTime()} when that was first seen.
     */
    public long awaitLedBy(String topic, Set<Integer> ids, Duration within) {
        long[] seen = new long[1];
        try (Admin admin = KafkaClients.at(bootstrap()).admin(Map.of("metadata.max.age.ms", "200",
                "retry.backoff.ms", "50", "request.timeout.ms", "3000", "default.api.timeout.ms", "5000"))) {
            Awaitility.await(topic + " led by " + ids).atMost(within).pollInterval(Duration.ofMillis(50))
                    .ignoreExceptions().until(() -> {
                        Map<Integer, Integer> leaders = leaders(admin, topic);
                        seen[0] = System.nanoTime();
                        return ids.containsAll(leaders.values());
                    });
        }
        return seen[0];
    }

    @Override
    public void close() {
        for (BrokerProcess b : brokers.values()) {
            try {
                if (b.isAlive()) {
                    b.thaw();
                    b.kill();
                }
            } catch (Exception e) {
                // best effort: the next broker still gets stopped
            }
        }
    }

    /**
     * Copies every broker's log to {@code target/cluster-logs/<name>/}, where it outlives the test's temporary
     * directory, so a failure in CI can be read afterwards.
     */
    public void keepLogs(String name) {
        try {
            Path kept = Files.createDirectories(Path.of("target", "cluster-logs", name));
            for (Map.Entry<Integer, BrokerProcess> e : brokers.entrySet()) {
                if (Files.exists(e.getValue().log())) {
                    Files.copy(e.getValue().log(), kept.resolve("broker-" + e.getKey() + ".log"),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            LoggerFactory.getLogger(BrokerCluster.class).warn("could not keep the brokers' logs of {}: {}", name,
                    e.toString());
        }
    }
}
