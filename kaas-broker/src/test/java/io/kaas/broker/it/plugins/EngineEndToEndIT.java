package io.kaas.broker.it.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.Consume;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
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
        TestBroker.installPlugin("kaas-engine-rocksdb", pluginsDir);
        List<TopicPartition> partitions = List.of(new TopicPartition("e2e", 0), new TopicPartition("e2e", 1));
        TestBroker.Builder over = TestBroker.builder(dataDir).dataDir(dataDir).pluginsDir(pluginsDir).engine(engine);

        try (TestBroker broker = over.start()) {
            broker.createTopic("e2e", 2);
            try (KafkaProducer<String, String> producer = broker.producer()) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>("e2e", i % 2, "k" + i, "v" + i));
                }
                producer.flush();
            }
            assertAllRecords(consumeAll(broker, partitions, RECORDS));
        }

        try (TestBroker broker = over.start()) {
            assertAllRecords(consumeAll(broker, partitions, RECORDS));
            try (KafkaProducer<String, String> producer = broker.producer()) {
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

    /** Everything from the log start of {@code partitions}, until {@code expected} records came or 30 s passed. */
    static List<ConsumerRecord<String, String>> consumeAll(TestBroker broker, List<TopicPartition> partitions,
                                                           int expected) {
        try (KafkaConsumer<String, String> consumer = broker.consumer()) {
            return Consume.fromBeginning(consumer, partitions, expected, Duration.ofSeconds(30));
        }
    }
}
