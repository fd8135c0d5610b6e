package io.kaas.broker.it;

import io.kaas.broker.KaasBroker;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.it.plugins.PluginBrokers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** An in-process broker on 127.0.0.1 with an ephemeral port, and real Kafka clients pointed at it. */
final class TestBroker implements AutoCloseable {
    /** The storage engines the end-to-end tests run over: the built-in default and the RocksDB plugin. */
    static final String SEGMENTS = "segments";
    static final String ROCKSDB = "rocksdb";

    final Path dataDir;
    final KaasBroker broker;

    private TestBroker(Path dataDir, KaasBroker broker) {
        this.dataDir = dataDir;
        this.broker = broker;
    }

    static TestBroker start(Path dataDir) throws IOException {
        return start(dataDir, Map.of());
    }

    static TestBroker start(Path dataDir, Map<String, String> overrides) throws IOException {
        Map<String, String> config = new HashMap<>();
        config.put("node.id", "1");
        config.put("listeners", "PLAINTEXT://127.0.0.1:0");
        config.put("log.dirs", dataDir.toString());
        config.putAll(overrides);
        return new TestBroker(dataDir, KaasBroker.start(BrokerConfig.of(config)));
    }

    /**
     * A broker on {@code engine} with its data in {@code root/data}. {@link #ROCKSDB} comes only from its
     * built plugin zip, installed (once per root) into {@code root/plugins}: rocksdbjni is on no class path here.
     */
    static TestBroker start(Path root, String engine, Map<String, String> overrides) throws IOException {
        Map<String, String> config = new HashMap<>();
        config.put("storage.engine", engine);
        if (!SEGMENTS.equals(engine)) {
            Path plugins = root.resolve("plugins");
            if (!Files.isDirectory(plugins)) {
                PluginBrokers.installPlugin("kaas-engine-" + engine, plugins);
            }
            config.put("plugins.dir", plugins.toString());
            config.put("storage.rocksdb.block.cache.bytes", "8388608");
        }
        config.putAll(overrides);
        Path data = Files.createDirectories(root.resolve("data"));
        return start(data, config);
    }

    int port() {
        return broker.boundPort();
    }

    String bootstrap() {
        return "127.0.0.1:" + port();
    }

    Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return Admin.create(p);
    }

    KafkaProducer<String, String> producer(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.putAll(extra);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    KafkaConsumer<String, String> consumer(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.putAll(extra);
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    KafkaProducer<byte[], byte[]> bytesProducer(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.putAll(extra);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    KafkaConsumer<byte[], byte[]> bytesConsumer(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.putAll(extra);
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public void close() {
        broker.close();
    }
}
