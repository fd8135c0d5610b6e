package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metadata by topic id as the Java client asks it (v12+): {@code MetadataRequest.Builder.forTopicIds} sets the id
 * and leaves the name at its default {@code ""}, and the broker answers by the id, as Kafka does. The KIP-848
 * consumer with a broker-side regex ({@link SubscriptionPattern}) learns its assigned topics that way.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MetadataByTopicIdIT {
    @TempDir
    static Path dataDir;
    static TestBroker broker;
    static Uuid ordersId;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().start();
        try (Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "orders-eu", 2, Map.of());
            KafkaClients.createTopic(admin, "payments", 1, Map.of());
            ordersId = admin.describeTopics(List.of("orders-eu")).allTopicNames().get(20, TimeUnit.SECONDS)
                    .get("orders-eu").topicId();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theJavaClientsTopicIdRequestIsAnsweredByTheId() throws Exception {
        Uuid unknown = Uuid.randomUuid();
        MetadataRequest request = MetadataRequest.Builder.forTopicIds(new HashSet<>(List.of(ordersId, unknown)))
                .build((short) 12);
        MetadataResponseData response = (MetadataResponseData) KafkaWire.send(broker.port(), "by-id",
                ApiKeys.METADATA, (short) 12, request.data()).data();
        assertThat(response.topics()).hasSize(2);
        MetadataResponseData.MetadataResponseTopic known = response.topics().stream()
                .filter(t -> t.topicId().equals(ordersId)).findFirst().orElseThrow();
        assertThat(Errors.forCode(known.errorCode())).isEqualTo(Errors.NONE);
        assertThat(known.name()).isEqualTo("orders-eu");
        assertThat(known.partitions()).hasSize(2);
        MetadataResponseData.MetadataResponseTopic missing = response.topics().stream()
                .filter(t -> t.topicId().equals(unknown)).findFirst().orElseThrow();
        assertThat(Errors.forCode(missing.errorCode())).isEqualTo(Errors.UNKNOWN_TOPIC_ID);
    }

    @Test
    void aConsumerSubscribedToABrokerSideRegexReadsTheMatchedTopic() throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = 0; i < 4; i++) {
                producer.send(new ProducerRecord<>("orders-eu", i % 2, "k" + i, "order-" + i));
                producer.send(new ProducerRecord<>("payments", 0, "k" + i, "payment-" + i));
            }
            producer.flush();
        }
        try (KafkaConsumer<String, String> consumer = broker.consumerProtocolConsumer("by-regex",
                Map.of("auto.offset.reset", "earliest"))) {
            consumer.subscribe(new SubscriptionPattern("orders-.*"));
            Set<String> values = new HashSet<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
            while (values.size() < 4 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    assertThat(r.topic()).isEqualTo("orders-eu");
                    values.add(r.value());
                }
            }
            assertThat(values).containsExactlyInAnyOrder("order-0", "order-1", "order-2", "order-3");
        }
    }
}
