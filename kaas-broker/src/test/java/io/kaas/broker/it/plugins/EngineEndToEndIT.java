package io.kaas.broker.it.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.KaasBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same client round trip on every engine: the built-in segment engine and the RocksDB engine,
 * which comes only from its plugin zip in {@code plugins/} (rocksdbjni is on no class path of this
 * test). Produce with acks=all, consume back, restart over the same data, read back, append after.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EngineEndToEndIT {
    private static final int RECORDS = 500;

    @TempDir
    Path dataDir;
    @TempDir
    Path pluginsDir;

    @ParameterizedTest(name = "storage.engine={0}")
    @ValueSource(strings = {"segments", "rocksdb"})
    void producesConsumesAndReadsBackAfterARestart(String engine) throws Exception {
        PluginBrokers.installPlugin("kaas-engine-rocksdb", pluginsDir);
        List<TopicPartition> partitions = List.of(new TopicPartition("e2e", 0), new TopicPartition("e2e", 1));

        try (KaasBroker broker = PluginBrokers.start(dataDir, pluginsDir, engine)) {
            String bootstrap = "127.0.0.1:" + broker.boundPort();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("e2e", 2, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>("e2e", i % 2, "k" + i, "v" + i));
                }
                producer.flush();
            }
            assertAllRecords(consumeAll(bootstrap, partitions, RECORDS));
        }

        try (KaasBroker broker = PluginBrokers.start(dataDir, pluginsDir, engine)) {
            String bootstrap = "127.0.0.1:" + broker.boundPort();
            assertAllRecords(consumeAll(bootstrap, partitions, RECORDS));
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                long offset = producer.send(new ProducerRecord<>("e2e", 0, "after", "restart")).get(10, TimeUnit.SECONDS).offset();
                assertThat(offset).as("appends continue after the recovered end").isEqualTo(RECORDS / 2);
            }
        }
    }

    private static void assertAllRecords(List<ConsumerRecord<String, String>> got) {
        assertThat(got).hasSize(RECORDS);
        for (ConsumerRecord<String, String> r : got) {
            int i = Integer.parseInt(r.key().substring(1));
            assertThat(r.partition()).isEqualTo(i % 2);
            assertThat(r.offset()).isEqualTo(i / 2);
            assertThat(r.value()).isEqualTo("v" + i);
        }
    }

    static KafkaProducer<String, String> producer(String bootstrap) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    static List<ConsumerRecord<String, String>> consumeAll(String bootstrap, List<TopicPartition> partitions, int expected) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (got.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(got::add);
            }
        }
        return got;
    }
}
