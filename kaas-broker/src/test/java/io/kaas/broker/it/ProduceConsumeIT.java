package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real Java producer and consumer against kaas: every codec, keys, values, headers, order — on every
 * storage engine (one broker per engine, the RocksDB one loaded from its plugin zip).
 */
@ParameterizedClass(name = "storage.engine={0}")
@ValueSource(strings = {TestBroker.SEGMENTS, TestBroker.ROCKSDB})
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProduceConsumeIT {
    private static final int RECORDS = 10_000;
    private static final int PARTITIONS = 3;

    @TempDir
    static Path root;
    static TestBroker broker;

    @Parameter
    String engine;

    @BeforeParameterizedClassInvocation
    static void start(String engine) throws Exception {
        broker = TestBroker.builder(root.resolve(engine)).engine(engine).start();
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    @ParameterizedTest(name = "compression.type={0}")
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void roundTripsKeyedRecordsWithHeadersInOrder(String codec) throws Exception {
        String topic = "codec-" + codec;
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(20, TimeUnit.SECONDS);
        }
        Map<Integer, List<String>> sentPerPartition = new HashMap<>();
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec))) {
            List<Future<RecordMetadata>> futures = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                ProducerRecord<String, String> r = new ProducerRecord<>(topic, "key-" + i, "value-" + i + "-" + "x".repeat(i % 50));
                r.headers().add("seq", Integer.toString(i).getBytes(StandardCharsets.UTF_8));
                r.headers().add("codec", codec.getBytes(StandardCharsets.UTF_8));
                futures.add(producer.send(r));
            }
            producer.flush();
            for (int i = 0; i < RECORDS; i++) {
                RecordMetadata md = futures.get(i).get(30, TimeUnit.SECONDS);
                sentPerPartition.computeIfAbsent(md.partition(), p -> new ArrayList<>()).add("key-" + i);
            }
        }
        assertThat(sentPerPartition).hasSize(PARTITIONS);

        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<String, String>> got = Consume.fromBeginning(consumer, tps, RECORDS, Duration.ofSeconds(60));
            assertThat(got).hasSize(RECORDS);
            Map<Integer, List<String>> keysPerPartition = new HashMap<>();
            Map<Integer, Long> lastOffset = new HashMap<>();
            for (ConsumerRecord<String, String> r : got) {
                int i = Integer.parseInt(r.key().substring("key-".length()));
                assertThat(r.value()).isEqualTo("value-" + i + "-" + "x".repeat(i % 50));
                Header seq = r.headers().lastHeader("seq");
                assertThat(new String(seq.value(), StandardCharsets.UTF_8)).isEqualTo(Integer.toString(i));
                assertThat(new String(r.headers().lastHeader("codec").value(), StandardCharsets.UTF_8)).isEqualTo(codec);
                Long previous = lastOffset.put(r.partition(), r.offset());
                assertThat(r.offset()).isEqualTo(previous == null ? 0 : previous + 1);
                keysPerPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.key());
            }
            assertThat(keysPerPartition).isEqualTo(sentPerPartition);
        }
    }

    @Test
    void idempotentProducerGetsAProducerIdAndWritesOnce() throws Exception {
        String topic = "idempotent";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5))) {
            for (int i = 0; i < 500; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            producer.flush();
        }
        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<String, String>> got = Consume.fromBeginning(consumer,
                    Set.of(new TopicPartition(topic, 0)), 500, Duration.ofSeconds(30));
            assertThat(got).extracting(ConsumerRecord::value).containsExactlyElementsOf(
                    java.util.stream.IntStream.range(0, 500).mapToObj(i -> "v" + i).toList());
        }
    }
}
