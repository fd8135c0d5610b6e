package io.kaas.broker.it.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.BrokerJvm;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.it.cluster.TestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams count per key (in-memory store with its changelog, no cache: one output update per input)
 * across a restart of the broker, with {@code processing.guarantee=exactly_once_v2} and with {@code at_least_once}.
 * Exactly once: the broker restarts (cleanly in process, or SIGKILLed in its own JVM) while the second half of the
 * input is being processed, and the output read read_committed is, per key, exactly 1, 2, ..., n. At least once: the broker restarts once the first half is
 * processed and committed, and the output is as exact.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class StreamsEosIT {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsEosIT.class);
    private static final int KEYS = 5;
    private static final int HALF = 60;

    @TempDir
    Path dir;
    @TempDir
    Path stateDir;

    /**
     * @param restart {@code clean}: the in-process broker is closed and started again; {@code sigkill}: the broker
     *                runs in its own JVM and is killed with SIGKILL, then started again over the same data;
     *                {@code coordinator-leaves}: three brokers on one directory and a ZooKeeper ensemble, and the
     *                broker coordinating the application's group leaves (its groups and partitions move to the others,
     *                offsets of open transactions with them)
     */
    @ParameterizedTest(name = "exactly_once_v2, {0} restart")
    @ValueSource(strings = {"clean", "sigkill", "coordinator-leaves"})
    void exactlyOnceCountsExactlyAcrossABrokerRestart(String restart) throws Exception {
        countAcrossABrokerRestart(StreamsConfig.EXACTLY_ONCE_V2, restart);
    }

    /**
     * At least once, the broker restarted cleanly once the first half is processed and committed: the group's
     * membership is kept across the restart (its GroupMetadata record in {@code __consumer_offsets}, as Kafka), so
     * the member's next commit succeeds and nothing is processed twice.
     */
    @Test
    void atLeastOnceCountsExactlyAcrossAnIdleBrokerRestart() throws Exception {
        countAcrossABrokerRestart(StreamsConfig.AT_LEAST_ONCE, "clean");
    }

    private void countAcrossABrokerRestart(String guarantee, String restart) throws Exception {
        String app = "count-" + guarantee.replace('_', '-') + "-" + restart;
        String in = app + "-in";
        String out = app + "-out";
        int port = BrokerJvm.freePort();
        Restartable broker;
        KafkaClients clients;
        if (restart.equals("coordinator-leaves")) {
            TestCluster cluster = TestCluster.start(dir, 3, Map.of("group.initial.rebalance.delay.ms", "0"));
            clients = cluster.clients();
            broker = coordinatorLeaves(cluster, app);
        } else {
            broker = restart.equals("sigkill") ? jvm(dir, port)
                    : kaas(TestBroker.builder(dir).noInitialRebalanceDelay().config("listeners", "PLAINTEXT://127.0.0.1:" + port));
            clients = KafkaClients.at("127.0.0.1:" + port);
        }
        AtomicInteger replacedThreads = new AtomicInteger();
        try {
            clients.createTopic(in, 2);
            clients.createTopic(out, 2);
            produce(clients, in, 0);

            StreamsBuilder topology = new StreamsBuilder();
            topology.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                    .groupByKey()
                    // the count, and the input that made it ("3@v12"), so a failure shows which input counted twice
                    .aggregate(() -> "0@", (key, value, agg) -> (count(agg) + 1) + "@" + value,
                            Materialized.<String, String>as(Stores.inMemoryKeyValueStore("counts"))
                                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                    .toStream()
                    .to(out, Produced.with(Serdes.String(), Serdes.String()));
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, clients.bootstrap());
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
            props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
            props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
            props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);

            List<TopicPartition> outs = List.of(new TopicPartition(out, 0), new TopicPartition(out, 1));
            try (KafkaStreams streams = new KafkaStreams(topology.build(), props)) {
                streams.setUncaughtExceptionHandler(e -> {
                    replacedThreads.incrementAndGet();
                    LOG.warn("{}: stream thread died, replaced", app, e);
                    return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
                });
                streams.start();
                awaitOutput(clients, outs, HALF);
                Thread.sleep(500);
                assertThat(Txn.readAll(clients, Txn.READ_COMMITTED, outs, Duration.ofSeconds(20)))
                        .as("the output of the first half, before any restart").hasSize(HALF);
                if (guarantee.equals(StreamsConfig.AT_LEAST_ONCE)) {
                    // restart only once everything read is committed: at least once is then exact too
                    awaitCommitted(clients, app, in, HALF);
                    broker.restart();
                    produce(clients, in, HALF);
                } else {
                    produce(clients, in, HALF);
                    broker.restart(); // while the second half is being processed
                }
                awaitOutput(clients, outs, 2 * HALF);
                Thread.sleep(1_000); // a duplicate would show up meanwhile
                assertThat(streams.state()).isIn(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
            }
            List<ConsumerRecord<String, String>> output = Txn.readAll(clients, Txn.READ_COMMITTED, outs, Duration.ofSeconds(30));
            Map<String, List<String>> perKey = output.stream().collect(Collectors.groupingBy(ConsumerRecord::key,
                    TreeMap::new, Collectors.mapping(r -> String.valueOf(count(r.value())), Collectors.toList())));
            Map<String, List<String>> expected = new TreeMap<>();
            for (int k = 0; k < KEYS; k++) {
                expected.put("key-" + k, IntStream.rangeClosed(1, 2 * HALF / KEYS).mapToObj(String::valueOf).toList());
            }
            assertThat(perKey).as("%s: counts per key, read_committed (%d stream threads replaced); output %s", guarantee,
                    replacedThreads.get(), describe(output)).isEqualTo(expected);
        } finally {
            broker.close();
        }
    }

    /** Input records {@code from} .. {@code from + HALF - 1}, keys round robin. */
    /** The broker under test, restarted over the same data and port. */
    interface Restartable extends AutoCloseable {
        void restart() throws Exception;

        @Override
        void close();
    }

    /** kaas in process: a restart closes it (as a clean shutdown) and starts it again from the same builder. */
    /** "Restarts" by closing the broker that coordinates group {@code group}; the others go on. */
    private static Restartable coordinatorLeaves(TestCluster cluster, String group) {
        return new Restartable() {
            @Override
            public void restart() throws Exception {
                try (org.apache.kafka.clients.admin.Admin admin = cluster.clients().admin()) {
                    int coordinator = admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS)
                            .get(group).coordinator().id();
                    LOG.info("{}: closing broker {}, the group's coordinator", group, coordinator);
                    cluster.closeBroker(coordinator);
                }
            }

            @Override
            public void close() {
                try {
                    cluster.close();
                } catch (Exception e) {
                    LOG.warn("closing the cluster", e);
                }
            }
        };
    }

    private static Restartable kaas(TestBroker.Builder builder) throws Exception {
        TestBroker[] current = {builder.start()};
        return new Restartable() {
            @Override
            public void restart() throws Exception {
                current[0] = current[0].restart();
            }

            @Override
            public void close() {
                current[0].close();
            }
        };
    }

    private static long count(String aggregate) {
        return Long.parseLong(aggregate.substring(0, aggregate.indexOf('@')));
    }

    /** partition:offset:key=value of each record, for a failure message. */
    private static String describe(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> r.partition() + ":" + r.offset() + ":" + r.key() + "=" + r.value())
                .collect(Collectors.joining(" "));
    }

    /** kaas in its own JVM: a restart is a SIGKILL, then a start over the same data and port. */
    private static Restartable jvm(Path dir, int port) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path log = Files.createDirectories(Path.of("target")).resolve("StreamsEosIT-broker.log");
        Files.deleteIfExists(log);
        BrokerJvm[] current = {BrokerJvm.start(data, port, log, "group.initial.rebalance.delay.ms=0")};
        return new Restartable() {
            @Override
            public void restart() throws Exception {
                current[0].kill();
                current[0] = BrokerJvm.start(data, port, log, "group.initial.rebalance.delay.ms=0");
            }

            @Override
            public void close() {
                try {
                    current[0].kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    private static void produce(KafkaClients broker, String topic, int from) throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = from; i < from + HALF; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + (i % KEYS), "v" + i));
            }
            producer.flush();
        }
        List<TopicPartition> ins = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        assertThat(Txn.readAll(broker, Txn.READ_UNCOMMITTED, ins, Duration.ofSeconds(20))).as("the input").hasSize(from + HALF);
    }

    private static void awaitOutput(KafkaClients broker, List<TopicPartition> outs, int records) {
        Awaitility.await("output of " + records + " records").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> Txn.readAll(broker, Txn.READ_COMMITTED, outs, Duration.ofSeconds(20)).size() >= records);
    }

    private static void awaitCommitted(KafkaClients broker, String group, String topic, long total) {
        Awaitility.await("the application committed " + total + " input offsets").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
                    try (Admin admin = broker.admin()) {
                        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group,
                                new ListConsumerGroupOffsetsOptions().requireStable(true))
                                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                        return new LinkedHashMap<>(offsets).entrySet().stream().filter(e -> e.getKey().topic().equals(topic))
                                .mapToLong(e -> e.getValue().offset()).sum() == total;
                    }
                });
    }
}
