package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Data, topic ids and the log start survive a broker restart over the same data directory, on every engine. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RestartIT {
    @TempDir
    Path root;

    @ParameterizedTest(name = "storage.engine={0}")
    @ValueSource(strings = {TestBroker.SEGMENTS, TestBroker.ROCKSDB})
    void readsEverythingBackAfterRestartWithTheSameTopicIds(String engine) throws Exception {
        Uuid idBefore;
        TopicPartition p1 = new TopicPartition("durable", 1);
        TestBroker.Builder over = TestBroker.builder(root).engine(engine);
        try (TestBroker broker = over.start(); Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("durable", 2, (short) 1))).all().get(20, TimeUnit.SECONDS);
            try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
                for (int i = 0; i < 2000; i++) {
                    producer.send(new ProducerRecord<>("durable", i % 2, "k" + i, "v" + i));
                }
                producer.flush();
            }
            idBefore = admin.describeTopics(List.of("durable")).allTopicNames().get(20, TimeUnit.SECONDS)
                    .get("durable").topicId();
            // on the second partition, the log start moves; offsets stay where they are
            admin.deleteRecords(Map.of(p1, RecordsToDelete.beforeOffset(400))).all().get(20, TimeUnit.SECONDS);
        }
        try (TestBroker broker = over.start(); Admin admin = broker.admin()) {
            Uuid idAfter = admin.describeTopics(List.of("durable")).allTopicNames().get(20, TimeUnit.SECONDS)
                    .get("durable").topicId();
            assertThat(idAfter).isEqualTo(idBefore);
            assertThat(admin.listOffsets(Map.of(p1, OffsetSpec.earliest())).partitionResult(p1).get(20, TimeUnit.SECONDS)
                    .offset()).as("the log start survives the restart").isEqualTo(400);
            try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of())) {
                List<ConsumerRecord<String, String>> got = Consume.fromBeginning(consumer,
                        List.of(new TopicPartition("durable", 0), p1), 1600, Duration.ofSeconds(30));
                assertThat(got).hasSize(1600);
                for (ConsumerRecord<String, String> r : got) {
                    int i = Integer.parseInt(r.key().substring(1));
                    assertThat(r.partition()).isEqualTo(i % 2);
                    assertThat(r.offset()).isEqualTo(i / 2);
                    assertThat(r.value()).isEqualTo("v" + i);
                    assertThat(r.partition() == 0 || r.offset() >= 400).isTrue();
                }
            }
            // appends continue after the recovered end
            try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
                long offset = producer.send(new ProducerRecord<>("durable", 0, "after", "restart")).get(10, TimeUnit.SECONDS).offset();
                assertThat(offset).isEqualTo(1000);
            }
        }
    }
}
