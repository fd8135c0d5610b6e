package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Committed offsets are durable: a consumer resumes from its last commit after the broker restarts. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CommittedOffsetsRestartIT {
    @TempDir
    Path dataDir;

    private static List<ConsumerRecord<String, String>> poll(KafkaConsumer<String, String> consumer, int atLeast) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (out.size() < atLeast && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100)).forEach(out::add);
        }
        return out;
    }

    @Test
    void resumesFromTheCommittedOffsetAfterARestart() throws Exception {
        String topic = "restart-topic";
        String group = "restart-group";
        TopicPartition tp = new TopicPartition(topic, 0);
        Map<String, Object> oneAtATime = Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        try (TestBroker broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().start()) {
            broker.createTopic(topic, 1);
            try (KafkaProducer<String, String> producer = broker.producer()) {
                for (int i = 0; i < 100; i++) {
                    producer.send(new ProducerRecord<>(topic, "v" + i));
                }
                producer.flush();
            }
            try (KafkaConsumer<String, String> consumer = broker.groupConsumer(group, oneAtATime)) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> got = new ArrayList<>();
                while (got.size() < 42) {
                    for (ConsumerRecord<String, String> r : poll(consumer, 1)) {
                        got.add(r);
                        consumer.commitSync(Map.of(tp, new OffsetAndMetadata(r.offset() + 1, "at-" + r.offset())));
                    }
                }
                assertThat(got.get(41).value()).isEqualTo("v41");
            }
        }
        try (TestBroker broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().start()) {
            try (KafkaConsumer<String, String> consumer = broker.groupConsumer(group, Map.of())) {
                OffsetAndMetadata committed = consumer.committed(Set.of(tp)).get(tp);
                assertThat(committed.offset()).isEqualTo(42);
                assertThat(committed.metadata()).isEqualTo("at-41");
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> rest = poll(consumer, 58);
                assertThat(rest).hasSize(58);
                assertThat(rest.get(0).offset()).as("no gap, no re-read").isEqualTo(42);
                assertThat(rest.get(0).value()).isEqualTo("v42");
            }
        }
    }
}
