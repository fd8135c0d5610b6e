package io.kaas.broker.it.interbroker;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.interbroker.BrokerClient;
import io.kaas.broker.interbroker.InterBrokerSecurity;
import io.kaas.broker.interbroker.RemoteMarkerWriter;
import io.kaas.broker.interbroker.RemoteTransactionVerifier;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import io.kaas.coordinator.transaction.MarkerWriter;
import io.kaas.wire.protocol.Errors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests from another broker meet the ACL authorizer as Kafka's do: WriteTxnMarkers and the brokers'
 * AddPartitionsToTxn need CLUSTER_ACTION on the cluster. The broker that writes the partition authenticates the
 * sender on its SASL inter-broker listener (PLAIN): the broker principal allowed CLUSTER_ACTION gets its COMMIT marker
 * written (a read_committed consumer then sees the records); another principal gets CLUSTER_AUTHORIZATION_FAILED for
 * the marker (logged naming CLUSTER_ACTION) and, for verification, INVALID_TXN_STATE (Kafka hides the authorization
 * failure from the producer).
 */
class InterBrokerAuthorizationIT {
    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

    @TempDir
    Path dir;

    /** Broker settings whose inter-broker client logs in as {@code user}. */
    private TestBroker.Builder broker(Path where, String user) {
        return TestBroker.builder(where)
            .config("node.id", "2")
            .config("listeners", "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0")
            .config("inter.broker.listener.name", "SASL_PLAINTEXT")
            .config("sasl.enabled.mechanisms", "PLAIN")
            .config("sasl.mechanism.inter.broker.protocol", "PLAIN")
            .config("transaction.state.log.num.partitions", "2")
            .config("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_MODULE + " required username=\""
                + user + "\" password=\"" + user + "-secret\" user_broker=\"broker-secret\" user_other=\"other-secret\";");
    }

    @Test
    void onlyAPrincipalWithClusterActionWritesMarkersAndVerifies() throws Exception {
        TestBroker.Builder b = broker(dir.resolve("two"), "broker").acl("""
            allow * ALL topic:*
            allow * ALL transactional-id:*
            allow User:broker CLUSTER_ACTION cluster
            """);
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (TestBroker there = b.start()) {
            there.createTopic("tb", 1);
            TestClusterView view = new TestClusterView(1)
                .broker(2, "SASL_PLAINTEXT", "SASL_PLAINTEXT", there.broker.boundPort("SASL_PLAINTEXT"))
                .topicLeader("tb", 2).topicLeader("__transaction_state", 2);
            MarkerWriter nothingHere = (pid, epoch, ce, commit, partitions) ->
                CompletableFuture.failedFuture(new AssertionError("no partition is led here"));
            KafkaProducer<String, String> producer = there.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "authorized"));
            try (BrokerClient asBroker = BrokerClient.create(view, InterBrokerSecurity.of(b.brokerConfig()), 5_000,
                     5_000);
                 BrokerClient asOther = BrokerClient.create(view,
                     InterBrokerSecurity.of(broker(dir.resolve("unused"), "other").brokerConfig()), 5_000, 5_000);
                 InterBrokerLog log = new InterBrokerLog()) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("tb", 0, null, "secret")).get(20, TimeUnit.SECONDS);
                TransactionDescription txn;
                try (Admin admin = there.admin()) {
                    txn = admin.describeTransactions(List.of("authorized")).description("authorized")
                        .get(20, TimeUnit.SECONDS);
                }
                TopicPartitionRef tb0 = new TopicPartitionRef("tb", 0);
                short epoch = (short) txn.producerEpoch();

                RemoteTransactionVerifier deniedVerifier = new RemoteTransactionVerifier(
                    (id, pid, e, tps, verifyOnly) -> CompletableFuture.failedFuture(new AssertionError("not here")),
                    id -> 0, view, asOther);
                assertThat(deniedVerifier.addPartitions("authorized", txn.producerId(), epoch, List.of(tb0), true)
                    .get(20, TimeUnit.SECONDS)).containsExactlyEntriesOf(Map.of(tb0, Errors.INVALID_TXN_STATE));
                RemoteTransactionVerifier verifier = new RemoteTransactionVerifier(
                    (id, pid, e, tps, verifyOnly) -> CompletableFuture.failedFuture(new AssertionError("not here")),
                    id -> 0, view, asBroker);
                assertThat(verifier.addPartitions("authorized", txn.producerId(), epoch, List.of(tb0), true)
                    .get(20, TimeUnit.SECONDS)).containsExactlyEntriesOf(Map.of(tb0, Errors.NONE));

                Map<TopicPartitionRef, Short> denied = new RemoteMarkerWriter(nothingHere, view, asOther, scheduler,
                    5_000).write(txn.producerId(), epoch, 0, true, Set.of(tb0)).get(20, TimeUnit.SECONDS);
                assertThat(denied).containsExactlyEntriesOf(Map.of(tb0, Errors.CLUSTER_AUTHORIZATION_FAILED));
                assertThat(log.lines()).anyMatch(l -> l.contains("needs CLUSTER_ACTION on the cluster"));

                Map<TopicPartitionRef, Short> written = new RemoteMarkerWriter(nothingHere, view, asBroker, scheduler,
                    5_000).write(txn.producerId(), epoch, 0, true, Set.of(tb0)).get(20, TimeUnit.SECONDS);
                assertThat(written).containsExactlyEntriesOf(Map.of(tb0, Errors.NONE));
            } finally {
                producer.close(Duration.ZERO);
            }
            try (KafkaConsumer<String, String> consumer = there.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                    "read_committed"))) {
                assertThat(KafkaClients.readAll(consumer, new TopicPartition("tb", 0), Duration.ofSeconds(10)).stream()
                    .map(ConsumerRecord::value)).containsExactly("secret");
            }
        } finally {
            scheduler.shutdownNow();
        }
    }
}
