package io.kaas.broker.it.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.BrokerJvm;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once consume-transform-produce across SIGKILLs of the broker process: a loop polls the input
 * (read_committed), writes each record transformed to a different output partition (so every transaction has
 * many partitions and its markers take a while), sends the offsets to the transaction and commits. The broker,
 * in its own JVM, is killed at a random moment, in the middle of a transaction (records written, no end yet) and
 * right after a commit was acknowledged (PrepareCommit durable, markers being written), then restarted over the
 * same data; the loop recovers as an application does (new producer fencing the old one, new consumer from the
 * committed offsets). At the end the output read read_committed holds each input exactly once and the group's
 * committed offsets are the input's end. Over the segment engine and the RocksDB plugin. Rounds:
 * {@code -Dkaas.eos.kill.rounds} (default 3, one of each kind).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ExactlyOnceKillIT {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceKillIT.class);
    private static final String IN = "eos-in";
    private static final String OUT = "eos-out";
    private static final String GROUP = "eos-group";
    private static final String TXN_ID = "eos-loop";
    private static final int IN_PARTITIONS = 3;
    private static final int OUT_PARTITIONS = 12;
    private static final int RECORDS = 900;
    private static final int ROUNDS = Integer.getInteger("kaas.eos.kill.rounds", 3);

    @TempDir
    Path dir;

    /** Where the loop kills the broker itself, on the main thread's request. */
    enum KillPoint { RANDOM, MID_TRANSACTION, AFTER_COMMIT }

    private volatile BrokerJvm broker;
    private final AtomicReference<KillPoint> killRequest = new AtomicReference<>();
    private final AtomicReference<CountDownLatch> killed = new AtomicReference<>();
    private final Semaphore transactionsAllowed = new Semaphore(0);
    private final AtomicInteger commits = new AtomicInteger();
    private final AtomicInteger recoveries = new AtomicInteger();
    private final AtomicReference<Throwable> loopFailure = new AtomicReference<>();
    private volatile boolean stop;

    @ParameterizedTest
    @ValueSource(strings = {TestBroker.SEGMENTS, TestBroker.ROCKSDB})
    void eachInputIsInTheOutputExactlyOnceAcrossKills(String engine) throws Exception {
        int port = BrokerJvm.freePort();
        Path log = Files.createDirectories(Path.of("target")).resolve("ExactlyOnceKillIT-" + engine + "-broker.log");
        Files.deleteIfExists(log);
        Path data = Files.createDirectories(dir.resolve("data"));
        List<String> config = new ArrayList<>(List.of("group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false", "storage.engine=" + engine));
        if (engine.equals(TestBroker.ROCKSDB)) {
            Path plugins = dir.resolve("plugins");
            TestBroker.installPlugin("kaas-engine-rocksdb", plugins);
            config.addAll(List.of("plugins.dir=" + plugins, "storage.rocksdb.block.cache.bytes=8388608"));
        }
        String[] overrides = config.toArray(String[]::new);
        broker = BrokerJvm.start(data, port, log, overrides);
        KafkaClients clients = KafkaClients.at("127.0.0.1:" + port);
        Thread loop = null;
        try {
            clients.createTopic(IN, IN_PARTITIONS);
            clients.createTopic(OUT, OUT_PARTITIONS);
            try (KafkaProducer<String, String> producer = clients.producer(Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true))) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>(IN, i % IN_PARTITIONS, "k" + i, "in-" + i));
                }
                producer.flush();
            }
            loop = new Thread(() -> runLoop(clients), "eos-loop");
            loop.setDaemon(true);
            loop.start();

            Random random = new Random(Long.getLong("kaas.eos.kill.seed", System.nanoTime()));
            for (int round = 0; round < ROUNDS; round++) {
                KillPoint point = KillPoint.values()[round % KillPoint.values().length];
                int before = commits.get();
                transactionsAllowed.release(6);
                awaitCommits(before + 2, "progress before kill " + round);
                if (point == KillPoint.RANDOM) {
                    transactionsAllowed.release(20);
                    Thread.sleep(50 + random.nextInt(400));
                    LOG.info("round {}: SIGKILL at a random moment (after {} commits)", round, commits.get());
                    broker.kill();
                } else {
                    CountDownLatch latch = new CountDownLatch(1);
                    killed.set(latch);
                    killRequest.set(point);
                    transactionsAllowed.release(2);
                    assertThat(latch.await(60, TimeUnit.SECONDS)).as("the loop reached %s", point).isTrue();
                    LOG.info("round {}: SIGKILL {} (after {} commits)", round, point, commits.get());
                }
                Thread.sleep(random.nextInt(300));
                broker = BrokerJvm.start(data, port, log, overrides);
                int afterRestart = commits.get();
                transactionsAllowed.release(4);
                awaitCommits(afterRestart + 2, "progress after restart " + round);
            }
            transactionsAllowed.release(RECORDS * 10);
            Map<TopicPartition, Long> inputEnd;
            try (KafkaConsumer<String, String> c = clients.consumer()) {
                inputEnd = c.endOffsets(inputPartitions());
            }
            assertThat(inputEnd.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            Map<TopicPartition, Long> committed = Map.of();
            while (System.nanoTime() < deadline && loopFailure.get() == null) {
                committed = committedOffsets(clients);
                if (committed.equals(inputEnd)) {
                    break;
                }
                Thread.sleep(500);
            }
            assertThat(loopFailure.get()).as("the loop failed").isNull();
            assertThat(committed).as("the group's committed offsets are the input's end").isEqualTo(inputEnd);
            stop = true;
            loop.join(30_000);

            List<TopicPartition> outs = IntStream.range(0, OUT_PARTITIONS).mapToObj(p -> new TopicPartition(OUT, p)).toList();
            List<ConsumerRecord<String, String>> output = Txn.readAll(clients, Txn.READ_COMMITTED, outs, Duration.ofSeconds(60));
            Map<String, Long> counts = output.stream().collect(Collectors.groupingBy(ConsumerRecord::value, TreeMap::new,
                    Collectors.counting()));
            Map<String, Long> duplicates = counts.entrySet().stream().filter(e -> e.getValue() > 1)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
            assertThat(duplicates).as("inputs processed more than once (after %d recoveries)", recoveries.get()).isEmpty();
            assertThat(counts.keySet()).as("every input once")
                    .containsExactlyInAnyOrderElementsOf(expectedOutput());
            LOG.info("{}: exactly once over {} kills: {} commits, {} recoveries, {} output records", engine, ROUNDS,
                    commits.get(), recoveries.get(), output.size());
        } finally {
            stop = true;
            transactionsAllowed.release(RECORDS * 10);
            if (loop != null) {
                loop.join(30_000);
            }
            broker.kill();
        }
    }

    private void awaitCommits(int atLeast, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (commits.get() < atLeast) {
            assertThat(loopFailure.get()).as("the loop failed").isNull();
            assertThat(System.nanoTime()).as("%s: %d commits, want %d", what, commits.get(), atLeast).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static List<TopicPartition> inputPartitions() {
        return IntStream.range(0, IN_PARTITIONS).mapToObj(p -> new TopicPartition(IN, p)).toList();
    }

    /** The group's committed offsets as a read_committed (require_stable) fetch sees them; empty while unstable. */
    private static Map<TopicPartition, Long> committedOffsets(KafkaClients clients) {
        try (KafkaConsumer<String, String> c = clients.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            Map<TopicPartition, Long> out = new HashMap<>();
            c.committed(Set.copyOf(inputPartitions()), Duration.ofSeconds(5))
                    .forEach((tp, o) -> {
                        if (o != null) {
                            out.put(tp, o.offset());
                        }
                    });
            return out;
        } catch (RuntimeException notNow) {
            return Map.of();
        }
    }

    /** The application: recovers from every failure as an exactly-once application does, until told to stop. */
    private void runLoop(KafkaClients clients) {
        while (!stop) {
            try (KafkaProducer<String, String> producer = Txn.producer(clients, TXN_ID,
                    Map.of(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                            ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 20_000, ProducerConfig.LINGER_MS_CONFIG, 0));
                 KafkaConsumer<String, String> consumer = clients.groupConsumer(GROUP, Map.of(
                         ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                         ConsumerConfig.MAX_POLL_RECORDS_CONFIG, OUT_PARTITIONS,
                         ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000))) {
                producer.initTransactions();
                consumer.subscribe(List.of(IN));
                processUntilFailure(producer, consumer);
            } catch (Throwable e) {
                if (e instanceof AssertionError) {
                    loopFailure.set(e);
                    return;
                }
                if (!stop) {
                    recoveries.incrementAndGet();
                    LOG.info("eos loop recovers after {}", e.toString());
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }
    }

    private void processUntilFailure(KafkaProducer<String, String> producer, KafkaConsumer<String, String> consumer)
            throws Exception {
        while (!stop) {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            if (records.isEmpty()) {
                continue;
            }
            while (!transactionsAllowed.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                if (stop) {
                    return;
                }
            }
            producer.beginTransaction();
            int i = 0;
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (ConsumerRecord<String, String> r : records) {
                producer.send(new ProducerRecord<>(OUT, i++ % OUT_PARTITIONS, r.key(), transform(r.value())));
                offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            }
            if (killRequest.compareAndSet(KillPoint.MID_TRANSACTION, null)) {
                producer.flush(); // the records are stored, the transaction open
                killNow();
            }
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            producer.commitTransaction();
            commits.incrementAndGet();
            if (killRequest.compareAndSet(KillPoint.AFTER_COMMIT, null)) {
                killNow(); // PrepareCommit is durable; the markers to up to 12 partitions and the offsets are in flight
            }
        }
    }

    private void killNow() throws InterruptedException {
        broker.kill();
        killed.get().countDown();
    }

    /** The transform of the consume-transform-produce loop. */
    private static String transform(String value) {
        return "out-" + value;
    }

    private static List<String> expectedOutput() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            out.add(transform("in-" + i));
        }
        return out;
    }
}
