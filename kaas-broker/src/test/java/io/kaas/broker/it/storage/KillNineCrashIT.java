package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.BrokerJvm;
import io.kaas.broker.it.KafkaClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker in a separate JVM under acks=all load from three idempotent producers is killed with SIGKILL
 * ({@link Process#destroyForcibly}) at random moments and restarted over the same data directory while the
 * producers keep retrying. Afterwards every acknowledged record is read back at its acknowledged offset, each
 * producer's records are in send order within a partition, and no record appears twice. Three rounds by
 * default; {@code -Dkaas.crash.rounds=N} runs more.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class KillNineCrashIT {
    private static final String TOPIC = "crash";
    private static final int PARTITIONS = 3;
    private static final int PRODUCERS = 3;

    @TempDir
    Path tmp;

    @Test
    void everyAcknowledgedRecordSurvivesRepeatedKillNine() throws Exception {
        int rounds = Integer.getInteger("kaas.crash.rounds", 3);
        long seed = Long.getLong("kaas.crash.seed", System.nanoTime());
        Random random = new Random(seed);
        Path data = Files.createDirectories(tmp.resolve("data"));
        int port = BrokerJvm.freePort();
        String bootstrap = "127.0.0.1:" + port;
        BrokerJvm broker = BrokerJvm.start(data, port, tmp.resolve("broker-0.log"));
        try {
            try (Admin admin = KafkaClients.at(bootstrap).admin()) {
                KafkaClients.createTopic(admin, TOPIC, PARTITIONS, Map.of("segment.bytes", String.valueOf(1024 * 1024)));
            }
            Map<String, Acked> acked = new ConcurrentHashMap<>();
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> threads = new ArrayList<>();
            List<KafkaProducer<String, String>> producers = new ArrayList<>();
            AtomicLong failures = new AtomicLong();
            for (int p = 0; p < PRODUCERS; p++) {
                KafkaProducer<String, String> producer = KafkaClients.at(bootstrap).producer(Map.of(
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000, ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000,
                        ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50, ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200));
                producers.add(producer);
                int id = p;
                Thread t = new Thread(() -> produce(producer, id, running, acked, failures), "crash-producer-" + p);
                threads.add(t);
                t.start();
            }
            for (int round = 1; round <= rounds; round++) {
                // Not a wait for a condition: a random moment under load is what is killed.
                Thread.sleep(400 + random.nextInt(1200));
                long before = acked.size();
                broker.kill();
                broker = BrokerJvm.start(data, port, tmp.resolve("broker-" + round + ".log"));
                assertThat(before).as("acknowledged before kill %d (seed %d)", round, seed).isPositive();
            }
            int ackedAtLastRestart = acked.size();
            await("acknowledgements from the restarted broker (seed " + seed + ")").atMost(Duration.ofSeconds(30))
                    .until(() -> acked.size() > ackedAtLastRestart);
            running.set(false);
            for (Thread t : threads) {
                t.join(60_000);
            }
            for (KafkaProducer<String, String> producer : producers) {
                producer.flush();
                producer.close(Duration.ofSeconds(10));
            }
            verify(bootstrap, acked, seed);
        } finally {
            broker.kill();
        }
    }

    /** Where the broker said a record went. */
    record Acked(int partition, long offset) {
    }

    private static void produce(KafkaProducer<String, String> producer, int id, AtomicBoolean running,
                                Map<String, Acked> acked, AtomicLong failures) {
        Semaphore inFlight = new Semaphore(500);
        long seq = 0;
        while (running.get()) {
            try {
                if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            int partition = (int) (seq % PARTITIONS);
            String value = "p" + id + "-" + seq;
            producer.send(new ProducerRecord<>(TOPIC, partition, value, value), (md, e) -> {
                inFlight.release();
                if (e == null) {
                    acked.put(value, new Acked(md.partition(), md.offset()));
                } else {
                    failures.incrementAndGet();
                }
            });
            seq++;
        }
    }

    private static void verify(String bootstrap, Map<String, Acked> acked, long seed) {
        assertThat(acked).as("acknowledged records (seed %d)", seed).isNotEmpty();
        try (KafkaConsumer<String, String> consumer = KafkaClients.at(bootstrap).consumer()) {
            Set<String> seen = new HashSet<>();
            Map<String, String> readAt = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition tp = new TopicPartition(TOPIC, p);
                List<ConsumerRecord<String, String>> records = KafkaClients.readAll(consumer, tp, Duration.ofSeconds(60));
                Map<Integer, Long> lastSeqPerProducer = new HashMap<>();
                for (ConsumerRecord<String, String> r : records) {
                    assertThat(seen.add(r.value())).as("duplicate %s at %s (seed %d)", r.value(), r.offset(), seed).isTrue();
                    readAt.put(p + "@" + r.offset(), r.value());
                    int producer = Integer.parseInt(r.value().substring(1, r.value().indexOf('-')));
                    long seq = Long.parseLong(r.value().substring(r.value().indexOf('-') + 1));
                    Long last = lastSeqPerProducer.put(producer, seq);
                    assertThat(last == null || last < seq).as("order of producer %d in %s at %d (seed %d)", producer, tp,
                            r.offset(), seed).isTrue();
                }
            }
            acked.forEach((value, at) -> assertThat(readAt.get(at.partition() + "@" + at.offset()))
                    .as("acknowledged %s at %s (seed %d)", value, at, seed).isEqualTo(value));
            System.out.printf("kill -9 test: %d acknowledged, %d read back, seed %d%n", acked.size(), seen.size(), seed);
        }
    }
}
