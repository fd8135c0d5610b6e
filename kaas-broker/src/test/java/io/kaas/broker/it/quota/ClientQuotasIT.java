package io.kaas.broker.it.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.KafkaConfigsTool;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterClientQuotasOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** Client quotas with the real Java clients and kafka-configs, against one in-process broker. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClientQuotasIT {
    private static final double MIB = 1024 * 1024;

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("data"));
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static Map<ClientQuotaEntity, Map<String, Double>> all(Admin admin) throws Exception {
        return admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get(20, TimeUnit.SECONDS);
    }

    private static void alter(Admin admin, ClientQuotaEntity entity, String key, Double value) throws Exception {
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity, List.of(new ClientQuotaAlteration.Op(key,
                value))))).all().get(20, TimeUnit.SECONDS);
    }

    @Test
    @Order(1)
    void badInputIsRefusedWithKafkasErrorAndNothingIsStored() throws Exception {
        ClientQuotaEntity c1 = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "bad"));
        try (Admin admin = broker.admin()) {
            assertThatThrownBy(() -> alter(admin, c1, "producer_bytes_rate", 1024.0))
                    .hasCauseInstanceOf(InvalidRequestException.class)
                    .cause().hasMessage("Invalid configuration key producer_bytes_rate");
            assertThatThrownBy(() -> alter(admin, c1, "producer_byte_rate", -5.0))
                    .hasCauseInstanceOf(InvalidRequestException.class)
                    .cause().hasMessage("Quota producer_byte_rate must be greater than 0");
            assertThatThrownBy(() -> alter(admin, c1, "producer_byte_rate", 10.5))
                    .cause().hasMessage("producer_byte_rate cannot be a fractional value.");
            ClientQuotaEntity ipAndUser = new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP, "127.0.0.1",
                    ClientQuotaEntity.USER, "u"));
            assertThatThrownBy(() -> alter(admin, ipAndUser, "connection_creation_rate", 5.0))
                    .hasCauseInstanceOf(InvalidRequestException.class);
            ClientQuotaEntity topic = new ClientQuotaEntity(Map.of("topic", "t"));
            assertThatThrownBy(() -> alter(admin, topic, "producer_byte_rate", 5.0))
                    .hasCauseInstanceOf(InvalidRequestException.class)
                    .cause().hasMessage("Unhandled client quota entity type: topic");
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(c1, List.of(new ClientQuotaAlteration.Op(
                    "producer_byte_rate", 1024.0)))), new AlterClientQuotasOptions().validateOnly(true))
                    .all().get(20, TimeUnit.SECONDS);
            assertThat(all(admin)).as("validate_only stores nothing").isEmpty();
        }
        KafkaConfigsTool.Run run = KafkaConfigsTool.run(broker, "--alter", "--entity-type", "clients",
                "--entity-name", "bad", "--add-config", "producer_byte_rate=-1");
        assertThat(run.exitCode()).as(run.out()).isNotZero();
        assertThat(run.out()).contains("Quota producer_byte_rate must be greater than 0");
        try (Admin admin = broker.admin()) {
            assertThat(all(admin)).isEmpty();
        }
    }

    @Test
    @Order(2)
    void kafkaConfigsSetsDescribesAndRemovesQuotas() throws Exception {
        KafkaConfigsTool.Run set = KafkaConfigsTool.run(broker, "--alter", "--entity-type", "clients",
                "--entity-name", "c1", "--add-config", "producer_byte_rate=2048000,request_percentage=200");
        assertThat(set.exitCode()).as(set.out()).isZero();
        KafkaConfigsTool.Run setDefault = KafkaConfigsTool.run(broker, "--alter", "--entity-type", "users",
                "--entity-default", "--add-config", "consumer_byte_rate=4096000");
        assertThat(setDefault.exitCode()).as(setDefault.out()).isZero();
        try (Admin admin = broker.admin()) {
            Map<String, String> defaultUser = new java.util.HashMap<>();
            defaultUser.put(ClientQuotaEntity.USER, null);
            assertThat(all(admin)).isEqualTo(Map.of(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "c1")),
                    Map.of("producer_byte_rate", 2048000.0, "request_percentage", 200.0),
                    new ClientQuotaEntity(defaultUser), Map.of("consumer_byte_rate", 4096000.0)));
        }
        KafkaConfigsTool.Run describe = KafkaConfigsTool.run(broker, "--describe", "--entity-type", "clients",
                "--entity-name", "c1");
        assertThat(describe.exitCode()).as(describe.out()).isZero();
        assertThat(describe.out()).contains("Quota configs for client-id 'c1' are")
                .contains("producer_byte_rate=2048000.0").contains("request_percentage=200.0");
        KafkaConfigsTool.Run describeDefault = KafkaConfigsTool.run(broker, "--describe", "--entity-type", "users",
                "--entity-default");
        assertThat(describeDefault.out()).as(describeDefault.out()).contains("consumer_byte_rate=4096000.0");

        KafkaConfigsTool.Run remove = KafkaConfigsTool.run(broker, "--alter", "--entity-type", "clients",
                "--entity-name", "c1", "--delete-config", "producer_byte_rate,request_percentage");
        assertThat(remove.exitCode()).as(remove.out()).isZero();
        KafkaConfigsTool.Run removeDefault = KafkaConfigsTool.run(broker, "--alter", "--entity-type", "users",
                "--entity-default", "--delete-config", "consumer_byte_rate");
        assertThat(removeDefault.exitCode()).as(removeDefault.out()).isZero();
        try (Admin admin = broker.admin()) {
            assertThat(all(admin)).isEmpty();
        }
    }

    @Test
    @Order(3)
    void producerHeldToItsByteRate() throws Exception {
        broker.createTopic("quota-produce", 1);
        double unthrottled = produceRate("fast", Duration.ofSeconds(3)).rate();
        try (Admin admin = broker.admin()) {
            alter(admin, new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "slow")), "producer_byte_rate",
                    1048576.0);
        }
        Measured throttled = produceRate("slow", Duration.ofSeconds(10));
        assertThat(throttled.rate() / MIB).as("MiB/s under a 1 MiB/s quota").isBetween(0.6, 1.5);
        // Many times more on an idle machine; on two loaded cores still well above the quota.
        assertThat(unthrottled).as("unthrottled bytes/s").isGreaterThan(throttled.rate() * 2);
        assertThat(throttled.throttleAvg()).as("produce-throttle-time-avg").isGreaterThan(0);
    }

    private record Measured(double rate, double throttleAvg) {
    }

    /**
     * Sends 8 KiB records for {@code span} as client {@code clientId}, timed from the first acknowledgement (the
     * connection and metadata not counted): the bytes acked per second.
     */
    private static Measured produceRate(String clientId, Duration span) throws Exception {
        byte[] value = new byte[8192];
        AtomicLong acked = new AtomicLong();
        try (KafkaProducer<byte[], byte[]> producer = broker.bytesProducer(Map.of(
                ProducerConfig.CLIENT_ID_CONFIG, clientId, ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BUFFER_MEMORY_CONFIG, 1024 * 1024,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000))) {
            producer.send(new ProducerRecord<>("quota-produce", value)).get(30, TimeUnit.SECONDS);
            long start = System.nanoTime();
            long end = start + span.toNanos();
            while (System.nanoTime() < end) {
                producer.send(new ProducerRecord<>("quota-produce", value), (m, e) -> {
                    if (e == null) {
                        acked.addAndGet(value.length);
                    }
                });
            }
            double rate = acked.get() / ((System.nanoTime() - start) / 1e9);
            return new Measured(rate, metric(producer.metrics(), "produce-throttle-time-avg"));
        }
    }

    private static double metric(Map<org.apache.kafka.common.MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .filter(v -> !Double.isNaN(v)).max().orElse(0);
    }

    @Test
    @Order(4)
    void consumerHeldToItsByteRate() throws Exception {
        broker.createTopic("quota-fetch", 1);
        byte[] value = new byte[8192];
        int records = 256; // 2 MiB
        try (KafkaProducer<byte[], byte[]> producer = broker.bytesProducer(Map.of())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>("quota-fetch", value));
            }
            producer.flush();
        }
        try (Admin admin = broker.admin()) {
            alter(admin, new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "reader")), "consumer_byte_rate",
                    131072.0);
        }
        TopicPartition tp = new TopicPartition("quota-fetch", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = broker.bytesConsumer(Map.of(
                ConsumerConfig.CLIENT_ID_CONFIG, "reader", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 256 * 1024))) {
            consumer.assign(List.of(tp));
            long start = System.nanoTime();
            int read = 0;
            long deadline = start + TimeUnit.SECONDS.toNanos(30);
            while (read < records && System.nanoTime() < deadline) {
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(read).isEqualTo(records);
            // 2 MiB at 128 KiB/s, the first ~1.3 MiB within the quota's window: several seconds, not a burst.
            assertThat(seconds).as("seconds to read 2 MiB").isGreaterThan(3);
            assertThat(metric(consumer.metrics(), "fetch-throttle-time-max")).isGreaterThan(0);
        }
    }

    @Test
    @Order(5)
    void quotasSurviveARestartAndApplyAtOnce() throws Exception {
        ClientQuotaEntity userAndClient = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice",
                ClientQuotaEntity.CLIENT_ID, "app"));
        try (Admin admin = broker.admin()) {
            alter(admin, userAndClient, "request_percentage", 50.0);
        }
        broker = broker.restart();
        try (Admin admin = broker.admin()) {
            Map<ClientQuotaEntity, Map<String, Double>> after = all(admin);
            assertThat(after).containsEntry(userAndClient, Map.of("request_percentage", 50.0))
                    .containsEntry(new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "reader")),
                            Map.of("consumer_byte_rate", 131072.0));
            ClientQuotaFilter exact = ClientQuotaFilter.containsOnly(List.of(
                    org.apache.kafka.common.quota.ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID,
                            "reader")));
            assertThat(admin.describeClientQuotas(exact).entities().get(20, TimeUnit.SECONDS)).containsOnlyKeys(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "reader")));
        }
    }
}
