package io.kaas.broker.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Real Kafka clients pointed at one broker, with the bounded timeouts every integration test uses:
 * {@link TestBroker} for an in-process broker, {@link #at(String)} for a broker in its own JVM.
 */
public class KafkaClients {
    private final Supplier<String> bootstrap;

    KafkaClients(Supplier<String> bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** Clients for the broker listening at {@code bootstrap} ({@code host:port}). */
    public static KafkaClients at(String bootstrap) {
        return new KafkaClients(() -> bootstrap);
    }

    public String bootstrap() {
        return bootstrap.get();
    }

    public Admin admin() {
        return admin(Map.of());
    }

    /** An Admin client with bounded waits and {@code extra} (security settings, say) on top. */
    public Admin admin(Map<String, Object> extra) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.putAll(extra);
        return Admin.create(p);
    }

    /**
     * The current leader epoch of {@code tp}, as the broker answers a ListOffsets for the latest offset (the leader's
     * epoch: it grows each time a broker takes the partition over, a restart included).
     */
    public static int leaderEpoch(Admin admin, org.apache.kafka.common.TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest())).partitionResult(tp)
            .get(20, java.util.concurrent.TimeUnit.SECONDS).leaderEpoch().orElseThrow();
    }

    /** Creates {@code name} with replication factor 1 and waits (at most 20 s) for the answer. */
    public void createTopic(String name, int partitions) throws Exception {
        createTopic(name, partitions, Map.of());
    }

    public void createTopic(String name, int partitions, Map<String, String> configs) throws Exception {
        try (Admin admin = admin()) {
            createTopic(admin, name, partitions, configs);
        }
    }

    public static void createTopic(Admin admin, String name, int partitions, Map<String, String> configs)
            throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                .get(20, TimeUnit.SECONDS);
    }

    /** acks=all, linger 5 ms, every wait bounded; {@code extra} overrides. */
    public KafkaProducer<String, String> producer(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.putAll(extra);
        return new KafkaProducer<>(producerConfig(p), new StringSerializer(), new StringSerializer());
    }

    public KafkaProducer<String, String> producer() {
        return producer(Map.of());
    }

    /** The producer's defaults (acks, linger) with bounded waits; {@code extra} overrides. */
    public KafkaProducer<byte[], byte[]> bytesProducer(Map<String, Object> extra) {
        return new KafkaProducer<>(producerConfig(extra), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private Map<String, Object> producerConfig(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.putAll(extra);
        return p;
    }

    /** No group (assign), from the earliest offset, no auto-commit; {@code extra} overrides. */
    public KafkaConsumer<String, String> consumer(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.putAll(extra);
        return new KafkaConsumer<>(consumerConfig(p), new StringDeserializer(), new StringDeserializer());
    }

    public KafkaConsumer<String, String> consumer() {
        return consumer(Map.of());
    }

    public KafkaConsumer<byte[], byte[]> bytesConsumer(Map<String, Object> extra) {
        return new KafkaConsumer<>(consumerConfig(extra), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A group member on the classic protocol: earliest, committing by hand, heartbeat 500 ms, session 10 s. */
    public KafkaConsumer<String, String> groupConsumer(String groupId, Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        p.putAll(extra);
        return consumer(p);
    }

    /**
     * A group member on the KIP-848 protocol ({@code group.protocol=consumer}), earliest, committing by hand;
     * session and heartbeat settings come from the broker there.
     */
    public KafkaConsumer<String, String> consumerProtocolConsumer(String groupId, Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        p.putAll(extra);
        return consumer(p);
    }

    private Map<String, Object> consumerConfig(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.putAll(extra);
        return p;
    }

    /** Reads a partition from its log start up to its end offset (as listed now) with assign(), no group. */
    public static <K, V> List<ConsumerRecord<K, V>> readAll(KafkaConsumer<K, V> consumer, TopicPartition tp,
                                                            Duration timeout) {
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (consumer.position(tp) < end && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100)).forEach(out::add);
        }
        return out;
    }
}
