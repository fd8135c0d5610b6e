package io.kaas.coordinator.transaction;

import static io.kaas.coordinator.transaction.TxnHarness.tp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.PartitionLog;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.records.BatchBuilder;
import io.kaas.wire.protocol.Errors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The record format of {@code __transaction_state}, undecodable records on load, and the rewrite cleanup. */
@Timeout(60)
class TransactionStateLogTest extends TxnTestSupport {

    @Override
    void configure(TxnHarness harness) {
        harness.cleanupMinRecords = 20;
    }

    static TransactionImage sample() {
        return new TransactionImage(12, 11, 13, (short) 4, (short) 3, 60_000, TransactionState.ONGOING,
                Set.of(tp(0), new TopicPartitionRef("ünïcode", 7)),
                Map.of("g1", Map.of(tp(1), new OffsetManager.Commit(tp(1), 77, 2, null)), "g2", Map.of()),
                1_000, 2_000, true);
    }

    @Test
    void anImageSurvivesEncodingAndDecoding() throws Exception {
        TransactionImage image = sample();
        assertThat(TransactionRecordCodec.decodeValue(TransactionRecordCodec.value(image))).isEqualTo(image);
        assertThat(TransactionRecordCodec.decodeKey(TransactionRecordCodec.key("tx-ü"))).isEqualTo("tx-ü");
        for (TransactionState s : TransactionState.values()) {
            TransactionImage other = image.withState(s, 5);
            assertThat(TransactionRecordCodec.decodeValue(TransactionRecordCodec.value(other)).state()).isEqualTo(s);
        }
    }

    @Test
    void undecodableRecordsRaiseNamedErrors() {
        byte[] good = TransactionRecordCodec.value(sample());
        byte[] version = good.clone();
        version[1] = 9;
        assertThatThrownBy(() -> TransactionRecordCodec.decodeValue(version))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("unknown version 9");
        assertThatThrownBy(() -> TransactionRecordCodec.decodeValue(Arrays.copyOf(good, 20)))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("ends inside");
        byte[] state = good.clone();
        state[2 + 8 * 3 + 2 + 2 + 4] = 42;
        assertThatThrownBy(() -> TransactionRecordCodec.decodeValue(state))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("unknown state 42");
        byte[] longer = Arrays.copyOf(good, good.length + 3);
        assertThatThrownBy(() -> TransactionRecordCodec.decodeValue(longer))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("3 bytes after");
        byte[] count = good.clone();
        int partitions = 2 + 8 * 3 + 2 + 2 + 4 + 1 + 1 + 8 + 8;
        count[partitions] = 0x7F;
        assertThatThrownBy(() -> TransactionRecordCodec.decodeValue(count))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("announces");
        assertThatThrownBy(() -> TransactionRecordCodec.decodeKey(new byte[] {0}))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("no version");
        assertThatThrownBy(() -> TransactionRecordCodec.decodeKey(new byte[] {0, 1, 'a'}))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("unknown version 1");
        assertThatThrownBy(() -> TransactionRecordCodec.decodeKey(new byte[] {0, 0, (byte) 0xC3}))
                .isInstanceOf(TransactionRecordCodec.DecodeException.class).hasMessageContaining("not UTF-8");
    }

    @Test
    void anUndecodableRecordIsLoggedAndSkippedWithoutLosingOtherIds() throws Exception {
        TransactionCoordinator.InitResult good = initOk("good");
        initOk("victim");
        int partition = c().partitionFor("victim");
        h.reopenBackends();
        PartitionLog log = h.stateLog.partition(partition);
        // a later record of "victim" that does not decode, a key that does not decode, and a batch of garbage
        byte[] bad = TransactionRecordCodec.value(sample());
        bad[1] = 5;
        ByteBuffer batch = BatchBuilder.create(1L).add(TransactionRecordCodec.key("victim"), bad)
                .add(new byte[] {0, 3, 'x'}, TransactionRecordCodec.value(sample())).build();
        log.append(ProducedBatches.validate(batch), true).join();
        try (LogCapture logs = new LogCapture(StatePartitions.class)) {
            h.start();
            assertThat(logs.messages(Level.ERROR)).anySatisfy(m -> assertThat(m)
                    .contains("transactional id victim").contains("unknown version 5")
                    .contains("__transaction_state-" + partition));
            assertThat(logs.messages(Level.ERROR)).anySatisfy(m -> assertThat(m).contains("unknown version 3"));
        }
        // the victim keeps its earlier state; the other ids are untouched
        assertThat(c().describe("victim").orElseThrow().state()).isEqualTo(TransactionState.EMPTY);
        assertThat(c().describe("good").orElseThrow().producerId()).isEqualTo(good.producerId());
        assertThat(initOk("good").producerEpoch()).isEqualTo((short) 1);
    }

