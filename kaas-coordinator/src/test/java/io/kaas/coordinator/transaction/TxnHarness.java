package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import io.kaas.cluster.files.FileClusterStoreProvider;
import io.kaas.coordinator.CoordinatorContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.group.GroupCoordinatorConfig;
import io.kaas.coordinator.group.EngineOffsets;
import io.kaas.coordinator.internal.OwnedPartitions;
import io.kaas.engine.segments.SegmentEngineProvider;
import io.kaas.records.BatchBuilder;
import io.kaas.api.storage.KafkaStorageException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;

/**
 * A transaction coordinator over real backends in a directory: a segment engine holding {@code __transaction_state}
 * and the data topic {@code orders} (3 partitions), the file cluster store, the group coordinator, and markers
 * appended to the engine. {@link #restart} closes everything and opens it again over the same directory.
 */
final class TxnHarness implements AutoCloseable {
    static final String TOPIC = "orders";
    static final UUID STATE_TOPIC_ID = new UUID(7, 7);
    static final int STATE_PARTITIONS = 5;

    final Path dir;
    final TestTimer timer = new TestTimer();
    TransactionConfig config = new TransactionConfig(900_000, STATE_PARTITIONS, 604_800_000L, 10_000L, 3_600_000L);
    long startWaitMs = 5_000;
    long cleanupMinRecords = StateCleanup.MIN_RECORDS;
    StorageEngine engine;
    ClusterStateStore store;
    GroupCoordinator groups;
    EngineMarkerWriter markers;
    TransactionCoordinator coordinator;
    EngineStateLog stateLog;

    TxnHarness(Path dir) throws IOException {
        this.dir = dir;
        openBackends();
        if (store.topic(TOPIC).isEmpty()) {
            store.createTopic(new TopicRecord(TOPIC, UUID.randomUUID(), 3, Map.of()));
        }
    }

    private void openBackends() throws IOException {
        engine = new SegmentEngineProvider().open(new EngineContext(dir.resolve("data"), PluginConfig.empty(), 1,
                Clock.systemUTC()));
        store = new FileClusterStoreProvider().open(new ClusterStoreContext(dir.resolve("meta"), PluginConfig.empty(), 1));
        groups = new GroupCoordinator(store, new GroupCoordinatorConfig(6000, 1_800_000, 0, Integer.MAX_VALUE,
                604_800_000L, 600_000, 4096), timer, EngineOffsets.on(engine));
        groups.start();
        EngineOffsets.on(engine).gainAll(groups);
        markers = new EngineMarkerWriter(engine, store);
        stateLog = new EngineStateLog(engine);
    }

    /**
     * Creates and starts the coordinator, and hands it every partition of the state log if the log exists (as the
     * broker does when it owns them).
     */
    TransactionCoordinator start() throws IOException {
        coordinator = TransactionCoordinator.create(new CoordinatorContext(store, timer), config, stateLog, markers, new ProducerIds(store), groups,
                startWaitMs, cleanupMinRecords);
        coordinator.start();
        if (stateLog.exists()) {
            for (int p = 0; p < STATE_PARTITIONS; p++) {
                coordinator.onPartitionGained(p, stateLog.partition(p), 0);
            }
        }
        return coordinator;
    }

    /** Writes to the state log as the coordinator does, bypassing it (every partition owned at epoch 0). */
    StatePartitions directState() throws IOException {
        OwnedPartitions owned = new OwnedPartitions(TransactionCoordinator.TOPIC, () -> STATE_PARTITIONS);
        for (int p = 0; p < STATE_PARTITIONS; p++) {
            owned.loading(p, stateLog.partition(p), 0);
        }
        return new StatePartitions(owned, STATE_PARTITIONS, timer);
    }

    /** Closes the coordinator and the backends, opens them again and starts a new coordinator. */
    TransactionCoordinator restart() throws IOException {
        closeAll();
        openBackends();
        return start();
    }

    /** Closes the coordinator and the backends, opens the backends again (not the coordinator). */
    void reopenBackends() throws IOException {
        closeAll();
        openBackends();
    }

    private void closeAll() throws IOException {
        if (coordinator != null) {
            coordinator.close();
            coordinator = null;
        }
        groups.close();
        engine.close();
        store.close();
    }

    PartitionLog data(int partition) throws IOException {
        return engine.openPartition(new PartitionKey(TOPIC, store.topic(TOPIC).orElseThrow().topicId(), partition),
                LogConfig.defaults());
    }

    static TopicPartitionRef tp(int partition) {
        return new TopicPartitionRef(TOPIC, partition);
    }

    /** Appends a transactional data batch of the producer to {@code orders-partition}, as a producer would. */
    void produceTransactional(int partition, long producerId, short epoch, int sequence) throws IOException {
        ByteBuffer b = BatchBuilder.create(System.currentTimeMillis()).producer(producerId, epoch, sequence)
                .add("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)).build();
        b.putShort(RecordBatches.ATTRIBUTES, (short) (b.getShort(RecordBatches.ATTRIBUTES) | RecordBatches.TRANSACTIONAL_FLAG));
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, b.capacity()));
        data(partition).append(ProducedBatches.validate(b), true).join();
    }

    LogOffsets offsets(int partition) throws IOException {
        return data(partition).offsets();
    }

    @Override
    public void close() throws IOException {
        closeAll();
        timer.close();
    }

    /**
     * {@code __transaction_state} as partitions of the engine (the broker keeps it as a topic of the same engine).
     * A test can hold appends back ({@link #gate}: they complete once it does) or fail them ({@link #failAppends}:
     * nothing is stored), to see the coordinator while a change is in flight or after one failed.
     */
    static final class EngineStateLog implements TransactionStateLog {
        private final StorageEngine engine;
        volatile boolean exists = true;
        volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
        volatile boolean failAppends;
        final Set<Integer> unreadable = ConcurrentHashMap.newKeySet();

        EngineStateLog(StorageEngine engine) {
            this.engine = engine;
        }

        @Override
        public int partitionCount() {
            return STATE_PARTITIONS;
        }

        PartitionLog partition(int index) throws IOException {
            exists = true;
            PartitionLog real = engine.openPartition(new PartitionKey(TransactionCoordinator.TOPIC, STATE_TOPIC_ID,
                    index), LogConfig.defaults());
            return (PartitionLog) Proxy.newProxyInstance(PartitionLog.class.getClassLoader(),
                    new Class<?>[] {PartitionLog.class}, (proxy, method, args) -> {
                        if (method.getName().equals("append")) {
                            if (failAppends) {
                                return CompletableFuture.failedFuture(
                                        new KafkaStorageException("injected: the state log's volume failed"));
                            }
                            CompletableFuture<Void> g = gate;
                            return ((CompletableFuture<?>) invoke(method, real, args)).thenCombine(g, (r, v) -> r);
                        }
                        if (method.getName().equals("read") && unreadable.contains(index)) {
                            throw new KafkaStorageException("injected: " + real.key() + " cannot be read");
                        }
                        return invoke(method, real, args);
                    });
        }

        private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        boolean exists() {
            return exists;
        }
    }
}
