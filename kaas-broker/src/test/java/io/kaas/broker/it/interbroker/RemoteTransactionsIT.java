package io.kaas.broker.it.interbroker;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.handler.TransactionVerifier;
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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transaction markers and transaction verification for partitions and coordinators on another broker: two
 * in-process brokers with the files store on two data directories (node 1, "here", and node 2 leading topic
 * {@code tb}), the test's cluster view over them. A transaction left open on node 2 by the real Java producer is
 * committed by node 1's {@link RemoteMarkerWriter} over the inter-broker listener, and a read_committed consumer
 * then sees its records; markers wait for a partition to get a writer, give up a partition the cluster does not
 * have, and never call a partition that exists but did not answer unknown. Verification asks node 2's coordinator
 * with AddPartitionsToTxn v4+ and answers what Kafka answers.
 */
class RemoteTransactionsIT {
    @TempDir
    Path dir;

    private TestBroker here;
    private TestBroker there;
    private TestClusterView view;
    private BrokerClient client;
    private ScheduledExecutorService scheduler;
    private final Set<TopicPartitionRef> writtenHere = ConcurrentHashMap.newKeySet();

    /** What node 1 writes itself: recorded, every marker answered NONE. */
    private final MarkerWriter localWriter = (pid, epoch, coordinatorEpoch, commit, partitions) -> {
        writtenHere.addAll(partitions);
        Map<TopicPartitionRef, Short> out = new ConcurrentHashMap<>();
        partitions.forEach(tp -> out.put(tp, Errors.NONE));
        return CompletableFuture.completedFuture(out);
    };

    @BeforeEach
    void start() throws Exception {
        here = TestBroker.builder(dir.resolve("one")).config("node.id", "1").start();
        there = TestBroker.builder(dir.resolve("two")).config("node.id", "2")
            .config("transaction.state.log.num.partitions", "2").start();
        there.createTopic("tb", 2);
        view = new TestClusterView(1).broker(1, "PLAINTEXT", "PLAINTEXT", here.port())
            .broker(2, "PLAINTEXT", "PLAINTEXT", there.port()).topicLeader("tb", 2).topicLeader("ta", 1);
        client = BrokerClient.create(view, InterBrokerSecurity.plaintext("PLAINTEXT"), 5_000, 5_000);
        scheduler = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (there != null) {
            there.close();
        }
        if (here != null) {
            here.close();
        }
    }

