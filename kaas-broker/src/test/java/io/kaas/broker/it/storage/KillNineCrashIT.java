package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
        int port = freePort();
        String bootstrap = "127.0.0.1:" + port;
        BrokerProcess broker = BrokerProcess.start(data, port, tmp.resolve("broker-0.log"));
        try {
            try (Admin admin = StorageBroker.admin(bootstrap)) {
                StorageBroker.createTopic(admin, TOPIC, PARTITIONS, Map.of("segment.bytes", String.valueOf(1024 * 1024)));
            }
            Map<String, Acked> acked = new ConcurrentHashMap<>();
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> threads = new ArrayList<>();
            List<KafkaProducer<String, String>> producers = new ArrayList<>();
            AtomicLong failures = new AtomicLong();
            for (int p = 0; p < PRODUCERS; p++) {
                KafkaProducer<String, String> producer = StorageBroker.producer(bootstrap, Map.of(
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
                Thread.sleep(400 + random.nextInt(1200));
                long before = acked.size();
                broker.kill();
                broker = BrokerProcess.start(data, port, tmp.resolve("broker-" + round + ".log"));
                assertThat(before).as("acknowledged before kill %d (seed %d)", round, seed).isPositive();
            }
            Thread.sleep(500);
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
        try (KafkaConsumer<String, String> consumer = StorageBroker.consumer(bootstrap)) {
            Set<String> seen = new HashSet<>();
            Map<String, String> readAt = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition tp = new TopicPartition(TOPIC, p);
                List<ConsumerRecord<String, String>> records = StorageBroker.readAll(consumer, tp, Duration.ofSeconds(60));
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /** {@code io.kaas.broker.Main} in its own JVM on this test's class path. */
    static final class BrokerProcess {
        private final Process process;
        private final Path log;

        private BrokerProcess(Process process, Path log) {
            this.process = process;
            this.log = log;
        }

        static BrokerProcess start(Path data, int port, Path log) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    "io.kaas.broker.Main", "--override", "node.id=1",
                    "--override", "listeners=PLAINTEXT://127.0.0.1:" + port,
                    "--override", "log.dirs=" + data)
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            BrokerProcess broker = new BrokerProcess(pb.start(), log);
            broker.awaitListening(port);
            return broker;
        }

        private void awaitListening(int port) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("broker exited: " + Files.readString(log));
                }
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                    return;
                } catch (IOException e) {
                    Thread.sleep(50);
                }
            }
            throw new IllegalStateException("broker not listening after 30 s: " + Files.readString(log));
        }

        /** SIGKILL: no shutdown hook, no flush, no clean-shutdown marker. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
