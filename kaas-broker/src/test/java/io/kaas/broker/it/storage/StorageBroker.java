package io.kaas.broker.it.storage;

import io.kaas.broker.KaasBroker;
import io.kaas.broker.config.BrokerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * An in-process broker for the storage tests, with real Kafka clients. The engine's background pass
 * (retention, segment.ms roll, compaction) runs every {@code storage.segments.retention.check.interval.ms},
 * which the tests shorten instead of calling into the engine.
 */
final class StorageBroker implements AutoCloseable {
    final Path dataDir;
    final KaasBroker broker;

    private StorageBroker(Path dataDir, KaasBroker broker) {
        this.dataDir = dataDir;
        this.broker = broker;
    }

    static StorageBroker start(Path dataDir, Map<String, String> overrides) throws IOException {
        Map<String, String> config = new HashMap<>();
        config.put("node.id", "1");
        config.put("listeners", "PLAINTEXT://127.0.0.1:0");
        config.put("log.dirs", dataDir.toString());
        config.putAll(overrides);
        return new StorageBroker(dataDir, KaasBroker.start(BrokerConfig.of(config)));
    }

    String bootstrap() {
        return "127.0.0.1:" + broker.boundPort();
    }

    Admin admin() {
        return admin(bootstrap());
    }

    static Admin admin(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return Admin.create(p);
    }

    KafkaProducer<String, String> producer(Map<String, Object> extra) {
        return producer(bootstrap(), extra);
    }

    static KafkaProducer<String, String> producer(String bootstrap, Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.putAll(extra);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    KafkaConsumer<String, String> consumer() {
        return consumer(bootstrap());
    }

    static KafkaConsumer<String, String> consumer(String bootstrap) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    static void createTopic(Admin admin, String name, int partitions, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                .get(20, TimeUnit.SECONDS);
    }

    /** Reads a partition from its log start up to its end offset (as listed now) with assign(), no group. */
    static List<ConsumerRecord<String, String>> readAll(KafkaConsumer<String, String> consumer, TopicPartition tp,
                                                        Duration timeout) {
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (consumer.position(tp) < end && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100)).forEach(out::add);
        }
        return out;
    }

    @Override
    public void close() {
        broker.close();
    }
}
