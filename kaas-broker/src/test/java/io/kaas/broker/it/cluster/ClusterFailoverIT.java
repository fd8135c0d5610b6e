package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three kaas brokers in JVMs of their own on one shared directory, coordinated by a real three-server ZooKeeper
 * ensemble, driven by the real Java clients: brokers killed with SIGKILL and frozen with SIGSTOP under load, and the
 * coordinators of a group and of a transaction killed. Each test runs its own brokers under its own chroot. (The
 * in-process cluster tests, ClusterIT, ZooKeeperOutageIT and ClusterStartupIT, cover spreading, leaving and rejoining,
 * ZooKeeper outages and start-up refusals.)
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClusterFailoverIT {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterFailoverIT.class);

    @TempDir
    static Path shared;
    private static ZooKeeperEnsemble ensemble;

    @TempDir
    Path dir;
    private BrokerCluster cluster;

    @BeforeAll
    static void startEnsemble() throws Exception {
        ensemble = ZooKeeperEnsemble.start(shared, 3);
    }

    @AfterAll
    static void stopEnsemble() throws Exception {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @AfterEach
    void stopBrokers(TestInfo test) {
        if (cluster != null) {
            cluster.close();
            cluster.keepLogs(ClusterFailoverIT.class.getSimpleName() + "-" + test.getTestMethod().orElseThrow().getName());
        }
    }

    private BrokerCluster startCluster(TestInfo test) throws Exception {
        cluster = BrokerCluster.start(dir, ensemble, "/" + test.getTestMethod().orElseThrow().getName(), 3);
        return cluster;
    }

    @Test
    void aKilledBrokersPartitionsAreLedAgainWithNothingAcknowledgedLostAndNoDuplicates(TestInfo test) throws Exception {
        startCluster(test);
        cluster.clients().createTopic("orders", 6);
        cluster.awaitLedBy("orders", Set.of(1, 2, 3), Duration.ofSeconds(30));
        Map<Integer, Integer> before = leadersNow("orders");
        int victim = before.get(0);
        Set<Integer> survivors = new TreeSet<>(Set.of(1, 2, 3));
        survivors.remove(victim);

        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicInteger failed = new AtomicInteger();
        try (KafkaProducer<String, String> producer = cluster.clients().producer(Map.of("enable.idempotence", true,
                "delivery.timeout.ms", 120_000, "request.timeout.ms", 15_000, "max.block.ms", 60_000))) {
            List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                String id = "r" + i;
                sends.add(producer.send(new ProducerRecord<>("orders", id, id), (md, e) -> {
                    if (e == null) {
                        acked.add(id);
                    } else {
                        failed.incrementAndGet();
                    }
                }));
                if (i == 1000) {
                    long killedAt = System.nanoTime();
                    cluster.broker(victim).kill();
                    long ledAt = cluster.awaitLedBy("orders", survivors, Duration.ofSeconds(60));
                    LOG.info("failover after SIGKILL of broker {}: every partition led again in {} ms", victim,
                            TimeUnit.NANOSECONDS.toMillis(ledAt - killedAt));
                }
                if (i % 200 == 0) {
                    Thread.sleep(5);
                }
            }
            producer.flush();
            for (Future<?> f : sends) {
                try {
                    f.get(150, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    // counted by the callback
                }
            }
        }
        assertThat(failed).as("sends that failed for good").hasValue(0);
        Map<Integer, Integer> after = leadersNow("orders");
        before.forEach((p, leader) -> {
            if (leader == victim) {
                assertThat(after.get(p)).as("new leader of partition %d", p).isIn(survivors);
            }
        });
        assertThat(epochsNow("orders")).allSatisfy((p, epoch) -> assertThat(epoch).isPositive());
        List<String> read = readAll("orders", 6, acked.size());
        assertThat(read).as("no duplicates").doesNotHaveDuplicates();
        assertThat(read).as("every acknowledged record").containsAll(acked);
    }

    @Test
    void aBrokerFrozenPastItsSessionServesNothingItWroteAfterAndAcknowledgesNothingItLost(TestInfo test)
            throws Exception {
        startCluster(test);
        cluster.clients().createTopic("frozen", 3);
        cluster.awaitLedBy("frozen", Set.of(1, 2, 3), Duration.ofSeconds(30));
        int victim = leadersNow("frozen").get(0);
        Set<Integer> survivors = new TreeSet<>(Set.of(1, 2, 3));
        survivors.remove(victim);

        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicInteger failed = new AtomicInteger();
        try (KafkaProducer<String, String> producer = cluster.clients().producer(Map.of("enable.idempotence", true,
                "delivery.timeout.ms", 120_000, "request.timeout.ms", 30_000, "linger.ms", 0))) {
            List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String id = "f" + i;
                sends.add(producer.send(new ProducerRecord<>("frozen", i % 3, id, id), (md, e) -> {
                    if (e == null) {
                        acked.add(id);
                    } else {
                        failed.incrementAndGet();
                    }
                }));
                if (i == 200) {
                    // Frozen with requests in flight, for longer than its session: the others take its partition over.
                    cluster.broker(victim).freeze();
                    cluster.awaitLedBy("frozen", survivors, Duration.ofSeconds(60));
                    // Thawed: it runs on where it stopped, appends what it had in hand, and must acknowledge none of it.
                    cluster.broker(victim).thaw();
                }
            }
            producer.flush();
            for (Future<?> f : sends) {
                try {
                    f.get(150, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    // counted by the callback
                }
            }
        }
        assertThat(failed).hasValue(0);
        List<String> read = readAll("frozen", 3, acked.size());
        assertThat(read).as("nothing the frozen broker wrote after the take-over is served twice").doesNotHaveDuplicates();
        assertThat(read).containsAll(acked);
        // it rejoins (a new session) and is given partitions again
        cluster.awaitRegistered(Set.of(1, 2, 3));
    }

    @Test
    void aConsumerGroupWhoseCoordinatorDiesGoesOnWithItsCommittedOffsets(TestInfo test) throws Exception {
        startCluster(test);
        cluster.clients().createTopic("events", 3);
        cluster.awaitLedBy("events", Set.of(1, 2, 3), Duration.ofSeconds(30));
        produce("events", 300);
        int coordinator;
        // small polls, so about half is committed before the coordinator dies and the rest is read after
        try (KafkaConsumer<String, String> consumer = cluster.clients().groupConsumer("g1",
                Map.of("max.poll.records", 25))) {
            consumer.subscribe(List.of("events"));
            int seen = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen < 150 && System.nanoTime() < deadline) {
                seen += consumer.poll(Duration.ofMillis(200)).count();
            }
            consumer.commitSync(Duration.ofSeconds(30));
            try (Admin admin = cluster.clients().admin()) {
                coordinator = admin.describeConsumerGroups(List.of("g1")).all().get(30, TimeUnit.SECONDS).get("g1")
                        .coordinator().id();
            }
        }
        Map<TopicPartition, OffsetAndMetadata> committed = committedOffsets("g1");
        assertThat(committed).isNotEmpty();
        cluster.broker(coordinator).kill();
        try (KafkaConsumer<String, String> consumer = cluster.clients().groupConsumer("g1", Map.of())) {
            consumer.subscribe(List.of("events"));
            Map<TopicPartition, Long> firstSeen = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            int total = 0;
            while (total < 300 - committed.values().stream().mapToLong(OffsetAndMetadata::offset).sum()
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    firstSeen.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r.offset());
                    total++;
                }
            }
            committed.forEach((tp, offset) -> {
                if (firstSeen.containsKey(tp)) {
                    assertThat(firstSeen.get(tp)).as("first offset read of %s", tp).isEqualTo(offset.offset());
                }
            });
            assertThat(total).isEqualTo(300 - committed.values().stream().mapToLong(OffsetAndMetadata::offset).sum());
            assertThat(total).as("records read from the offsets the dead coordinator had committed").isPositive();
            consumer.commitSync(Duration.ofSeconds(30));
        }
        // Asked again until it answers: the Java admin client keeps the coordinator it found for the call's lifetime,
        // so a call that found the dead broker just before its session ended waits for that node until it times out
        // (as against Kafka, where a fenced broker also leaves Metadata). A new call finds the new coordinator.
        try (Admin admin = cluster.clients().admin()) {
            Awaitility.await("g1 described by its new coordinator").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> admin.describeConsumerGroups(List.of("g1")).all().get(10, TimeUnit.SECONDS).get("g1")
                            .coordinator().id() != coordinator);
        }
    }

    @Test
    void aTransactionWhoseCoordinatorDiesCommitsOrAbortsAsAWhole(TestInfo test) throws Exception {
        startCluster(test);
        cluster.clients().createTopic("payments", 3);
        cluster.awaitLedBy("payments", Set.of(1, 2, 3), Duration.ofSeconds(30));
        int coordinator;
        boolean committed;
        try (KafkaProducer<String, String> producer = cluster.clients().producer(Map.of("transactional.id", "tx-1",
                "delivery.timeout.ms", 120_000, "request.timeout.ms", 15_000, "max.block.ms", 90_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 30; i++) {
                producer.send(new ProducerRecord<>("payments", i % 3, "t" + i, "t" + i));
            }
            producer.flush();
            try (Admin admin = cluster.clients().admin()) {
                coordinator = admin.describeTransactions(List.of("tx-1")).all().get(30, TimeUnit.SECONDS).get("tx-1")
                        .coordinatorId();
            }
            cluster.broker(coordinator).kill();
            try {
                producer.commitTransaction();
                committed = true;
            } catch (KafkaException e) {
                LOG.info("commit after the coordinator died failed: {}", e.toString());
                committed = false;
            }
        }
        // A new producer of the same id completes what is pending (commit, or abort of what was not committed).
        try (KafkaProducer<String, String> again = cluster.clients().producer(Map.of("transactional.id", "tx-1",
                "max.block.ms", 90_000))) {
            again.initTransactions();
        }
        List<String> read = readCommitted("payments", 3);
        if (committed) {
            assertThat(read).hasSize(30);
        } else {
            assertThat(read).as("all of the transaction or none").satisfiesAnyOf(
                    r -> assertThat(r).hasSize(30), r -> assertThat(r).isEmpty());
        }
    }

    // ---- helpers ----

    private Map<Integer, Integer> leadersNow(String topic) throws Exception {
        try (Admin admin = cluster.clients().admin()) {
            return cluster.leaders(admin, topic);
        }
    }

    /**
     * Each partition's leader epoch as ListOffsets (latest) answers it: the epoch of the partition's current writer, as
     * in Kafka, where a new leader starts its epoch at the log end when it takes over.
     */
    private Map<Integer, Integer> epochsNow(String topic) throws Exception {
        try (Admin admin = cluster.clients().admin()) {
            int partitions = cluster.leaders(admin, topic).size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<Integer, Integer> out = new HashMap<>();
            admin.listOffsets(latest).all().get(20, TimeUnit.SECONDS)
                    .forEach((tp, info) -> out.put(tp.partition(), info.leaderEpoch().orElse(-1)));
            return out;
        }
    }

    private void produce(String topic, int count) throws Exception {
        try (KafkaProducer<String, String> producer = cluster.clients().producer(Map.of("enable.idempotence", true))) {
            List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sends.add(producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)));
            }
            for (Future<?> f : sends) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> committedOffsets(String group) throws Exception {
        try (Admin admin = cluster.clients().admin()) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        }
    }

    private List<String> readAll(String topic, int partitions, int atLeast) {
        return read(topic, partitions, atLeast, "read_uncommitted");
    }

    private List<String> readCommitted(String topic, int partitions) {
        return read(topic, partitions, -1, "read_committed");
    }

    /** Every value of {@code topic} from the start up to the end offsets of now (the last stable ones read_committed). */
    private List<String> read(String topic, int partitions, int atLeast, String isolation) {
        try (KafkaConsumer<String, String> consumer = cluster.clients().consumer(Map.of("isolation.level", isolation))) {
            List<TopicPartition> tps = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps, Duration.ofSeconds(30));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && !reached(consumer, end)) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
            assertThat(reached(consumer, end)).as("read %s to its end offsets %s", topic, end).isTrue();
            if (atLeast >= 0) {
                assertThat(values.size()).isGreaterThanOrEqualTo(atLeast);
            }
            return values;
        }
    }

    private static boolean reached(KafkaConsumer<String, String> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey(), Duration.ofSeconds(10)) >= e.getValue());
    }
}
