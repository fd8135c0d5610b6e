package io.kaas.broker.it.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.KafkaConfigsTool;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The dynamic thread counts and the log cleaner's dynamic settings: {@code num.io.threads} and {@code log.cleaner.*}
 * changed at run time with the Admin client and {@code kafka-configs}, observed in the JVM's threads and in what the
 * cleaner does, with Kafka's refusals for the counts out of range.
 */
@Timeout(180)
class DynamicThreadsAndCleanerIT {
    private static final ConfigResource DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final ConfigResource BROKER_1 = new ConfigResource(ConfigResource.Type.BROKER, "1");

    @TempDir
    Path dir;

    private static Throwable alter(Admin admin, ConfigResource resource, String key, String value, boolean validateOnly) {
        try {
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(key, value),
                    AlterConfigOp.OpType.SET))), new AlterConfigsOptions().validateOnly(validateOnly)).all()
                    .get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Kafka 4.4's words for a reconfiguration check that failed (it wraps the check's own ConfigException). */
    private static String invalidDynamic(String problem) {
        return "Invalid value org.apache.kafka.common.config.ConfigException: " + problem
                + " for configuration Invalid dynamic configuration";
    }

    private static ConfigEntry describe(Admin admin, String key) throws Exception {
        return admin.describeConfigs(List.of(BROKER_1), new DescribeConfigsOptions().includeSynonyms(true)).all()
                .get(20, TimeUnit.SECONDS).get(BROKER_1).get(key);
    }

    private static long threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith(prefix)).count();
    }

    /**
     * The threads named {@code prefix...} that are not this test's broker's: other tests' brokers left in this JVM keep
     * theirs. Counted once their number holds still (a broker closed just before is still stopping its threads).
     */
    private static long othersThreads(String prefix) throws InterruptedException {
        long before = threads(prefix);
        for (int i = 0; i < 20; i++) {
            Thread.sleep(250);
            long now = threads(prefix);
            if (now == before) {
                return now;
            }
            before = now;
        }
        return before;
    }

    private static void awaitThreads(String prefix, long others, int count) {
        await(count + " " + prefix + "* threads of this broker").atMost(Duration.ofSeconds(20))
                .until(() -> threads(prefix) - others == count);
    }

    private static ListAppender<ILoggingEvent> capture(Class<?> type) {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        ((Logger) LoggerFactory.getLogger(type)).addAppender(log);
        return log;
    }

    private static void awaitLine(ListAppender<ILoggingEvent> log, Predicate<String> line) {
        await("log line").atMost(Duration.ofSeconds(20)).until(() -> List.copyOf(log.list).stream()
                .map(ILoggingEvent::getFormattedMessage).anyMatch(line));
    }

    @Test
    void numIoThreadsResizesTheRequestHandlersWhileRequestsKeepTheirOrder() throws Exception {
        String handler = "kaas-request-handler-";
        long others = othersThreads(handler);
        ListAppender<ILoggingEvent> poolLog = capture(Class.forName("io.kaas.broker.network.RequestHandlerPool"));
        try (TestBroker broker = TestBroker.builder(dir).config("num.io.threads", "4").start(); Admin admin = broker.admin()) {
            awaitThreads(handler, others, 4);
            KafkaClients.createTopic(admin, "ordered", 1, Map.of());

            // an idempotent producer keeps sending while the pool grows and shrinks: nothing lost, nothing reordered
            AtomicBoolean stop = new AtomicBoolean();
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            Thread sender = new Thread(() -> {
                try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 0,
                        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5))) {
                    for (int i = 0; !stop.get() && i < 100_000; i++) {
                        Future<RecordMetadata> f = producer.send(new ProducerRecord<>("ordered", 0, "k", "v" + i));
                        synchronized (sent) {
                            sent.add(f);
                        }
                        if (i % 50 == 0) {
                            Thread.sleep(1);
                        }
                    }
                    producer.flush();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "ordered-sender");
            sender.start();

            KafkaConfigsTool.Run grow = KafkaConfigsTool.run(broker, "--entity-type", "brokers", "--entity-name", "1",
                    "--alter", "--add-config", "num.io.threads=8");
            assertThat(grow.exitCode()).as(grow.out()).isZero();
            awaitThreads(handler, others, 8);
            assertThat(describe(admin, "num.io.threads").value()).isEqualTo("8");
            assertThat(describe(admin, "num.io.threads").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
            awaitLine(poolLog, l -> l.equals("Request handler pool resized: num.io.threads 4 -> 8"));

            // bad input: Kafka's words, nothing changed
            assertThat(alter(admin, BROKER_1, "num.io.threads", "17", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage(invalidDynamic("Dynamic thread count update validation failed for num.io.threads=17, "
                            + "value should not be greater than double the current value 8"));
            assertThat(alter(admin, BROKER_1, "num.io.threads", "3", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage(invalidDynamic("Dynamic thread count update validation failed for num.io.threads=3, "
                            + "value should be at least half the current value 8"));
            assertThat(alter(admin, BROKER_1, "num.io.threads", "0", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Invalid value 0 for configuration num.io.threads: Value must be at least 1");
            assertThat(alter(admin, BROKER_1, "num.io.threads", "many", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Invalid value many for configuration num.io.threads: Not a number of type INT");
            // the cluster default is held to the same rule (this broker has no value of its own for it then)
            assertThat(alter(admin, DEFAULT, "num.io.threads", "2", false)).as("its own 8 wins over the default").isNull();
            assertThat(alter(admin, DEFAULT, "num.io.threads", "2", true)).isNull();
            assertThat(describe(admin, "num.io.threads").value()).isEqualTo("8");
            assertThat(threads(handler) - others).isEqualTo(8);

            // shrink: to half, then the broker's own value removed, so the cluster default's 2 applies (half of 4)
            assertThat(alter(admin, BROKER_1, "num.io.threads", "4", false)).isNull();
            awaitThreads(handler, others, 4);
            KafkaConfigsTool.Run delete = KafkaConfigsTool.run(broker, "--entity-type", "brokers", "--entity-name", "1",
                    "--alter", "--delete-config", "num.io.threads");
            assertThat(delete.exitCode()).as(delete.out()).isZero();
            awaitThreads(handler, others, 2);
            assertThat(describe(admin, "num.io.threads").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
            assertThat(alter(admin, DEFAULT, "num.io.threads", "5", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage(invalidDynamic("Dynamic thread count update validation failed for num.io.threads=5, "
                            + "value should not be greater than double the current value 2"));

            stop.set(true);
            sender.join(60_000);
            List<Long> offsets = new ArrayList<>();
            synchronized (sent) {
                for (Future<RecordMetadata> f : sent) {
                    offsets.add(f.get(30, TimeUnit.SECONDS).offset());
                }
            }
            assertThat(offsets).as("every send acknowledged").isNotEmpty();
            TopicPartition tp = new TopicPartition("ordered", 0);
            try (KafkaConsumer<String, String> consumer = broker.consumer()) {
                List<ConsumerRecord<String, String>> records = KafkaClients.readAll(consumer, tp, Duration.ofSeconds(30));
                assertThat(records).hasSize(offsets.size());
                for (int i = 0; i < records.size(); i++) {
                    assertThat(records.get(i).value()).as("record %d", i).isEqualTo("v" + i);
                    assertThat(records.get(i).offset()).isEqualTo(offsets.get(i));
                }
            }
        } finally {
            ((Logger) LoggerFactory.getLogger(Class.forName("io.kaas.broker.network.RequestHandlerPool")))
                    .detachAppender(poolLog);
        }
    }

    @Test
    void numNetworkThreadsGrowsAndShrinksClosingTheRemovedThreadsConnectionsWhichReconnect() throws Exception {
        String network = "kaas-network-";
        long others = othersThreads(network);
        ListAppender<ILoggingEvent> log = capture(Class.forName("io.kaas.broker.network.NetworkThreads"));
        try (TestBroker broker = TestBroker.builder(dir).config("num.network.threads", "2").start();
             Admin admin = broker.admin()) {
            awaitThreads(network, others, 2);
            KafkaClients.createTopic(admin, "net", 1, Map.of());
            assertThat(alter(admin, BROKER_1, "num.network.threads", "4", false)).isNull();
            awaitThreads(network, others, 4);
            awaitLine(log, l -> l.equals("Network threads resized: num.network.threads 2 -> 4"));
            assertThat(describe(admin, "num.network.threads").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);

            // connections spread over the four threads; a shrink to two closes the other two's, and the clients
            // reconnect by themselves
            List<KafkaProducer<String, String>> producers = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    KafkaProducer<String, String> p = broker.producer();
                    producers.add(p);
                    p.send(new ProducerRecord<>("net", 0, "k", "before-" + i)).get(20, TimeUnit.SECONDS);
                }
                ListAppender<ILoggingEvent> serverLog = capture(Class.forName("io.kaas.broker.network.KafkaServer"));
                try {
                    assertThat(alter(admin, BROKER_1, "num.network.threads", "2", false)).isNull();
                    awaitThreads(network, others, 2);
                    // eight or more connections were handed to the four threads in turn: the removed two held some
                    awaitLine(serverLog, l -> l.matches(
                            "Closing the [1-9][0-9]* connections of the 2 network threads removed; their clients reconnect"));
                } finally {
                    ((Logger) LoggerFactory.getLogger(Class.forName("io.kaas.broker.network.KafkaServer")))
                            .detachAppender(serverLog);
                }
                for (int i = 0; i < 4; i++) {
                    producers.get(i).send(new ProducerRecord<>("net", 0, "k", "after-" + i)).get(30, TimeUnit.SECONDS);
                }
            } finally {
                producers.forEach(KafkaProducer::close);
            }
            assertThat(alter(admin, BROKER_1, "num.network.threads", "1", false)).as("half of 2").isNull();
            awaitThreads(network, others, 1);
            // bad input: Kafka's words (wrapped as its reconfiguration pass wraps them), nothing changed
            assertThat(alter(admin, BROKER_1, "num.network.threads", "3", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage(invalidDynamic("Dynamic thread count update validation failed for num.network.threads=3, "
                            + "value should not be greater than double the current value 1"));
            assertThat(alter(admin, BROKER_1, "num.network.threads", "0", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Invalid value 0 for configuration num.network.threads: Value must be at least 1");
            assertThat(describe(admin, "num.network.threads").value()).isEqualTo("1");
            try (KafkaConsumer<String, String> consumer = broker.consumer()) {
                assertThat(KafkaClients.readAll(consumer, new TopicPartition("net", 0), Duration.ofSeconds(20)))
                        .extracting(ConsumerRecord::value).containsExactly("before-0", "before-1", "before-2", "before-3",
                                "after-0", "after-1", "after-2", "after-3");
            }
            assertThat(threads(network) - others).isEqualTo(1);
        } finally {
            ((Logger) LoggerFactory.getLogger(Class.forName("io.kaas.broker.network.NetworkThreads"))).detachAppender(log);
        }
    }

    @Test
    void theCleanersThreadsBackoffAndRateChangeAtRunTime() throws Exception {
        String cleaner = "kaas-segments-cleaner-";
        long others = othersThreads(cleaner);
        ListAppender<ILoggingEvent> cleanerLog = capture(Class.forName(
                "io.kaas.engine.segments.internal.CleanerThreads"));
        try (TestBroker broker = TestBroker.builder(dir).config("log.cleaner.backoff.ms", "600000").start();
             Admin admin = broker.admin()) {
            awaitThreads(cleaner, others, 1);
            assertThat(describe(admin, "log.cleaner.backoff.ms").source())
                    .isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
            KafkaClients.createTopic(admin, "compacted", 1, Map.of("cleanup.policy", "compact", "segment.ms", "50",
                    "min.cleanable.dirty.ratio", "0.01"));
            TopicPartition tp = new TopicPartition("compacted", 0);
            try (KafkaProducer<String, String> producer = broker.producer()) {
                for (int round = 0; round < 4; round++) {
                    for (int k = 0; k < 5; k++) {
                        producer.send(new ProducerRecord<>("compacted", 0, "k" + k, "v" + round)).get(10, TimeUnit.SECONDS);
                    }
                    // Not a wait for a condition: segment.ms (50 ms) passing rolls the next round into a new segment.
                    Thread.sleep(60);
                }
                producer.send(new ProducerRecord<>("compacted", 0, "tail", "t")).get(10, TimeUnit.SECONDS);
            }
            try (KafkaConsumer<String, String> consumer = broker.consumer()) {
                Thread.sleep(1000);
                assertThat(KafkaClients.readAll(consumer, tp, Duration.ofSeconds(10)))
                        .as("nothing compacted within the 10-minute backoff").hasSize(21);

                KafkaConfigsTool.Run backoff = KafkaConfigsTool.run(broker, "--entity-type", "brokers", "--entity-default",
                        "--alter", "--add-config", "log.cleaner.backoff.ms=200");
                assertThat(backoff.exitCode()).as(backoff.out()).isZero();
                await("compaction after the new backoff").atMost(Duration.ofSeconds(30)).pollInSameThread()
                        .until(() -> KafkaClients.readAll(consumer, tp, Duration.ofSeconds(10)).size() == 6);
            }
            awaitLine(cleanerLog, l -> l.equals("Log cleaner reconfigured: cleaner.backoff.ms 600000 -> 200"));
            assertThat(describe(admin, "log.cleaner.backoff.ms").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

            assertThat(alter(admin, BROKER_1, "log.cleaner.threads", "2", false)).isNull();
            awaitThreads(cleaner, others, 2);
            assertThat(alter(admin, BROKER_1, "log.cleaner.io.max.bytes.per.second", "1048576", false)).isNull();
            ConfigEntry rate = describe(admin, "log.cleaner.io.max.bytes.per.second");
            assertThat(rate.value()).as("a DOUBLE shown as Kafka shows it").isEqualTo("1048576.0");
            assertThat(rate.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
            awaitLine(cleanerLog, l -> l.contains("cleaner.io.max.bytes.per.second 1.7976931348623157E308 -> 1048576.0"));

            // bad input: Kafka's words, nothing changed
            assertThat(alter(admin, BROKER_1, "log.cleaner.threads", "5", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage(invalidDynamic("Log cleaner threads cannot be increased to more than double the current "
                            + "value 2"));
            assertThat(alter(admin, BROKER_1, "log.cleaner.threads", "0", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage(invalidDynamic("Log cleaner threads should be at least 1"));
            assertThat(alter(admin, BROKER_1, "log.cleaner.threads", "-1", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Invalid value -1 for configuration log.cleaner.threads: Value must be at least 0");
            assertThat(alter(admin, BROKER_1, "log.cleaner.io.max.bytes.per.second", "fast", false))
                    .isInstanceOf(InvalidRequestException.class).hasMessage(
                            "Invalid value fast for configuration log.cleaner.io.max.bytes.per.second: Not a number of type DOUBLE");
            assertThat(alter(admin, BROKER_1, "log.cleaner.io.max.bytes.per.second", "0", false))
                    .isInstanceOf(InvalidRequestException.class).hasMessage(
                            "Invalid value 0 for configuration log.cleaner.io.max.bytes.per.second: Value must be greater than 0");
            assertThat(alter(admin, DEFAULT, "log.cleaner.backoff.ms", "-1", false))
                    .isInstanceOf(InvalidRequestException.class).hasMessage(
                            "Invalid value -1 for configuration log.cleaner.backoff.ms: Value must be at least 0");
            assertThat(describe(admin, "log.cleaner.threads").value()).isEqualTo("2");
            assertThat(describe(admin, "log.cleaner.backoff.ms").value()).isEqualTo("200");
            assertThat(threads(cleaner) - others).isEqualTo(2);
        } finally {
            ((Logger) LoggerFactory.getLogger(Class.forName("io.kaas.engine.segments.internal.CleanerThreads")))
                    .detachAppender(cleanerLog);
        }
    }
}
