package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java clients at the connection limits: a producer (a bootstrap connection and one to the broker) works with
 * max.connections=2 or max.connections.per.ip=2; a third connection then waits (max.connections) until the
 * producer closes, or is closed at once (per IP).
 */
@Timeout(120)
class ConnectionLimitsIT {

    @TempDir
    Path dir;

    private static void produce(TestBroker broker, String topic, int n) throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "v" + i)).get(20, TimeUnit.SECONDS);
            }
        }
    }

    private static void sendApiVersions(RawClient c, int correlationId) throws Exception {
        c.send(ApiMessageType.API_VERSIONS, (short) 3, correlationId,
            new ApiVersionsRequestData().setClientSoftwareName("raw-client").setClientSoftwareVersion("1.0"));
    }

    @Test
    void atMaxConnectionsTheProducerWorksAndAThirdConnectionIsServedOnceTheProducerCloses() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("max.connections", "2"))) {
            broker.createTopic("limited", 1);
            RawClient waiting;
            try (KafkaProducer<String, String> producer = broker.producer()) {
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("limited", 0, "k" + i, "v" + i)).get(20, TimeUnit.SECONDS);
                }
                waiting = new RawClient(broker.port());
                sendApiVersions(waiting, 7);
                assertThat(waiting.silentFor(1000)).as("the producer holds both slots: the third waits").isTrue();
            }
            try (RawClient c = waiting) {
                assertThat(c.readApiVersions((short) 3).correlationId()).as("served once the producer closed").isEqualTo(7);
            }
            try (KafkaConsumer<String, String> consumer = broker.consumer()) {
                List<ConsumerRecord<String, String>> read = KafkaClients.readAll(consumer,
                    new TopicPartition("limited", 0), Duration.ofSeconds(20));
                assertThat(read).extracting(ConsumerRecord::value).hasSize(20).startsWith("v0").endsWith("v19");
            }
        }
    }

    @Test
    void atMaxConnectionsPerIpTheProducerWorksAndAThirdConnectionFromItsAddressIsClosed() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("max.connections.per.ip", "2"))) {
            broker.createTopic("per-ip", 1);
            try (KafkaProducer<String, String> producer = broker.producer()) {
                producer.send(new ProducerRecord<>("per-ip", 0, "k", "first")).get(20, TimeUnit.SECONDS);
                try (RawClient extra = new RawClient(broker.port())) {
                    sendApiVersions(extra, 1);
                    assertThat(extra.closedByServer()).isTrue();
                }
                producer.send(new ProducerRecord<>("per-ip", 0, "k", "second")).get(20, TimeUnit.SECONDS);
            }
            produce(broker, "per-ip", 3);
        }
    }
}
