package io.kaas.broker.it.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transactional.id.expiration.ms}: an id idle (no transaction open) for longer is removed by the expiry pass
 * ({@code transaction.remove.expired.transaction.cleanup.interval.ms}); an id with an open transaction is not. Run
 * against a reference broker with the same two settings (2000 and 200 ms).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransactionalIdExpiryIT {
    @TempDir
    static Path dir;
    static TxnBroker target;
    static KafkaClients broker;

    @BeforeAll
    static void start() throws Exception {
        target = TxnBroker.start(TestBroker.builder(dir).config("auto.create.topics.enable", "false")
                .config("transactional.id.expiration.ms", "2000")
                .config("transaction.remove.expired.transaction.cleanup.interval.ms", "200"));
        broker = target.clients;
    }

    @AfterAll
    static void stop() {
        if (target != null) {
            target.close();
        }
    }

    @Test
    void anIdleTransactionalIdExpiresAndAnOpenOneDoesNot() throws Exception {
        String topic = "expiry";
        broker.createTopic(topic, 1);
        long firstProducerId;
        try (KafkaProducer<String, String> idle = Txn.producer(broker, "expiry-idle");
             KafkaProducer<String, String> open = Txn.producer(broker, "expiry-open",
                     Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000))) {
            idle.initTransactions();
            idle.beginTransaction();
            idle.send(new ProducerRecord<>(topic, 0, "k", "committed")).get(20, TimeUnit.SECONDS);
            idle.commitTransaction();
            open.initTransactions();
            open.beginTransaction();
            open.send(new ProducerRecord<>(topic, 0, "k", "open")).get(20, TimeUnit.SECONDS);
            try (Admin admin = broker.admin()) {
                firstProducerId = admin.describeTransactions(List.of("expiry-idle")).description("expiry-idle")
                        .get(20, TimeUnit.SECONDS).producerId();
                Awaitility.await("expiry-idle is removed after 2 s idle").atMost(Duration.ofSeconds(20))
                        .pollInterval(Duration.ofMillis(200)).until(() -> {
                            try {
                                admin.describeTransactions(List.of("expiry-idle")).description("expiry-idle")
                                        .get(10, TimeUnit.SECONDS);
                                return false;
                            } catch (ExecutionException e) {
                                return e.getCause() instanceof TransactionalIdNotFoundException;
                            }
                        });
                assertThat(admin.listTransactions().all().get(20, TimeUnit.SECONDS))
                        .extracting(TransactionListing::transactionalId).doesNotContain("expiry-idle").contains("expiry-open");
                TransactionDescription stillOpen = admin.describeTransactions(List.of("expiry-open"))
                        .description("expiry-open").get(20, TimeUnit.SECONDS);
                assertThat(stillOpen.state()).isEqualTo(TransactionState.ONGOING);
                assertThat(stillOpen.topicPartitions()).containsExactly(new TopicPartition(topic, 0));
            }
            open.commitTransaction();
        }
        try (KafkaProducer<String, String> again = Txn.producer(broker, "expiry-idle");
             Admin admin = broker.admin()) {
            again.initTransactions(); // a fresh start for the id
            TransactionDescription d = admin.describeTransactions(List.of("expiry-idle")).description("expiry-idle")
                    .get(20, TimeUnit.SECONDS);
            assertThat(d.state()).isEqualTo(TransactionState.EMPTY);
            assertThat(d.producerId()).as("a new producer id for the expired id").isNotEqualTo(firstProducerId);
            assertThat(d.producerEpoch()).isEqualTo(0);
            ExecutionException gone = catchThrowableOfType(ExecutionException.class, () -> admin.describeTransactions(
                    List.of("never-used")).description("never-used").get(20, TimeUnit.SECONDS));
            assertThat(gone.getCause()).isInstanceOf(TransactionalIdNotFoundException.class);
        }
    }
}
