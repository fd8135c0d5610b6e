package io.kaas.broker.it.sasl;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** KIP-368 with the real Java clients: a producer and a group member keep working across re-authentications. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SaslReauthenticationIT {

    @TempDir
    Path dir;

    @Test
    void producerAndGroupConsumerReauthenticateWhileWorkingAndLoseNothing() throws Exception {
        Map<String, Object> alice = SaslClients.plain("alice", "alice-secret");
        try (TestBroker broker = SaslClients.plainBroker(dir, Map.of("connections.max.reauth.ms", "1500"))
                .noInitialRebalanceDelay().start();
             LogCapture log = new LogCapture()) {
            try (Admin admin = SaslClients.admin(broker, alice)) {
                admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            try (KafkaProducer<String, String> producer = broker.producer(alice)) {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                for (int i = 0; System.nanoTime() < end; i++) {
                    sent.add(producer.send(new ProducerRecord<>("t", 0, "k", "v" + i)));
                    Thread.sleep(20);
                }
                for (Future<RecordMetadata> f : sent) {
                    f.get(20, TimeUnit.SECONDS);
                }
            }
            List<String> reauthentications = log.lines("io.kaas.broker.handler.sasl.SaslAuthenticateHandler", Level.DEBUG)
                .stream().filter(l -> l.startsWith("Re-authenticated User:alice")).toList();
            // 5 s of sessions of at most 1.5 s: the producer's connection re-authenticated at least twice
            assertThat(reauthentications).hasSizeGreaterThanOrEqualTo(2);
            assertThat(log.lines("io.kaas.broker.network.AuthenticationGate", Level.WARN)).isEmpty();
            try (KafkaConsumer<String, String> consumer = broker.consumer(alice)) {
                List<ConsumerRecord<String, String>> read = TestBroker.readAll(consumer, new TopicPartition("t", 0),
                    Duration.ofSeconds(20));
                assertThat(read).hasSize(sent.size());
            }
            // a group member: heartbeats, fetches and commits across re-authentications of its two connections
            try (KafkaConsumer<String, String> member = broker.groupConsumer("g", alice)) {
                member.subscribe(List.of("t"));
                int consumed = 0;
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (System.nanoTime() < end) {
                    consumed += member.poll(Duration.ofMillis(200)).count();
                    member.commitSync(Duration.ofSeconds(10));
                }
                assertThat(consumed).isEqualTo(sent.size());
                assertThat(member.committed(java.util.Set.of(new TopicPartition("t", 0))).get(new TopicPartition("t", 0))
                    .offset()).isEqualTo(sent.size());
            }
            assertThat(log.lines("io.kaas.broker.network.AuthenticationGate", Level.WARN)).isEmpty();
        }
    }
}
