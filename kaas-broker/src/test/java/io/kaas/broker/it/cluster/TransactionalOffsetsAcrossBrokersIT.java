package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offsets committed inside a transaction (the consume-transform-produce loop of Kafka Streams EOS) when the group's
 * coordinator and the transaction's coordinator are different brokers: the offsets wait in {@code __consumer_offsets}
 * as a transactional batch for the transaction's marker, committed on commit, dropped on abort, and still there for
 * the broker that takes the group's partition over before the transaction ends. Real Java clients, two in-process
 * brokers on a real ZooKeeper ensemble.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TransactionalOffsetsAcrossBrokersIT {
    private static final Map<String, String> SMALL_INTERNAL_TOPICS = Map.of("offsets.topic.num.partitions", "4",
            "transaction.state.log.num.partitions", "4");

    @TempDir
    Path dir;

    @Test
    void offsetsCommitWithTheTransactionAbortWithItAndSurviveTheGroupCoordinatorMoving() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, SMALL_INTERNAL_TOPICS);
             Admin admin = cluster.clients().admin()) {
            cluster.clients().createTopic("in", 2);
            cluster.clients().createTopic("out", 1);
            try (KafkaProducer<String, String> plain = cluster.clients().producer()) {
                for (int i = 0; i < 20; i++) {
                    plain.send(new ProducerRecord<>("in", i % 2, "k" + i, "v" + i));
                }
                plain.flush();
            }
            String group = "etl";
            KafkaConsumer<String, String> consumer = cluster.clients().groupConsumer(group, Map.of());
            consumer.subscribe(List.of("in"));
            int seen = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen < 20 && System.nanoTime() < deadline) {
                seen += consumer.poll(Duration.ofMillis(200)).count();
            }
            assertThat(seen).isEqualTo(20);
            // A transactional id whose coordinator is not the group's.
            int groupCoordinator = coordinatorOfGroup(admin, group);
            String txnId = null;
            KafkaProducer<String, String> producer = null;
            for (int i = 0; i < 20 && txnId == null; i++) {
                KafkaProducer<String, String> p = cluster.clients().producer(Map.of("transactional.id", "tx-" + i,
                        "max.block.ms", 60_000));
                p.initTransactions();
                int txnCoordinator = admin.describeTransactions(List.of("tx-" + i)).all().get(30, TimeUnit.SECONDS)
                        .get("tx-" + i).coordinatorId();
                if (txnCoordinator != groupCoordinator) {
                    txnId = "tx-" + i;
                    producer = p;
                } else {
                    p.close();
                }
            }
            assertThat(txnId).as("a transactional id coordinated away from the group's coordinator").isNotNull();
            TopicPartition in0 = new TopicPartition("in", 0);
            TopicPartition in1 = new TopicPartition("in", 1);
            try (KafkaProducer<String, String> p = producer) {
                // 1. committed, with the generation of a live member, as Streams does
                try (KafkaConsumer<String, String> member = consumer) {
                    p.beginTransaction();
                    p.send(new ProducerRecord<>("out", "a", "first"));
                    p.sendOffsetsToTransaction(Map.of(in0, new OffsetAndMetadata(4), in1, new OffsetAndMetadata(5)),
                            member.groupMetadata());
                    p.commitTransaction();
                }
                await("offsets of the committed transaction").atMost(Duration.ofSeconds(30))
                        .until(() -> committed(admin, group), o -> o.equals(Map.of(in0, 4L, in1, 5L)));

                // 2. aborted: the offsets it carried never count
                p.beginTransaction();
                p.send(new ProducerRecord<>("out", "b", "aborted"));
                p.sendOffsetsToTransaction(Map.of(in0, new OffsetAndMetadata(8)), new ConsumerGroupMetadata(group));
                p.abortTransaction();
                assertThat(committed(admin, group)).isEqualTo(Map.of(in0, 4L, in1, 5L));

                // 3. the group's coordinator goes away with the offsets pending; its successor loads them from the log
                p.beginTransaction();
                p.send(new ProducerRecord<>("out", "c", "moved"));
                p.sendOffsetsToTransaction(Map.of(in0, new OffsetAndMetadata(9), in1, new OffsetAndMetadata(10)),
                        new ConsumerGroupMetadata(group));
                cluster.closeBroker(groupCoordinator);
                p.commitTransaction();
            }
            try (Admin survivor = cluster.clients().admin()) {
                await("offsets committed after the group moved").atMost(Duration.ofSeconds(60))
                        .ignoreExceptions()
                        .until(() -> committed(survivor, group), o -> o.equals(Map.of(in0, 9L, in1, 10L)));
                // require_stable: nothing is left pending
                Map<TopicPartition, OffsetAndMetadata> stable = survivor.listConsumerGroupOffsets(group,
                        new ListConsumerGroupOffsetsOptions().requireStable(true)).partitionsToOffsetAndMetadata()
                        .get(30, TimeUnit.SECONDS);
                assertThat(stable.get(in0).offset()).isEqualTo(9L);
            }
        }
    }

    private static int coordinatorOfGroup(Admin admin, String group) {
        return await("the coordinator of group " + group).atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group)
                        .coordinator().id(), id -> id >= 0);
    }

    private static Map<TopicPartition, Long> committed(Admin admin, String group) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, Long> out = new java.util.HashMap<>();
        offsets.forEach((tp, o) -> {
            if (o != null) {
                out.put(tp, o.offset());
            }
        });
        return out;
    }
}
