package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code producer.id.expiration.ms} and {@code producer.id.expiration.check.interval.ms} set on the broker reach the
 * storage engine (the built-in one and the RocksDB plugin): seen through the Java Admin's DescribeProducers, an idle
 * idempotent producer's state goes after 3 s, while a transactional producer with a transaction open stays until it
 * commits.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProducerExpiryIT {
    private static final Map<String, String> FAST_EXPIRY = Map.of("producer.id.expiration.ms", "3000",
            "producer.id.expiration.check.interval.ms", "100");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "storage.engine={0}")
    @ValueSource(strings = {TestBroker.SEGMENTS, TestBroker.ROCKSDB})
    void anIdleProducerExpiresAndAnOpenTransactionKeepsItsProducer(String engine) throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).engine(engine).config(FAST_EXPIRY).start();
             Admin admin = broker.admin()) {
            broker.createTopic("expiring", 1);
            TopicPartition tp = new TopicPartition("expiring", 0);
            long idempotentId;
            try (KafkaProducer<String, String> idempotent = broker.producer(Map.of("enable.idempotence", "true"));
                 KafkaProducer<String, String> transactional = broker.producer(Map.of("transactional.id", "expiry-txn"))) {
                transactional.initTransactions();
                transactional.beginTransaction();
                transactional.send(new ProducerRecord<>("expiring", "k", "in a transaction")).get(20, TimeUnit.SECONDS);
                long transactionalId = producerIds(admin, tp).get(0);
                idempotent.send(new ProducerRecord<>("expiring", "k", "idempotent")).get(20, TimeUnit.SECONDS);
                List<Long> both = producerIds(admin, tp);
                assertThat(both).hasSize(2).contains(transactionalId);
                idempotentId = both.stream().filter(id -> id != transactionalId).findFirst().orElseThrow();

                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                        .until(() -> !producerIds(admin, tp).contains(idempotentId));
                List<ProducerState> left = producers(admin, tp);
                assertThat(left).as("the transactional producer stays while its transaction is open").hasSize(1);
                assertThat(left.get(0).currentTransactionStartOffset()).hasValue(0);

                transactional.commitTransaction();
            }
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> producers(admin, tp).isEmpty());
        }
    }

    private static List<ProducerState> producers(Admin admin, TopicPartition tp) throws Exception {
        return admin.describeProducers(List.of(tp)).partitionResult(tp).get(20, TimeUnit.SECONDS).activeProducers();
    }

    private static List<Long> producerIds(Admin admin, TopicPartition tp) throws Exception {
        return producers(admin, tp).stream().map(ProducerState::producerId).toList();
    }
}
