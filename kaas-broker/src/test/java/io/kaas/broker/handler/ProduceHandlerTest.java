package io.kaas.broker.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.plugin.BackendProvider;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.cluster.ClusterMember;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.RegisteredEndpoint;
import java.time.Duration;
import java.util.Optional;
import io.kaas.broker.BrokerEndpoint;
import io.kaas.broker.auth.AccessGate;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.BrokerConfig.ImplicitAddRetry;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.request.ServedApi;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.broker.transaction.MarkerAppender;
import io.kaas.broker.transaction.VerificationGuards;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.ProduceResponseData;
import io.kaas.wire.protocol.Errors;
import io.kaas.wire.protocol.Records;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Executors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The produce path between the wire and the engine, on a real topic manager over the segment engine. */
class ProduceHandlerTest {
    @TempDir
    Path dataDir;

    private ScheduledExecutorService scheduler;
    private StorageEngine engine;
    private ClusterStateStore store;
    private TopicManager topics;
    private ClusterMember member;
    private ProduceHandler handler;
    private final AtomicInteger verifications = new AtomicInteger();
    private final VerificationGuards guards = new VerificationGuards();
    /** Kafka's defaults: retry every 20 ms for up to 100 ms. */
    private static final ImplicitAddRetry RETRY = new ImplicitAddRetry(20, 100);