    @Test
    void aRecordInTheWrongPartitionIsSkipped() throws Exception {
        h.reopenBackends();
        String id = "misplaced";
        int wrong = (partitionOf(id) + 1) % TxnHarness.STATE_PARTITIONS;
        h.directState().write(wrong, id, sample().withState(TransactionState.EMPTY, 1)).join();
        try (LogCapture logs = new LogCapture(TransactionCoordinator.class)) {
            h.start();
            assertThat(logs.messages(Level.ERROR)).anySatisfy(m -> assertThat(m).contains("misplaced")
                    .contains("belongs to partition " + partitionOf(id)));
        }
        assertThat(c().describe(id)).isEmpty();
    }

    @Test
    void aPartitionWithManyMoreRecordsThanIdsIsRewrittenAndStillLoads() throws Exception {
        TransactionCoordinator.InitResult p = initOk("busy");
        int partition = c().partitionFor("busy");
        for (int i = 0; i < 30; i++) {
            initOk("busy");
        }
        add("busy", new TransactionCoordinator.InitResult(Errors.NONE, p.producerId(), (short) 30), tp(1));
        await(() -> {
            try {
                return h.stateLog.partition(partition).offsets().logStartOffset() > 0;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, 0);
        PartitionLog log = h.stateLog.partition(partition);
        long start = log.offsets().logStartOffset();
        assertThat(log.offsets().highWatermark() - start).isLessThan(20); // 32 records were written
        h.restart();
        TransactionCoordinator.Description d = c().describe("busy").orElseThrow();
        assertThat(d.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(d.producerEpoch()).isEqualTo((short) 30);
        assertThat(d.partitions()).containsExactly(tp(1));
    }

    @Test
    void anIdOfAPartitionNotHandedOverAnswersNotCoordinatorAndTheTopicIsNotCreated() throws Exception {
        h.reopenBackends();
        h.stateLog.exists = false;
        h.start();
        assertThat(init("first").errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(c().coordinatorError("first")).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(h.stateLog.exists).isFalse();
        int partition = partitionOf("first");
        c().onPartitionGained(partition, h.stateLog.partition(partition), 0);
        initOk("first");
    }

    @Test
    void anIdWhosePartitionIsLostAnswersNotCoordinatorAndItsNextOwnerLoadsIt() throws Exception {
        TransactionCoordinator.InitResult first = initOk("moving");
        int partition = partitionOf("moving");
        try (LogCapture logs = new LogCapture(TransactionCoordinator.class)) {
            c().onPartitionLost(partition);
            assertThat(logs.messages(Level.INFO)).anySatisfy(m -> assertThat(m)
                    .contains("Gave up __transaction_state-" + partition).contains("1 transactional ids dropped"));
        }
        assertThat(init("moving").errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(c().describe("moving")).isEmpty();
        assertThat(c().list(java.util.Set.of(), java.util.Set.of(), -1)).isEmpty();
        c().onPartitionGained(partition, h.stateLog.partition(partition), 1);
        assertThat(initOk("moving")).isEqualTo(new TransactionCoordinator.InitResult(Errors.NONE, first.producerId(),
                (short) 1));
    }

    @Test
    void aWriteInFlightWhenThePartitionIsLostAnswersNotCoordinator() throws Exception {
        initOk("racing");
        int partition = partitionOf("racing");
        CompletableFuture<Void> gate = new CompletableFuture<>();
        h.stateLog.gate = gate;
        CompletableFuture<TransactionCoordinator.InitResult> again = c().initProducerId("racing", 60_000, -1,
                (short) -1, false, false);
        c().onPartitionLost(partition);
        gate.complete(null);
        assertThat(get(again).errorCode()).isEqualTo(Errors.NOT_COORDINATOR);
    }

    private static int partitionOf(String id) {
        return (id.hashCode() == Integer.MIN_VALUE ? 0 : Math.abs(id.hashCode())) % TxnHarness.STATE_PARTITIONS;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