    /** An open transaction of {@code transactionalId} on node 2 holding {@code values} in tb-{@code partition}. */
    private TransactionDescription openTransaction(KafkaProducer<String, String> producer, String transactionalId,
                                                   int partition, List<String> values) throws Exception {
        producer.initTransactions();
        producer.beginTransaction();
        for (String v : values) {
            producer.send(new ProducerRecord<>("tb", partition, null, v)).get(20, TimeUnit.SECONDS);
        }
        try (Admin admin = there.admin()) {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId)
                .get(20, TimeUnit.SECONDS);
        }
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        return there.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
            ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 120_000));
    }

    private List<String> readCommitted(int partition) {
        try (KafkaConsumer<String, String> consumer = there.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"))) {
            TopicPartition tp = new TopicPartition("tb", partition);
            List<String> out = KafkaClients.readAll(consumer, tp, Duration.ofSeconds(10)).stream()
                .map(ConsumerRecord::value).toList();
            return out;
        }
    }

    @Test
    void aCommitMarkerWrittenFromAnotherBrokerMakesTheRecordsVisible() throws Exception {
        KafkaProducer<String, String> producer = producer("remote-commit");
        try {
            TransactionDescription txn = openTransaction(producer, "remote-commit", 0, List.of("a", "b", "c"));
            assertThat(readCommitted(0)).isEmpty();
            RemoteMarkerWriter writer = new RemoteMarkerWriter(localWriter, view, client, scheduler, 10_000);
            TopicPartitionRef tb0 = new TopicPartitionRef("tb", 0);
            TopicPartitionRef ta0 = new TopicPartitionRef("ta", 0);
            Map<TopicPartitionRef, Short> codes = writer.write(txn.producerId(), (short) txn.producerEpoch(), 0, true,
                Set.of(tb0, ta0)).get(20, TimeUnit.SECONDS);
            assertThat(codes).containsExactlyInAnyOrderEntriesOf(Map.of(tb0, Errors.NONE, ta0, Errors.NONE));
            assertThat(writtenHere).containsExactly(ta0);
            assertThat(readCommitted(0)).containsExactly("a", "b", "c");
        } finally {
            producer.close(Duration.ZERO);
        }
    }

    @Test
    void markersWaitForAWriterAndGiveUpOnlyPartitionsTheClusterDoesNotHave() throws Exception {
        KafkaProducer<String, String> producer = producer("remote-retry");
        try {
            TransactionDescription txn = openTransaction(producer, "remote-retry", 1, List.of("x", "y"));
            view.leader("tb", 1, PartitionLeader.NONE);
            scheduler.schedule(() -> view.leader("tb", 1, 2), 400, TimeUnit.MILLISECONDS);
            RemoteMarkerWriter writer = new RemoteMarkerWriter(localWriter, view, client, scheduler, 10_000);
            TopicPartitionRef tb1 = new TopicPartitionRef("tb", 1);
            TopicPartitionRef gone = new TopicPartitionRef("gone", 0);
            long began = System.nanoTime();
            Map<TopicPartitionRef, Short> codes = writer.write(txn.producerId(), (short) txn.producerEpoch(), 0, true,
                Set.of(tb1, gone)).get(20, TimeUnit.SECONDS);
            // answered once tb-1 had its writer: a partition the cluster does not have is not retried
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isBetween(400L, 5_000L);
            assertThat(codes).containsExactlyInAnyOrderEntriesOf(Map.of(tb1, Errors.NONE,
                gone, Errors.UNKNOWN_TOPIC_OR_PARTITION));
            assertThat(readCommitted(1)).containsExactly("x", "y");
        } finally {
            producer.close(Duration.ZERO);
        }
        // A partition the view has but its writer does not know, and one whose writer is not live: retriable codes
        // once the budget is spent, never UNKNOWN_TOPIC_OR_PARTITION (the coordinator would give the marker up).
        view.leader("tb", 7, 2).leader("tb", 8, 3);
        RemoteMarkerWriter writer = new RemoteMarkerWriter(localWriter, view, client, scheduler, 700);
        long began = System.nanoTime();
        Map<TopicPartitionRef, Short> codes = writer.write(77, (short) 0, 0, false,
            Set.of(new TopicPartitionRef("tb", 7), new TopicPartitionRef("tb", 8))).get(20, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isBetween(300L, 10_000L);
        assertThat(codes).containsExactlyInAnyOrderEntriesOf(Map.of(new TopicPartitionRef("tb", 7),
            Errors.NOT_LEADER_OR_FOLLOWER, new TopicPartitionRef("tb", 8), Errors.NETWORK_EXCEPTION));
    }

    @Test
    void verificationAsksTheCoordinatorBroker() throws Exception {
        Set<String> askedHere = ConcurrentHashMap.newKeySet();
        TransactionVerifier local = new TransactionVerifier() {
            @Override
            public CompletableFuture<Map<TopicPartitionRef, Short>> addPartitions(String transactionalId,
                    long producerId, short producerEpoch, Collection<TopicPartitionRef> partitions, boolean verifyOnly) {
                askedHere.add(transactionalId);
                Map<TopicPartitionRef, Short> out = new ConcurrentHashMap<>();
                partitions.forEach(tp -> out.put(tp, Errors.NONE));
                return CompletableFuture.completedFuture(out);
            }
        };
        RemoteTransactionVerifier verifier = new RemoteTransactionVerifier(local, id -> Math.abs(id.hashCode()) % 50,
            view, client);
        view.topicLeader("__transaction_state", 2);
        TopicPartitionRef tb0 = new TopicPartitionRef("tb", 0);
        TopicPartitionRef tb1 = new TopicPartitionRef("tb", 1);
        long pid;
        short epoch;
        KafkaProducer<String, String> producer = producer("verified");
        try {
            TransactionDescription txn = openTransaction(producer, "verified", 0, List.of("v"));
            pid = txn.producerId();
            epoch = (short) txn.producerEpoch();
            assertThat(verifier.addPartitions("verified", pid, epoch, List.of(tb0), true).get(20, TimeUnit.SECONDS))
                .containsExactlyEntriesOf(Map.of(tb0, Errors.NONE));
            assertThat(verifier.addPartitions("verified", pid, epoch, List.of(tb1), true).get(20, TimeUnit.SECONDS))
                .containsExactlyEntriesOf(Map.of(tb1, Errors.TRANSACTION_ABORTABLE));
            assertThat(verifier.addPartitions("verified", pid + 1, epoch, List.of(tb0), true).get(20, TimeUnit.SECONDS))
                .containsExactlyEntriesOf(Map.of(tb0, Errors.INVALID_PRODUCER_ID_MAPPING));
            assertThat(askedHere).isEmpty();
        } finally {
            producer.close(Duration.ZERO); // no wait for the transaction left open
        }
        view.topicLeader("__transaction_state", 1);
        assertThat(verifier.addPartitions("verified", pid, epoch, List.of(tb0), true).get(20, TimeUnit.SECONDS))
            .containsExactlyEntriesOf(Map.of(tb0, Errors.NONE));
        assertThat(askedHere).containsExactly("verified");
        // No writer of the coordinator's partition, a writer that is not live, a writer that is down.
        for (int coordinator : List.of(PartitionLeader.NONE, 5)) {
            view.topicLeader("__transaction_state", coordinator);
            assertThat(verifier.addPartitions("verified", pid, epoch, List.of(tb0), true).get(20, TimeUnit.SECONDS))
                .containsExactlyEntriesOf(Map.of(tb0, Errors.COORDINATOR_NOT_AVAILABLE));
        }
        there.close();
        view.topicLeader("__transaction_state", 2);
        assertThat(verifier.addPartitions("verified", pid, epoch, List.of(tb0), true).get(20, TimeUnit.SECONDS))
            .containsExactlyEntriesOf(Map.of(tb0, Errors.NETWORK_EXCEPTION));
    }
}