    @BeforeEach
    void open() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("node.id", "1", "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", dataDir.toString()));
        scheduler = Executors.newSingleThreadScheduledExecutor();
        engine = provider(StorageEngineProvider.class, "segments")
                .open(new EngineContext(dataDir, PluginConfig.empty(), 1, Clock.systemUTC()));
        store = provider(ClusterStateStoreProvider.class, "files")
                .open(new ClusterStoreContext(dataDir, PluginConfig.empty(), 1));
        member = ClusterMember.join(store, new BrokerRegistration(1,
                List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT", "127.0.0.1", 9092)), Optional.empty(),
                "localhost", ProcessHandle.current().pid()));
        topics = new TopicManager(new Context(config), TopicNames.kafkaRules());
        topics.open();
        member.start(engine, topics);
        assertThat(member.awaitReady(Duration.ofSeconds(10), (t, p) -> topics.log(t, p) != null)).isTrue();
        topics.create("t", 1, 1, Map.of(), false);
        handler = new ProduceHandler(topics, (id, pid, epoch, partitions, verifyOnly) -> CompletableFuture.completedFuture(
                notInTheTransaction(partitions)), guards, RETRY);
    }

    /** A backend found as the broker finds it (service binding; the backends do not export their provider packages). */
    private static <P extends BackendProvider> P provider(Class<P> type, String name) {
        return ServiceLoader.load(type).stream().map(ServiceLoader.Provider::get).filter(p -> p.name().equals(name))
                .findFirst().orElseThrow();
    }

    @AfterEach
    void close() throws Exception {
        member.close();
        topics.close();
        engine.close();
        store.close();
        scheduler.shutdownNow();
    }

    private ProduceResponseData.PartitionProduceResponse produce(ByteBuffer batch, short acks) throws Exception {
        return produce(batch, acks, null);
    }

    private ProduceResponseData.PartitionProduceResponse produce(ByteBuffer batch, short acks, String transactionalId)
            throws Exception {
        return produce(batch, acks, transactionalId, (short) 9);
    }

    private ProduceResponseData.PartitionProduceResponse produce(ByteBuffer batch, short acks, String transactionalId,
                                                                 short version) throws Exception {
        List<ProduceRequestData.TopicProduceData> data = List.of(new ProduceRequestData.TopicProduceData().setName("t")
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                        .setRecords(Records.of(Unpooled.wrappedBuffer(batch))))));
        ProduceRequestData request = new ProduceRequestData().setAcks(acks).setTimeoutMs(10_000).setTopicData(data)
                .setTransactionalId(transactionalId);
        RequestContext context = new RequestContext(version, 1, "test", new InetSocketAddress("127.0.0.1", 1), "PLAINTEXT");
        // Through the pipeline, which gives the handler its contract's access (no authorizer here).
        HandlerRegistry registry = HandlerRegistry.of(List.of(ServedApi.of(ApiContracts.PRODUCE, handler)));
        ProduceResponseData response = (ProduceResponseData) registry.handle(ApiMessageType.PRODUCE, context, request)
                .get(10, TimeUnit.SECONDS);
        return response.responses().iterator().next().partitionResponses().get(0);
    }

    /** A v2 batch of {@code records} records, as kafka-clients writes it. */
    private static ByteBuffer batch(int records) {
        SimpleRecord[] r = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            r[i] = new SimpleRecord(1_000L + i, ("k" + i).getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(Compression.NONE, r).buffer();
    }

    /** A watcher that counts its wake-ups and watches again, as a fetch that found nothing new would. */
    private AtomicInteger countWakeUps(PartitionKey key) {
        AtomicInteger count = new AtomicInteger();
        Runnable watcher = new Runnable() {
            @Override
            public void run() {
                count.incrementAndGet();
                topics.watchers().watch(key, this);
            }
        };
        topics.watchers().watch(key, watcher);
        return count;
    }

    @Test
    void eachAppendWakesTheFetchesWaitingOnThePartitionOnce() throws Exception {
        PartitionKey key = topics.log("t", 0).key();
        AtomicInteger wakeUps = countWakeUps(key);

        assertThat(produce(batch(3), (short) -1).errorCode()).isEqualTo(Errors.NONE);
        assertThat(wakeUps).as("acks=all").hasValue(1);
        assertThat(produce(batch(1), (short) 1).baseOffset()).isEqualTo(3);
        assertThat(wakeUps).as("acks=1").hasValue(2);
    }

    @Test
    void aBatchOfAnotherMagicIsRefusedBeforeTheEngine() throws Exception {
        ByteBuffer batch = batch(1);
        batch.put(RecordBatches.MAGIC, (byte) 1);
        ProduceResponseData.PartitionProduceResponse response = produce(batch, (short) 1);
        assertThat(response.errorCode()).isEqualTo(Errors.INVALID_RECORD);
        assertThat(response.errorMessage()).contains("magic version 2");
        assertThat(topics.log("t", 0).offsets().highWatermark()).isZero();
    }

    /** What a coordinator answers for partitions of a transaction that does not hold them (KIP-890 verification). */
    private Map<TopicPartitionRef, Short> notInTheTransaction(Collection<TopicPartitionRef> partitions) {
        verifications.incrementAndGet();
        Map<TopicPartitionRef, Short> out = new HashMap<>();
        partitions.forEach(p -> out.put(p, Errors.INVALID_TXN_STATE));
        return out;
    }

    @Test
    void aTransactionalBatchTheCoordinatorDoesNotVerifyIsNotStored() throws Exception {
        ByteBuffer batch = MemoryRecords.withTransactionalRecords(Compression.NONE, 5L, (short) 0, 0,
                new SimpleRecord(1_000L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)))
                .buffer();
        ProduceResponseData.PartitionProduceResponse response = produce(batch, (short) 1, "txn-a");
        assertThat(response.errorCode()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(response.errorMessage()).isEqualTo("Partition was not added to the transaction");
        assertThat(verifications).as("one coordinator call for the request").hasValue(1);
        assertThat(topics.log("t", 0).offsets().highWatermark()).isZero();
        assertThat(topics.log("t", 0).offsets().lastStableOffset()).isZero();
    }

    @Test
    void aBatchWhoseTransactionEndedWhileItWasVerifiedIsNotStored() throws Exception {
        // The coordinator says yes, but the transaction's marker reaches the partition before the batch would.
        MarkerAppender markers = new MarkerAppender(topics, guards, Clock.systemUTC());
        handler = new ProduceHandler(topics, (id, pid, epoch, partitions, verifyOnly) -> {
            assertThat(markers.append("t", 0, pid, epoch, 0, false).join()).isEqualTo(Errors.NONE);
            Map<TopicPartitionRef, Short> yes = new HashMap<>();
            partitions.forEach(p -> yes.put(p, Errors.NONE));
            return CompletableFuture.completedFuture(yes);
        }, guards, RETRY);
        ByteBuffer batch = MemoryRecords.withTransactionalRecords(Compression.NONE, 5L, (short) 0, 0,
                new SimpleRecord(1_000L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)))
                .buffer();
        ProduceResponseData.PartitionProduceResponse late = produce(batch.duplicate(), (short) 1, "txn-a");
        assertThat(late.errorCode()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(topics.log("t", 0).offsets().highWatermark()).as("the marker only").isEqualTo(1);
        assertThat(topics.log("t", 0).offsets().lastStableOffset()).as("no transaction left open").isEqualTo(1);

        // verified with no marker in between: stored, and it opens the transaction
        handler = new ProduceHandler(topics, (id, pid, epoch, partitions, verifyOnly) -> {
            Map<TopicPartitionRef, Short> yes = new HashMap<>();
            partitions.forEach(p -> yes.put(p, Errors.NONE));
            return CompletableFuture.completedFuture(yes);
        }, guards, RETRY);
        assertThat(produce(batch.duplicate(), (short) 1, "txn-a").errorCode()).isEqualTo(Errors.NONE);
        assertThat(topics.log("t", 0).offsets().highWatermark()).isEqualTo(2);
        assertThat(topics.log("t", 0).offsets().lastStableOffset()).isEqualTo(1);
    }

    /** A coordinator that answers CONCURRENT_TRANSACTIONS {@code busyAnswers} times, then adds the partitions. */
    private ProduceHandler busyCoordinator(int busyAnswers) {
        return busyCoordinator(busyAnswers, RETRY);
    }

    private ProduceHandler busyCoordinator(int busyAnswers, ImplicitAddRetry retry) {
        return new ProduceHandler(topics, (id, pid, epoch, partitions, verifyOnly) -> {
            short code = verifications.incrementAndGet() <= busyAnswers ? Errors.CONCURRENT_TRANSACTIONS : Errors.NONE;
            Map<TopicPartitionRef, Short> out = new HashMap<>();
            partitions.forEach(p -> out.put(p, code));
            return CompletableFuture.completedFuture(out);
        }, guards, retry);
    }

    private static ByteBuffer transactionalBatch() {
        return MemoryRecords.withTransactionalRecords(Compression.NONE, 5L, (short) 0, 0,
                new SimpleRecord(1_000L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)))
                .buffer();
    }

    @Test
    void anImplicitAddThatMeetsConcurrentTransactionsIsRetriedByTheBroker() throws Exception {
        // As Kafka 4.x: the previous transaction's markers are still being written; the broker retries the add.
        handler = busyCoordinator(2);
        assertThat(produce(transactionalBatch(), (short) 1, "txn-a", (short) 12).errorCode()).isEqualTo(Errors.NONE);
        assertThat(verifications).as("two busy answers, then the add").hasValue(3);
        assertThat(topics.log("t", 0).offsets().highWatermark()).isEqualTo(1);
    }

    @Test
    void theMarkersARetryWaitedForDoNotVoidTheAttemptAfterThem() throws Exception {
        // The last transaction's marker lands while the add is answered CONCURRENT_TRANSACTIONS; the retry that
        // follows is a new verification: its batch is stored (Kafka's guard is per verification, not per request).
        MarkerAppender markers = new MarkerAppender(topics, guards, Clock.systemUTC());
        handler = new ProduceHandler(topics, (id, pid, epoch, partitions, verifyOnly) -> {
            boolean first = verifications.incrementAndGet() == 1;
            if (first) {
                assertThat(markers.append("t", 0, pid, (short) 0, 0, true).join()).isEqualTo(Errors.NONE);
            }
            Map<TopicPartitionRef, Short> out = new HashMap<>();
            partitions.forEach(p -> out.put(p, first ? Errors.CONCURRENT_TRANSACTIONS : Errors.NONE));
            return CompletableFuture.completedFuture(out);
        }, guards, RETRY);
        ByteBuffer batch = MemoryRecords.withTransactionalRecords(Compression.NONE, 5L, (short) 1, 0,
                new SimpleRecord(1_000L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)))
                .buffer();
        assertThat(produce(batch, (short) 1, "txn-a", (short) 12).errorCode()).isEqualTo(Errors.NONE);
        assertThat(verifications).hasValue(2);
        assertThat(topics.log("t", 0).offsets().highWatermark()).as("the marker, then the batch").isEqualTo(2);
    }

    @Test
    void aRetriedImplicitAddWaitsForThePreviousTransactionsCompletionRatherThanPolling() throws Exception {
        CompletableFuture<Void> completion = new CompletableFuture<>();
        handler = new ProduceHandler(topics, new TransactionVerifier() {
            @Override
            public CompletableFuture<Map<TopicPartitionRef, Short>> addPartitions(String id, long pid, short epoch,
                    Collection<TopicPartitionRef> partitions, boolean verifyOnly) {
                short code = completion.isDone() ? Errors.NONE : Errors.CONCURRENT_TRANSACTIONS;
                if (verifications.incrementAndGet() == 1) {
                    scheduler.schedule(() -> completion.complete(null), 60, TimeUnit.MILLISECONDS);
                }
                Map<TopicPartitionRef, Short> out = new HashMap<>();
                partitions.forEach(p -> out.put(p, code));
                return CompletableFuture.completedFuture(out);
            }

            @Override
            public CompletableFuture<Void> completion(String transactionalId) {
                return completion.copy();
            }
        }, guards, new ImplicitAddRetry(20, 30_000));
        assertThat(produce(transactionalBatch(), (short) 1, "txn-a", (short) 12).errorCode()).isEqualTo(Errors.NONE);
        assertThat(verifications).as("asked once, then once the completion came, not every 20 ms").hasValue(2);
    }

    @Test
    void anImplicitAddStillConcurrentAfterTheRetryWindowIsNotEnoughReplicasAndNotStored() throws Exception {
        // A window of 1 s at 20 ms backoffs: retried (even on a loaded machine, where 100 ms can pass in one attempt),
        // and bounded (at most one attempt per backoff).
        handler = busyCoordinator(Integer.MAX_VALUE, new ImplicitAddRetry(20, 1_000));
        ProduceResponseData.PartitionProduceResponse response =
                produce(transactionalBatch(), (short) 1, "txn-a", (short) 12);
        assertThat(response.errorCode()).isEqualTo(Errors.NOT_ENOUGH_REPLICAS);
        assertThat(response.errorMessage()).contains("Unable to verify");
        assertThat(verifications.get()).as("retried within add.partitions.to.txn.retry.backoff.max.ms")
                .isBetween(2, 1_000 / 20 + 1);
        assertThat(topics.log("t", 0).offsets().highWatermark()).isZero();
    }

    @Test
    void aVerifyOnlyCheckIsNotRetried() throws Exception {
        // Kafka retries only the implicit add of transactions V2, not the verification of older producers.
        handler = busyCoordinator(Integer.MAX_VALUE);
        assertThat(produce(transactionalBatch(), (short) 1, "txn-a", (short) 11).errorCode())
                .isEqualTo(Errors.NOT_ENOUGH_REPLICAS);
        assertThat(verifications).hasValue(1);
    }

    @Test
    void aTransactionalBatchWithoutATransactionalIdIsRefusedWithoutAskingTheCoordinator() throws Exception {
        ByteBuffer batch = MemoryRecords.withTransactionalRecords(Compression.NONE, 5L, (short) 0, 0,
                new SimpleRecord(1_000L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)))
                .buffer();
        ProduceResponseData.PartitionProduceResponse response = produce(batch, (short) 1, null);
        assertThat(response.errorCode()).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(verifications).hasValue(0);
        assertThat(topics.log("t", 0).offsets().highWatermark()).isZero();
    }

    @Test
    void anIdempotentBatchWithATransactionalIdIsNotVerified() throws Exception {
        ByteBuffer batch = MemoryRecords.withIdempotentRecords(Compression.NONE, 6L, (short) 0, 0,
                new SimpleRecord(1_000L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)))
                .buffer();
        assertThat(produce(batch, (short) 1, "txn-a").errorCode()).isEqualTo(Errors.NONE);
        assertThat(verifications).hasValue(0);
        assertThat(topics.log("t", 0).offsets().highWatermark()).isEqualTo(1);
    }

    @Test
    void aControlBatchIsRefusedWhateverItsKeyButACorruptOneIsCorrupt() throws Exception {
        ByteBuffer marker = MemoryRecords.withEndTransactionMarker(1_000L, 5L, (short) 0,
                new org.apache.kafka.common.record.internal.EndTransactionMarker(
                        org.apache.kafka.common.record.internal.ControlRecordType.ABORT, 0)).buffer();
        // A marker is a transactional batch: without a transactional id, Kafka refuses the whole request first.
        assertThat(produce(marker.duplicate(), (short) 1).errorCode()).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        ProduceResponseData.PartitionProduceResponse valid = produce(marker.duplicate(), (short) 1, "txn-a");
        assertThat(valid.errorCode()).isEqualTo(Errors.INVALID_RECORD);
        assertThat(valid.errorMessage()).contains("control records");
        assertThat(verifications).as("refused before the coordinator is asked").hasValue(0);

        ByteBuffer shortKey = marker.duplicate();
        int keyLength = RecordBatches.HEADER_SIZE + 4; // one-byte varints: length, attributes, deltas, then the key length
        assertThat(shortKey.get(keyLength)).as("key length 4, zigzag").isEqualTo((byte) 8);
        shortKey.put(keyLength, (byte) 6); // 3 bytes
        shortKey.putInt(RecordBatches.CRC, (int) RecordBatches.crc(shortKey, 0, shortKey.remaining()));
        assertThat(produce(shortKey, (short) 1, "txn-a").errorCode()).isEqualTo(Errors.INVALID_RECORD);

        ByteBuffer corrupt = marker.duplicate();
        corrupt.put(corrupt.limit() - 1, (byte) (corrupt.get(corrupt.limit() - 1) ^ 0x5a));
        assertThat(produce(corrupt, (short) 1, "txn-a").errorCode()).isEqualTo(Errors.CORRUPT_MESSAGE);
        assertThat(topics.log("t", 0).offsets().highWatermark()).isZero();
    }

    private final class Context implements BrokerContext {
        private final BrokerConfig config;

        Context(BrokerConfig config) {
            this.config = config;
        }

        @Override
        public BrokerConfig config() {
            return config;
        }

        @Override
        public ClusterStateStore clusterStore() {
            return store;
        }

        @Override
        public StorageEngine storageEngine() {
            return engine;
        }

        @Override
        public Clock clock() {
            return Clock.systemUTC();
        }

        @Override
        public ScheduledExecutorService scheduler() {
            return scheduler;
        }

        @Override
        public BrokerEndpoint advertisedEndpoint() {
            return new BrokerEndpoint("PLAINTEXT", "127.0.0.1", 9092);
        }

        @Override
        public AccessGate accessGate() {
            return AccessGate.ALLOW_ALL;
        }

        @Override
        public ClusterMember cluster() {
            return member;
        }
    }
}
