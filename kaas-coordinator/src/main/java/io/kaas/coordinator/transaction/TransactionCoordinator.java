package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.PartitionOfflineException;
import io.kaas.api.storage.RecordTooLargeException;
import io.kaas.coordinator.CoordinatorContext;
import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.coordinator.internal.NotCoordinatorException;
import io.kaas.coordinator.internal.OwnedPartitions;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction coordinator (KIP-98, KIP-360, KIP-447, KIP-890): per transactional id its producer id and
 * epoch, state and partitions, made durable in {@link TransactionStateLog} before a change is acknowledged;
 * markers written through {@link MarkerWriter}; transactional offset commits staged with the group coordinator
 * until the transaction ends. Error codes are Kafka's ({@code io.kaas.wire.protocol.Errors}). Thread-safe: each id
 * has a pending-state guard (one change in flight; a request meanwhile gets CONCURRENT_TRANSACTIONS) and no lock is
 * held while a change is made durable or a marker written.
 *
 * <p>A transactional id is served only by the broker that owns its partition of the state log
 * ({@link #onPartitionGained}, {@link #onPartitionLost}); elsewhere it answers NOT_COORDINATOR, and before
 * {@link #start} or while its partition loads COORDINATOR_LOAD_IN_PROGRESS, as Kafka's coordinator does.
 */
public final class TransactionCoordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);
    static final String TOPIC = "__transaction_state";
    static final String CONSUMER_OFFSETS = "__consumer_offsets";
    /** How long {@link #start} waits for the transactions it found prepared before it lets them finish behind. */
    static final long START_COMPLETION_WAIT_MS = 10_000;

    /** InitProducerId's answer. */
    public record InitResult(short errorCode, long producerId, short producerEpoch) {
    }

    /** EndTxn's answer; v5+ (transactions V2) returns the producer id and epoch the client continues with. */
    public record EndResult(short errorCode, long producerId, short producerEpoch) {
    }

    /** DescribeTransactions' view of one transactional id. */
    public record Description(String transactionalId, TransactionState state, long producerId, short producerEpoch,
                              int timeoutMs, long startTimeMs, Set<TopicPartitionRef> partitions) {
    }

    /** ListTransactions' view of one transactional id. */
    public record Listing(String transactionalId, long producerId, TransactionState state) {
    }

    private final CoordinatorTimer timer;
    private final TransactionConfig config;
    private final TransactionStateLog log;
    private final StatePartitions state;
    private final ProducerIds ids;
    private final OffsetManager offsets;
    private final TransactionCompleter completer;
    private final StateCleanup cleanup;
    private final Map<String, TransactionMetadata> txns = new ConcurrentHashMap<>();
    /** The partitions of the state log this broker owns now, and whether each is loaded. */
    private final OwnedPartitions owned;
    private final long startWaitMs;
    private volatile boolean active;
    private volatile boolean closed;
    private final TransactionTimeouts timeouts;

    private TransactionCoordinator(CoordinatorContext context, TransactionConfig config, TransactionStateLog log,
                                   MarkerWriter markers, ProducerIds ids, GroupCoordinator groups, long startWaitMs,
                                   long cleanupMinRecords) {
        this.timer = context.timer();
        this.config = config;
        this.log = log;
        int partitions = log.partitionCount();
        this.owned = new OwnedPartitions(TOPIC, () -> partitions);
        this.state = new StatePartitions(owned, partitions, timer);
        this.ids = ids;
        this.offsets = groups == null ? null : groups.offsets();
        this.completer = new TransactionCompleter(timer, markers, offsets, this::write, () -> closed);
        this.cleanup = new StateCleanup(state, timer, txns, cleanupMinRecords);
        this.startWaitMs = startWaitMs;
        this.timeouts = new TransactionTimeouts(timer, config, txns, state, cleanup, this::fenceAndAbort,
                () -> closed);
    }

    /** A coordinator over {@code log}; call {@link #start} before anything else. */
    public static TransactionCoordinator create(CoordinatorContext context, TransactionConfig config,
                                                TransactionStateLog log, MarkerWriter markers, ProducerIds ids,
                                                GroupCoordinator groups) {
        return new TransactionCoordinator(context, config, log, markers, ids, groups, START_COMPLETION_WAIT_MS,
                StateCleanup.MIN_RECORDS);
    }

    /**
     * As {@link #create}, waiting at most {@code startWaitMs} in {@link #start} for prepared transactions and
     * rewriting a state partition once it holds more than {@code cleanupMinRecords} (and 4 per live id).
     */
    static TransactionCoordinator create(CoordinatorContext context, TransactionConfig config, TransactionStateLog log,
                                         MarkerWriter markers, ProducerIds ids, GroupCoordinator groups,
                                         long startWaitMs, long cleanupMinRecords) {
        return new TransactionCoordinator(context, config, log, markers, ids, groups, startWaitMs, cleanupMinRecords);
    }

    // ---- start, and the partitions of the state log this broker owns ----

    /**
     * Starts serving: the timeout and expiry passes run from now on. The transactional ids of a partition are served
     * once it is {@link #onPartitionGained gained}; ids of partitions this broker does not own answer NOT_COORDINATOR.
     */
    public void start() {
        if (log.partitionCount() != config.stateLogPartitions()) {
            LOG.warn("{} has {} partitions, transaction.state.log.num.partitions is {}: the topic's count is used",
                    TOPIC, log.partitionCount(), config.stateLogPartitions());
        }
        active = true;
        timeouts.start();
    }

    /**
     * This broker now owns partition {@code partition} of the state log, open at {@code leaderEpoch}: loads it (last
     * record per transactional id wins; its ids answer COORDINATOR_LOAD_IN_PROGRESS meanwhile), finishes the
     * transactions found in PrepareCommit, PrepareAbort or PrepareEpochFence (markers, then the Complete state;
     * waiting a bounded time), re-stages the pending offsets of Ongoing ones. A partition that cannot be read is
     * logged and left out: its ids answer COORDINATOR_NOT_AVAILABLE (their state is not lost; the next owner, or this
     * one when it gains the partition again, loads it). Blocks on I/O; never on an event loop.
     */
    public void onPartitionGained(int partition, PartitionLog partitionLog, int leaderEpoch) {
        if (partition < 0 || partition >= state.count()) {
            LOG.error("Ignored {}-{}: the coordinator has {} partitions", TOPIC, partition, state.count());
            return;
        }
        long began = System.nanoTime();
        owned.loading(partition, partitionLog, leaderEpoch);
        Map<String, TransactionImage> loaded = new LinkedHashMap<>();
        long records;
        try {
            records = state.load(partition, (id, image) -> {
                if (image == null || image.state() == TransactionState.DEAD) {
                    loaded.remove(id);
                } else if (partitionFor(id) != partition) {
                    LOG.error("Skipped the state of transactional id {} found in {}-{}: it belongs to partition {}",
                            id, TOPIC, partition, partitionFor(id));
                } else {
                    loaded.put(id, image);
                }
            });
        } catch (IOException | RuntimeException e) {
            owned.failed(partition, leaderEpoch);
            LOG.atError().setCause(e).addKeyValue("partition", TOPIC + "-" + partition)
                    .log("Could not load {}-{}: its transactional ids answer COORDINATOR_NOT_AVAILABLE until the "
                            + "partition is loaded again", TOPIC, partition);
            return;
        }
        List<CompletableFuture<Void>> completing = new ArrayList<>();
        loaded.forEach((id, image) -> {
            TransactionMetadata md = new TransactionMetadata(id, partition, image, true);
            txns.put(id, md);
            if (image.state() == TransactionState.ONGOING || image.isPrepare()) {
                stage(image);
            }
            if (image.isPrepare()) {
                TransactionImage prepared = image.state() == TransactionState.PREPARE_EPOCH_FENCE
                        ? image.withState(TransactionState.PREPARE_ABORT, image.lastUpdateMs()) : image;
                LOG.info("Finishing the {} of transactional id {} (producer id {}, epoch {}) found prepared in {}-{}, "
                                + "on {} partitions", prepared.state() == TransactionState.PREPARE_COMMIT ? "COMMIT"
                                : "ABORT", id, image.producerId(), image.producerEpoch(), TOPIC, partition,
                        image.partitions().size());
                md.image = prepared;
                completing.add(completer.complete(md, prepared));
            }
        });
        owned.loaded(partition, leaderEpoch);
        LOG.atInfo().addKeyValue("partition", TOPIC + "-" + partition).addKeyValue("leaderEpoch", leaderEpoch)
                .log("Loaded {} transactional ids from {} records of {}-{} at leader epoch {} in {} ms", loaded.size(),
                        records, TOPIC, partition, leaderEpoch,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
        awaitStartCompletions(completing);
    }

    /**
     * This broker no longer owns partition {@code partition} of the state log: its transactional ids are dropped
     * (requests for them answer NOT_COORDINATOR; a write in flight fails the same way) and their staged offsets
     * unstaged here. Transactions it left open or prepared are finished by the next owner from the state log.
     */
    public void onPartitionLost(int partition) {
        if (!owned.lost(partition)) {
            return;
        }
        int dropped = 0;
        for (TransactionMetadata md : List.copyOf(txns.values())) {
            if (md.partition != partition) {
                continue;
            }
            synchronized (md) {
                txns.remove(md.transactionalId, md);
                unstage(md.image);
            }
            dropped++;
        }
        state.forget(partition);
        LOG.atInfo().addKeyValue("partition", TOPIC + "-" + partition)
                .log("Gave up {}-{}: {} transactional ids dropped; their next coordinator loads them", TOPIC, partition,
                        dropped);
    }

    /**
     * The error any request for {@code transactionalId} gets first: COORDINATOR_LOAD_IN_PROGRESS before {@link #start}
     * or while its partition loads, NOT_COORDINATOR if its partition is not this broker's, COORDINATOR_NOT_AVAILABLE
     * if it failed to load; else NONE.
     */
    public short coordinatorError(String transactionalId) {
        if (!active) {
            return Errors.COORDINATOR_LOAD_IN_PROGRESS;
        }
        return owned.error(transactionalId);
    }

    private void awaitStartCompletions(List<CompletableFuture<Void>> completing) {
        if (completing.isEmpty()) {
            return;
        }
        try {
            CompletableFuture.allOf(completing.toArray(CompletableFuture[]::new)).get(startWaitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            long left = completing.stream().filter(f -> !f.isDone()).count();
            LOG.warn("{} prepared transactions are not complete after {} ms; they finish in the background, their "
                    + "transactional ids answer CONCURRENT_TRANSACTIONS until then", left, startWaitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.warn("A prepared transaction found at start did not complete: {}", e.getCause().toString());
        }
    }

    /** Re-stages the pending offsets of an image with the group coordinator (load). */
    private void stage(TransactionImage image) {
        if (offsets == null) {
            return;
        }
        image.groups().forEach((group, pending) -> {
            if (!pending.isEmpty()) {
                offsets.stageTransactional(group, image.producerId(), pending);
            }
        });
    }

    /** Drops the staged offsets of an image from the group coordinator (the partition moved away). */
    private void unstage(TransactionImage image) {
        if (offsets == null) {
            return;
        }
        image.groups().forEach((group, pending) -> {
            if (!pending.isEmpty()) {
                offsets.completeTransactional(group, image.producerId(), false, pending);
            }
        });
    }

    /** The state-log partition that owns {@code transactionalId}: {@code abs(hashCode) % partitions}, as Kafka. */
    public int partitionFor(String transactionalId) {
        int h = transactionalId.hashCode();
        return (h == Integer.MIN_VALUE ? 0 : Math.abs(h)) % state.count();
    }

    // ---- the durable change of one id ----

    /**
     * Makes {@code target} durable for {@code md}, whose pending state the caller set under its monitor; applies
     * it (and clears the pending state) once durable, clears the pending state only if the write failed.
     *
     * @return completes with NONE, or the error to answer (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE,
     *         UNKNOWN_SERVER_ERROR as Kafka maps a failed append to its transaction log)
     */
    private CompletableFuture<Short> write(TransactionMetadata md, TransactionImage target) {
        return write(md, target, null);
    }

    private CompletableFuture<Short> write(TransactionMetadata md, TransactionImage target, Runnable onDurable) {
        return state.write(md.partition, md.transactionalId, target).handle((r, e) -> {
            synchronized (md) {
                md.pending = null;
                if (e == null) {
                    md.image = target;
                    md.durable = true;
                    if (onDurable != null) {
                        onDurable.run();
                    }
                }
            }
            if (e != null) {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                LOG.atError().setCause(cause).addKeyValue("transactionalId", md.transactionalId)
                        .log("Could not write the {} state of transactional id {} to {}-{}", target.state().kafkaName(),
                                md.transactionalId, TOPIC, md.partition);
                return appendError(cause);
            }
            cleanup.maybeRewrite(md.partition);
            return Errors.NONE;
        });
    }

    private static short appendError(Throwable e) {
        if (e instanceof NotCoordinatorException || e instanceof KafkaStorageException
                || e instanceof PartitionOfflineException) {
            return Errors.NOT_COORDINATOR;
        }
        if (e instanceof RecordTooLargeException) {
            return Errors.UNKNOWN_SERVER_ERROR;
        }
        return Errors.COORDINATOR_NOT_AVAILABLE;
    }

    /** A short error answer, or a change to write. */
    private record Step(short error, TransactionImage target) {
        static Step error(short code) {
            return new Step(code, null);
        }
    }

    // ---- InitProducerId ----

    /**
     * InitProducerId with a transactional id (non-empty; the handler answers the idempotent case itself with
     * {@link ProducerIds}).
     *
     * <p>Errors: INVALID_REQUEST (empty id, only one of producer id and epoch), INVALID_TRANSACTION_TIMEOUT (not in
     * 1..{@code transaction.max.timeout.ms}), TRANSACTIONAL_ID_AUTHORIZATION_FAILED for {@code enable2Pc} and
     * UNSUPPORTED_VERSION for {@code keepPreparedTxn} (Kafka 4 without two-phase commit), PRODUCER_FENCED (Kafka
     * answers InitProducerId v0-3 INVALID_PRODUCER_EPOCH instead), CONCURRENT_TRANSACTIONS while a transaction
     * completes or after fencing an open one (it is aborted; the producer retries), COORDINATOR_LOAD_IN_PROGRESS
     * before {@link #start}.
     *
     * @param producerId    -1, or the id the producer has (KIP-360 re-initialisation after an abortable error)
     * @param producerEpoch -1, or the producer's epoch
     */
    public CompletableFuture<InitResult> initProducerId(String transactionalId, int transactionTimeoutMs,
                                                        long producerId, short producerEpoch,
                                                        boolean enable2Pc, boolean keepPreparedTxn) {
        short error = Errors.NONE;
        if (transactionalId == null || transactionalId.isEmpty()) {
            error = Errors.INVALID_REQUEST;
        } else if (coordinatorError(transactionalId) != Errors.NONE) {
            error = coordinatorError(transactionalId);
        } else if (enable2Pc) {
            error = Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED; // Kafka without transaction.two.phase.commit.enable
        } else if (keepPreparedTxn) {
            error = Errors.UNSUPPORTED_VERSION; // Kafka: keeping a prepared transaction needs 2PC
        } else if (transactionTimeoutMs <= 0 || transactionTimeoutMs > config.maxTimeoutMs()) {
            error = Errors.INVALID_TRANSACTION_TIMEOUT;
        } else if ((producerId < 0) != (producerEpoch < 0)) {
            error = Errors.INVALID_REQUEST;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(initError(error));
        }
        boolean expected = producerId >= 0;
        TransactionMetadata md;
        try {
            md = metadata(transactionalId, transactionTimeoutMs);
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).addKeyValue("transactionalId", transactionalId)
                    .log("Could not allocate a producer id for transactional id {}", transactionalId);
            return CompletableFuture.completedFuture(initError(Errors.COORDINATOR_NOT_AVAILABLE));
        }
        Step step;
        boolean fence = false;
        synchronized (md) {
            TransactionImage img = md.image;
            long now = timer.nowMs();
            if (md.pending != null) {
                step = Step.error(Errors.CONCURRENT_TRANSACTIONS);
            } else if (expected && !(img.producerEpoch() < 0 || producerId == img.producerId()
                    || (producerId == img.previousProducerId() && producerEpoch >= Short.MAX_VALUE - 1))) {
                step = Step.error(Errors.PRODUCER_FENCED);
            } else {
                switch (img.state()) {
                    case PREPARE_COMMIT, PREPARE_ABORT, PREPARE_EPOCH_FENCE, DEAD ->
                            step = Step.error(Errors.CONCURRENT_TRANSACTIONS);
                    case ONGOING -> {
                        step = new Step(Errors.NONE, md.image.fenced(now));
                        fence = true;
                    }
                    default -> step = initStep(img, expected, producerEpoch, transactionTimeoutMs, now);
                }
            }
            if (step.target != null) {
                md.pending = step.target.state();
            }
        }
        if (step.target == null) {
            return CompletableFuture.completedFuture(initError(step.error));
        }
        if (fence) {
            LOG.atInfo().addKeyValue("transactionalId", transactionalId)
                    .log("Fencing producer id {} epoch {} of transactional id {}: a new instance initialises; its "
                            + "open transaction is aborted", md.image.producerId(), md.image.producerEpoch(),
                            transactionalId);
            return fenceAndAbort(md, step.target).thenApply(code -> initError(code == Errors.NONE
                    ? Errors.CONCURRENT_TRANSACTIONS : code));
        }
        TransactionImage target = step.target;
        return write(md, target).thenApply(code -> {
            if (code != Errors.NONE) {
                return initError(code);
            }
            LOG.atInfo().addKeyValue("transactionalId", transactionalId)
                    .log("Initialized transactional id {} with producer id {} and epoch {} on {}-{}", transactionalId,
                            target.producerId(), target.producerEpoch(), TOPIC, md.partition);
            return new InitResult(Errors.NONE, target.producerId(), target.producerEpoch());
        });
    }

    private static InitResult initError(short error) {
        return new InitResult(error, -1, (short) -1);
    }

    private TransactionMetadata metadata(String transactionalId, int timeoutMs) {
        TransactionMetadata md = txns.get(transactionalId);
        if (md != null) {
            return md;
        }
        return txns.computeIfAbsent(transactionalId, id -> new TransactionMetadata(id, partitionFor(id),
                TransactionImage.fresh(ids.next(), timeoutMs, timer.nowMs()), false));
    }

    /**
     * Kafka's prepareProducerIdRotation and prepareIncrementProducerEpoch for an id with no open transaction: a new
     * producer id once the epoch is exhausted, else the next epoch (the same one for a retry of the last bump).
     */
    private Step initStep(TransactionImage img, boolean expected, short expectedEpoch, int timeoutMs, long now) {
        TransactionImage base = img.withTransaction(Set.of(), Map.of(), -1).withTimeout(timeoutMs)
                .withState(TransactionState.EMPTY, now);
        if (img.epochExhausted() && (!expected || expectedEpoch == img.producerEpoch())) {
            long next = ids.next();
            return new Step(Errors.NONE, base.withProducer(next, img.producerId(), -1, (short) 0,
                    expected ? img.producerEpoch() : (short) -1));
        }
        if (!expected || img.producerEpoch() < 0 || expectedEpoch == img.producerEpoch()) {
            if (img.epochExhausted()) {
                return Step.error(Errors.PRODUCER_FENCED);
            }
            short bumped = (short) (img.producerEpoch() + 1);
            return new Step(Errors.NONE, base.withProducer(img.producerId(), img.previousProducerId(), -1, bumped,
                    expected ? img.producerEpoch() : (short) -1));
        }
        if (expectedEpoch == img.lastProducerEpoch()) { // a retry of the bump the producer did not see answered
            return new Step(Errors.NONE, base);
        }
        return Step.error(Errors.PRODUCER_FENCED);
    }

    /** Writes a fencing PrepareAbort (pending set by the caller) and completes the abort. */
    CompletableFuture<Short> fenceAndAbort(TransactionMetadata md, TransactionImage target) {
        return write(md, target).thenApply(code -> {
            if (code == Errors.NONE) {
                completer.complete(md, target);
            }
            return code;
        });
    }

    // ---- AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit ----

    /**
     * AddPartitionsToTxn, and the broker's own verification of a transactional Produce (KIP-890).
     *
     * <p>Errors, the same for every partition unless stated: an unknown id or another producer id
     * INVALID_PRODUCER_ID_MAPPING; another epoch PRODUCER_FENCED (Kafka's handlers answer INVALID_PRODUCER_EPOCH
     * instead to AddPartitionsToTxn v0-1 and to every Produce); a change in flight or a transaction completing
     * CONCURRENT_TRANSACTIONS; verify-only: INVALID_TXN_STATE for each partition not in the ongoing transaction
     * (Kafka's coordinator says TRANSACTION_ABORTABLE, which its broker turns into INVALID_TXN_STATE for Produce
     * v0-10 and TxnOffsetCommit v0-3 and passes on to later versions: a handler maps INVALID_TXN_STATE back to
     * TRANSACTION_ABORTABLE for those).
     *
     * @param verifyOnly true: only checks that every partition is in the ongoing transaction (v4+ verify-only
     *                   form, Produce below v12); false: adds those missing, durably, opening the transaction if
     *                   none is open (client form v0-3, and Produce v12+ under transactions V2)
     * @return the error code of each partition
     */
    public CompletableFuture<Map<TopicPartitionRef, Short>> addPartitions(String transactionalId, long producerId,
                                                                         short producerEpoch,
                                                                         Collection<TopicPartitionRef> partitions,
                                                                         boolean verifyOnly) {
        Set<TopicPartitionRef> asked = new LinkedHashSet<>(partitions);
        TransactionMetadata md = txns.get(transactionalId == null ? "" : transactionalId);
        short error = preCheck(transactionalId, md, producerId, producerEpoch);
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(all(asked, error));
        }
        Step step;
        synchronized (md) {
            TransactionImage img = md.image;
            error = ownerCheck(img, producerId, producerEpoch);
            if (error != Errors.NONE) {
                step = Step.error(error);
            } else if (verifyOnly) {
                if (img.isPrepare()) {
                    return CompletableFuture.completedFuture(all(asked, Errors.CONCURRENT_TRANSACTIONS));
                }
                Map<TopicPartitionRef, Short> out = new LinkedHashMap<>();
                boolean ongoing = img.state() == TransactionState.ONGOING;
                asked.forEach(tp -> out.put(tp, ongoing && img.partitions().contains(tp) ? Errors.NONE
                        : Errors.INVALID_TXN_STATE));
                return CompletableFuture.completedFuture(out);
            } else if (md.pending != null || img.isPrepare() || img.state() == TransactionState.DEAD) {
                step = Step.error(Errors.CONCURRENT_TRANSACTIONS);
            } else if (img.state() == TransactionState.ONGOING && img.partitions().containsAll(asked)) {
                step = Step.error(Errors.NONE);
            } else {
                Set<TopicPartitionRef> all = new LinkedHashSet<>(img.partitions());
                all.addAll(asked);
                step = new Step(Errors.NONE, open(img, all, img.groups()));
                md.pending = TransactionState.ONGOING;
            }
        }
        if (step.target == null) {
            return CompletableFuture.completedFuture(all(asked, step.error));
        }
        return write(md, step.target).thenApply(code -> all(asked, code));
    }

    /**
     * Completes once the last transaction of {@code transactionalId} that was ended is complete (its markers written,
     * its Complete state durable), or at once if none is completing. A Produce v12+ whose implicit add was answered
     * CONCURRENT_TRANSACTIONS waits on it before it asks again, rather than polling. Never completes exceptionally
     * for the caller: a completion cut short by the coordinator's close completes it too.
     */
    public CompletableFuture<Void> completion(String transactionalId) {
        TransactionMetadata md = transactionalId == null ? null : txns.get(transactionalId);
        CompletableFuture<Void> c = md == null ? null : md.completion;
        return c == null ? CompletableFuture.completedFuture(null) : c.handle((ignored, failure) -> null);
    }

    /**
     * AddOffsetsToTxn: adds {@code groupId}'s offsets to the transaction, durably. Errors as addPartitions (Kafka
     * answers AddOffsetsToTxn v0-1 INVALID_PRODUCER_EPOCH for PRODUCER_FENCED), INVALID_GROUP_ID for a null group.
     */
    public CompletableFuture<Short> addOffsets(String transactionalId, long producerId, short producerEpoch,
                                               String groupId) {
        TransactionMetadata md = txns.get(transactionalId == null ? "" : transactionalId);
        short error = preCheck(transactionalId, md, producerId, producerEpoch);
        if (error == Errors.NONE && groupId == null) {
            error = Errors.INVALID_GROUP_ID;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(error);
        }
        TransactionImage target;
        synchronized (md) {
            TransactionImage img = md.image;
            error = ownerCheck(img, producerId, producerEpoch);
            if (error == Errors.NONE && (md.pending != null || img.isPrepare() || img.state() == TransactionState.DEAD)) {
                error = Errors.CONCURRENT_TRANSACTIONS;
            }
            if (error != Errors.NONE) {
                return CompletableFuture.completedFuture(error);
            }
            if (img.state() == TransactionState.ONGOING && img.groups().containsKey(groupId)) {
                return CompletableFuture.completedFuture(Errors.NONE);
            }
            Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> groups = new LinkedHashMap<>(img.groups());
            groups.putIfAbsent(groupId, Map.of());
            target = open(img, withOffsetsPartition(img.partitions(), groupId), groups);
            md.pending = TransactionState.ONGOING;
        }
        return write(md, target);
    }

    /**
     * TxnOffsetCommit: validates the group membership (KIP-447 fields; -1 / empty when absent) with the group
     * coordinator and the transaction, makes the offsets durable as pending, and stages them with the group
     * coordinator (OffsetFetch with require_stable answers UNSTABLE_OFFSET_COMMIT for them) until the transaction
     * ends: committed on COMMIT, dropped on ABORT.
     *
     * <p>Errors: those of addPartitions for the transaction (PRODUCER_FENCED for another epoch, which Kafka answers as
     * INVALID_PRODUCER_EPOCH), INVALID_TXN_STATE for a group not added (without implicit add) or no open
     * transaction (TRANSACTION_ABORTABLE from v4, as for Produce), then the group's (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID,
     * COORDINATOR_NOT_AVAILABLE), then per partition UNKNOWN_TOPIC_OR_PARTITION or OFFSET_METADATA_TOO_LARGE.
     *
     * @param implicitAdd true for v5+ (transactions V2): the group is added to the transaction if missing;
     *                    false: the group must have been added by AddOffsetsToTxn (else INVALID_TXN_STATE)
     * @return the error code of each partition, in request order
     */
    public CompletableFuture<Map<TopicPartitionRef, Short>> commitOffsets(String transactionalId, long producerId,
                                                                         short producerEpoch, String groupId,
                                                                         String memberId, int generationId,
                                                                         String groupInstanceId,
                                                                         List<OffsetManager.Commit> offsets,
                                                                         boolean implicitAdd) {
        Set<TopicPartitionRef> asked = new LinkedHashSet<>();
        offsets.forEach(c -> asked.add(c.partition()));
        TransactionMetadata md = txns.get(transactionalId == null ? "" : transactionalId);
        short error = preCheck(transactionalId, md, producerId, producerEpoch);
        if (error == Errors.NONE && groupId == null) {
            error = Errors.INVALID_GROUP_ID;
        }
        if (error == Errors.NONE && this.offsets == null) {
            error = Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(all(asked, error));
        }
        synchronized (md) {
            error = txnOffsetCheck(md, producerId, producerEpoch, groupId, implicitAdd);
        }
        if (error == Errors.NONE) {
            error = this.offsets.validateTransactionalCommit(groupId, memberId, groupInstanceId, generationId);
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(all(asked, error));
        }
        Map<TopicPartitionRef, Short> result = new LinkedHashMap<>();
        Map<TopicPartitionRef, OffsetManager.Commit> valid = new LinkedHashMap<>();
        for (OffsetManager.Commit c : offsets) {
            short e = this.offsets.validateCommitPartition(c);
            result.put(c.partition(), e);
            if (e == Errors.NONE) {
                valid.put(c.partition(), c);
            }
        }
        if (valid.isEmpty()) {
            return CompletableFuture.completedFuture(result);
        }
        TransactionImage target;
        synchronized (md) {
            error = txnOffsetCheck(md, producerId, producerEpoch, groupId, implicitAdd);
            if (error != Errors.NONE) {
                return CompletableFuture.completedFuture(all(asked, error));
            }
            TransactionImage img = md.image;
            Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> groups = new LinkedHashMap<>(img.groups());
            Map<TopicPartitionRef, OffsetManager.Commit> pending = new LinkedHashMap<>(groups.getOrDefault(groupId, Map.of()));
            pending.putAll(valid);
            groups.put(groupId, pending);
            target = open(img, withOffsetsPartition(img.partitions(), groupId), groups);
            md.pending = TransactionState.ONGOING;
        }
        long pid = target.producerId();
        return write(md, target, () -> this.offsets.stageTransactional(groupId, pid, valid)).thenApply(code -> {
            if (code != Errors.NONE) {
                valid.keySet().forEach(tp -> result.put(tp, code));
            }
            return result;
        });
    }

    /**
     * {@code partitions} and the group's {@code __consumer_offsets} partition, as Kafka's AddOffsetsToTxn adds it: the
     * transaction's markers then reach the group coordinator, wherever the group lives, which commits or drops the
     * offsets it holds for the transaction there.
     */
    private Set<TopicPartitionRef> withOffsetsPartition(Set<TopicPartitionRef> partitions, String groupId) {
        if (offsets == null) {
            return partitions;
        }
        TopicPartitionRef tp = new TopicPartitionRef(CONSUMER_OFFSETS, offsets.partitionFor(groupId));
        if (partitions.contains(tp)) {
            return partitions;
        }
        Set<TopicPartitionRef> out = new LinkedHashSet<>(partitions);
        out.add(tp);
        return out;
    }

    /** The transaction's checks of a TxnOffsetCommit. Under md. */
    private static short txnOffsetCheck(TransactionMetadata md, long producerId, short producerEpoch, String groupId,
                                        boolean implicitAdd) {
        TransactionImage img = md.image;
        short error = ownerCheck(img, producerId, producerEpoch);
        if (error != Errors.NONE) {
            return error;
        }
        if (md.pending != null || img.isPrepare()) {
            return Errors.CONCURRENT_TRANSACTIONS;
        }
        boolean added = img.state() == TransactionState.ONGOING && img.groups().containsKey(groupId);
        return added || implicitAdd ? Errors.NONE : Errors.INVALID_TXN_STATE;
    }

    /** The image with the transaction open (Ongoing) over {@code partitions} and {@code groups}. */
    private TransactionImage open(TransactionImage img, Set<TopicPartitionRef> partitions,
                                  Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> groups) {
        long now = timer.nowMs();
        long start = img.state() == TransactionState.ONGOING ? img.startTimeMs() : now;
        return img.withTransaction(partitions, groups, start).withState(TransactionState.ONGOING, now);
    }

    /** The checks before the id's monitor: the id, the coordinator's state, the id known. */
    private short preCheck(String transactionalId, TransactionMetadata md, long producerId, short producerEpoch) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return Errors.INVALID_REQUEST;
        }
        short error = coordinatorError(transactionalId);
        if (error != Errors.NONE) {
            return error;
        }
        return md == null ? Errors.INVALID_PRODUCER_ID_MAPPING : Errors.NONE;
    }

    /** Kafka's producer id then epoch checks. */
    private static short ownerCheck(TransactionImage img, long producerId, short producerEpoch) {
        if (img.producerId() != producerId) {
            return Errors.INVALID_PRODUCER_ID_MAPPING;
        }
        return img.producerEpoch() != producerEpoch ? Errors.PRODUCER_FENCED : Errors.NONE;
    }

    private static Map<TopicPartitionRef, Short> all(Collection<TopicPartitionRef> partitions, short error) {
        Map<TopicPartitionRef, Short> out = new LinkedHashMap<>();
        partitions.forEach(tp -> out.put(tp, error));
        return out;
    }

    // ---- EndTxn ----

    /**
     * EndTxn: moves to PrepareCommit or PrepareAbort durably and answers; the markers and the Complete state
     * follow (a new transaction meanwhile gets CONCURRENT_TRANSACTIONS).
     *
     * <p>Errors: an unknown id or another producer id INVALID_PRODUCER_ID_MAPPING; an epoch that is neither the
     * current one nor (transactions V2) the retry of the last end PRODUCER_FENCED (Kafka answers EndTxn v0-1
     * INVALID_PRODUCER_EPOCH instead); the same end still completing CONCURRENT_TRANSACTIONS; the
     * other end, or an end with no transaction, INVALID_TXN_STATE; a retry of an end already complete NONE.
     * Under transactions V2 an abort with no transaction open bumps the epoch (Kafka 4: the producer fences its
     * own earlier epoch).
     *
     * @param transactionV2 EndTxn v5+: the epoch is bumped on every end (a new producer id when exhausted) and
     *                      the answer carries the id and epoch to use next
     */
    public CompletableFuture<EndResult> endTransaction(String transactionalId, long producerId, short producerEpoch,
                                                       boolean commit, boolean transactionV2) {
        TransactionMetadata md = txns.get(transactionalId == null ? "" : transactionalId);
        short error = preCheck(transactionalId, md, producerId, producerEpoch);
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(endError(error));
        }
        TransactionImage target;
        synchronized (md) {
            TransactionImage img = md.image;
            boolean v2 = img.transactionV2();
            boolean retryOnOverflow = v2 && img.previousProducerId() == producerId
                    && producerEpoch == Short.MAX_VALUE - 1 && img.producerEpoch() == 0;
            boolean retryOnBump = v2 && img.producerEpoch() == producerEpoch + 1;
            boolean retry = retryOnOverflow || retryOnBump;
            // As Kafka 4.x: a change in flight answers CONCURRENT_TRANSACTIONS before the epoch is looked at, and
            // under V2 a Prepare state takes the epoch it was bumped to as well as the retry of the bumping end.
            if (md.pending != null && md.pending != TransactionState.PREPARE_EPOCH_FENCE) {
                return CompletableFuture.completedFuture(endError(Errors.CONCURRENT_TRANSACTIONS));
            }
            boolean validEpoch = switch (img.state()) {
                case PREPARE_COMMIT, PREPARE_ABORT -> v2 ? retryOnBump || producerEpoch == img.producerEpoch()
                        : producerEpoch == img.producerEpoch();
                case COMPLETE_COMMIT, COMPLETE_ABORT -> v2 ? retry || producerEpoch == img.producerEpoch()
                        : producerEpoch == img.producerEpoch();
                default -> producerEpoch == img.producerEpoch();
            };
            if (img.producerId() != producerId && !retryOnOverflow) {
                return CompletableFuture.completedFuture(endError(Errors.INVALID_PRODUCER_ID_MAPPING));
            }
            if (!validEpoch) {
                return CompletableFuture.completedFuture(endError(Errors.PRODUCER_FENCED));
            }
            if (md.pending != null) {
                return CompletableFuture.completedFuture(endError(Errors.CONCURRENT_TRANSACTIONS));
            }
            boolean emptyAbort = false;
            switch (img.state()) {
                case ONGOING -> {
                }
                case COMPLETE_COMMIT, COMPLETE_ABORT -> {
                    boolean same = commit == (img.state() == TransactionState.COMPLETE_COMMIT);
                    if (retry || !transactionV2) { // the end already done answers NONE again, the other one fails
                        return CompletableFuture.completedFuture(same
                                ? new EndResult(Errors.NONE, img.producerId(), img.producerEpoch())
                                : invalidState(md, commit));
                    }
                    if (commit) { // V2 at the current epoch: no transaction was started since
                        return CompletableFuture.completedFuture(invalidState(md, commit));
                    }
                    emptyAbort = true;
                }
                case PREPARE_COMMIT, PREPARE_ABORT -> {
                    boolean same = commit == (img.state() == TransactionState.PREPARE_COMMIT);
                    return CompletableFuture.completedFuture(same ? endError(Errors.CONCURRENT_TRANSACTIONS)
                            : invalidState(md, commit));
                }
                case EMPTY -> {
                    if (commit || !transactionV2) {
                        return CompletableFuture.completedFuture(invalidState(md, commit));
                    }
                    emptyAbort = true;
                }
                default -> {
                    return CompletableFuture.completedFuture(endError(Errors.CONCURRENT_TRANSACTIONS));
                }
            }
            long next = -1;
            if (transactionV2 && img.epochExhausted()) {
                try {
                    next = ids.next();
                } catch (RuntimeException e) {
                    LOG.atError().setCause(e).log("Could not allocate a producer id for transactional id {}",
                            transactionalId);
                    return CompletableFuture.completedFuture(endError(Errors.COORDINATOR_NOT_AVAILABLE));
                }
            }
            short epoch = transactionV2 ? (short) (img.producerEpoch() + 1) : img.producerEpoch();
            short last = transactionV2 ? img.producerEpoch() : img.lastProducerEpoch();
            TransactionImage base = emptyAbort ? img.withTransaction(Set.of(), Map.of(), img.startTimeMs()) : img;
            target = base.withProducer(img.producerId(), img.previousProducerId(), next, epoch, last)
                    .withTransactionV2(transactionV2)
                    .withState(commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT,
                            timer.nowMs());
            md.pending = target.state();
        }
        TransactionImage prepared = target;
        return write(md, prepared).thenApply(code -> {
            if (code != Errors.NONE) {
                return endError(code);
            }
            completer.complete(md, prepared);
            TransactionImage after = TransactionCompleter.completed(prepared, prepared.lastUpdateMs());
            return new EndResult(Errors.NONE, after.producerId(), after.producerEpoch());
        });
    }

    private static EndResult endError(short error) {
        return new EndResult(error, -1, (short) -1);
    }

    private static EndResult invalidState(TransactionMetadata md, boolean commit) {
        LOG.atDebug().addKeyValue("transactionalId", md.transactionalId)
                .log("EndTxn {} of transactional id {} in state {}: INVALID_TXN_STATE", commit ? "COMMIT" : "ABORT",
                        md.transactionalId, md.image.state().kafkaName());
        return endError(Errors.INVALID_TXN_STATE);
    }

    // ---- Describe, List ----

    /** DescribeTransactions of one id; empty if unknown (TRANSACTIONAL_ID_NOT_FOUND). */
    public Optional<Description> describe(String transactionalId) {
        TransactionMetadata md = transactionalId == null ? null : txns.get(transactionalId);
        if (md == null) {
            return Optional.empty();
        }
        synchronized (md) {
            TransactionImage img = md.image;
            if (img.state() == TransactionState.DEAD || !md.durable) {
                return Optional.empty();
            }
            return Optional.of(new Description(md.transactionalId, img.state(), img.producerId(), img.producerEpoch(),
                    img.timeoutMs(), img.startTimeMs(), img.partitions()));
        }
    }

    /**
     * ListTransactions: every id matching all given filters (empty sets match all; {@code durationFilterMs} &lt; 0
     * matches all, else only transactions open longer than that, KIP-994).
     */
    public List<Listing> list(Set<TransactionState> states, Set<Long> producerIds, long durationFilterMs) {
        long now = timer.nowMs();
        List<Listing> out = new ArrayList<>();
        for (TransactionMetadata md : txns.values()) {
            synchronized (md) {
                TransactionImage img = md.image;
                if (img.state() == TransactionState.DEAD || !md.durable
                        || (!states.isEmpty() && !states.contains(img.state()))
                        || (!producerIds.isEmpty() && !producerIds.contains(img.producerId()))
                        || (durationFilterMs >= 0 && now - img.startTimeMs() <= durationFilterMs)) {
                    continue;
                }
                out.add(new Listing(md.transactionalId, img.producerId(), img.state()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        closed = true;
        active = false;
        timeouts.close();
    }
}
