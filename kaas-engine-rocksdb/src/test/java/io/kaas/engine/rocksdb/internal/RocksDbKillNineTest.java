package io.kaas.engine.rocksdb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import io.kaas.plugin.tck.TestBatches;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Producer state and transactions after a SIGKILL: a child JVM appends durably (an idempotent producer, a
 * transaction ended by a Transactions V2 marker that bumps the epoch with coordinator epoch 7, the next
 * transaction left open), says so, and is killed before it can close the database. The reopened engine
 * reports the same producers, the same last stable offset, and still fences a zombie coordinator.
 */
class RocksDbKillNineTest {
    private static final PartitionKey KEY = new PartitionKey("killed", new UUID(7, 7), 0);
    private static final long P1 = 41L;
    private static final long P2 = 42L;
    private static final String READY = "appended";

    @TempDir
    Path dir;

    private static RocksDbEngine open(Path dir) throws Exception {
        return RocksDbEngine.open(dir, RocksDbConfig.from(PluginConfig.empty()), Clock.systemUTC());
    }

    private static void appendDurably(PartitionLog log, ByteBuffer batch) throws Exception {
        log.append(ProducedBatches.validate(batch), true).get(30, TimeUnit.SECONDS);
    }

    /** The child: appends, prints {@value #READY}, then waits to be killed (never closes the engine). */
    public static void main(String[] args) throws Exception {
        RocksDbEngine engine = open(Path.of(args[0]));
        PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
        appendDurably(log, TestBatches.batch().records(3).producer(P1, 2, 0).build());                      // 0-2
        appendDurably(log, TestBatches.batch().producer(P2, 0, 0).transactional().build());                 // 3
        appendDurably(log, TestBatches.controlMarker(P2, 1, true).coordinatorEpoch(7).timestamps(5_000, 0)
                .build());                                                                                   // 4
        appendDurably(log, TestBatches.batch().records(2).producer(P2, 1, 0).transactional().build());      // 5-6
        System.out.println(READY);
        System.out.flush();
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }

    @Test
    void producerStateAndTheOpenTransactionSurviveASigkill() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // surefire runs this module on the module path: the child gets all of it on its class path
        String classPath = System.getProperty("java.class.path") + File.pathSeparator
                + System.getProperty("jdk.module.path", "");
        Process child = new ProcessBuilder(java, "-Xmx128m", "-cp", classPath, RocksDbKillNineTest.class.getName(),
                dir.toString()).redirectErrorStream(true).start();
        try {
            var pool = Executors.newSingleThreadExecutor();
            StringBuffer output = new StringBuffer();
            Future<Boolean> ready = pool.submit(() -> {
                BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.equals(READY)) {
                        return true;
                    }
                    output.append(line).append('\n');
                }
                return false;
            });
            assertThat(ready.get(60, TimeUnit.SECONDS)).as("the child appended; its output: %s", output).isTrue();
            pool.shutdownNow();
        } finally {
            child.destroyForcibly(); // SIGKILL: no close, no flush of the memtables
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        try (RocksDbEngine engine = open(dir)) {
            PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
            assertThat(log.offsets()).isEqualTo(new LogOffsets(0, 7, 5));
            assertThat(log.producers()).containsExactly(new ProducerState(P1, 2, 2, 1_002, -1, -1),
                    new ProducerState(P2, 1, 1, 1_001, 7, 5));
            CompletableFuture<?> zombie = log.append(ProducedBatches.validate(TestBatches.controlMarker(P2, 1, true)
                    .coordinatorEpoch(6).build()), true);
            Throwable refused = null;
            try {
                zombie.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                refused = e.getCause();
            }
            assertThat(refused).isInstanceOf(TransactionCoordinatorFencedException.class);
            appendDurably(log, TestBatches.controlMarker(P2, 1, false).coordinatorEpoch(7).build());         // 7
            assertThat(log.offsets()).isEqualTo(new LogOffsets(0, 8, 8));
            assertThat(log.abortedTransactions(0, 8)).extracting(a -> List.of(a.producerId(), a.firstOffset(),
                    a.lastOffset())).containsExactly(List.of(P2, 5L, 7L));
        }
    }
}
