package io.kaas.coordinator.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.wire.protocol.Errors;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The harness and short calls shared by the coordinator's tests. */
abstract class TxnTestSupport {
    static final int TIMEOUT = 60_000;

    @TempDir
    java.nio.file.Path dir;
    TxnHarness h;

    @BeforeEach
    void open() throws Exception {
        h = new TxnHarness(dir);
        configure(h);
        h.start();
    }

    /** Changes the harness's settings before the coordinator starts. */
    void configure(TxnHarness harness) {
    }

    @AfterEach
    void closeHarness() throws Exception {
        h.close();
    }

    TransactionCoordinator c() {
        return h.coordinator;
    }

    static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(15, TimeUnit.SECONDS);
    }

    TransactionCoordinator.InitResult init(String id) throws Exception {
        return get(c().initProducerId(id, TIMEOUT, -1, (short) -1, false, false));
    }

    TransactionCoordinator.InitResult initOk(String id) throws Exception {
        TransactionCoordinator.InitResult r = init(id);
        assertThat(r.errorCode()).isEqualTo(Errors.NONE);
        return r;
    }

    Map<TopicPartitionRef, Short> add(String id, TransactionCoordinator.InitResult p, TopicPartitionRef... tps)
            throws Exception {
        return get(c().addPartitions(id, p.producerId(), p.producerEpoch(), List.of(tps), false));
    }

    TransactionCoordinator.EndResult end(String id, long pid, short epoch, boolean commit, boolean v2) throws Exception {
        return get(c().endTransaction(id, pid, epoch, commit, v2));
    }

    TransactionState state(String id) {
        return c().describe(id).map(TransactionCoordinator.Description::state).orElse(TransactionState.DEAD);
    }

    /** Waits (bounded) until {@code condition} holds, moving the test clock by {@code stepMs} between checks. */
    void await(BooleanSupplier condition, long stepMs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 15 s");
            }
            h.timer.advance(stepMs);
            Thread.sleep(5);
        }
    }

    void awaitState(String id, TransactionState s) throws Exception {
        await(() -> state(id) == s, 0);
    }
}
