package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.InvalidRecordException;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.config.BrokerConfig.ImplicitAddRetry;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.CloseConnection;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.broker.handler.txn.TxnErrors;
import io.kaas.broker.transaction.ProducerOrder;
import io.kaas.broker.transaction.VerificationGuards;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.ProduceRequestData.PartitionProduceData;
import io.kaas.wire.message.ProduceRequestData.TopicProduceData;
import io.kaas.wire.message.ProduceResponseData;
import io.kaas.wire.message.ProduceResponseData.BatchIndexAndErrorMessage;
import io.kaas.wire.message.ProduceResponseData.PartitionProduceResponse;
import io.kaas.wire.message.ProduceResponseData.TopicProduceResponse;
import io.kaas.wire.protocol.BufferRecords;
import io.kaas.wire.protocol.Errors;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Produce v3-13 (advertised from v0, see {@link HandlerRegistry}): validates each partition's batch as
 * Kafka does, appends it, and answers once every append completed (after fsync for {@code acks=-1}).
 * {@code acks=0} gets no response; if a partition failed, the connection is closed instead, as Kafka does.
 *
 * <p>Transactions, as Kafka 4.x: a request carrying a transactional batch (a marker counts: it is one) needs a
 * transactional id the principal may WRITE, else every partition is TRANSACTIONAL_ID_AUTHORIZATION_FAILED; and
 * one producer id and epoch, else every partition is INVALID_PRODUCER_ID_MAPPING. Its transactional partitions
 * are verified with the transaction coordinator in one call before anything is appended (KIP-890 part 1): below
 * v12 they must already be in the ongoing transaction, from v12 (transactions V2) the coordinator adds them. A
 * partition that is not in the transaction is refused and nothing is stored (as Kafka: TRANSACTION_ABORTABLE
 * from v11, whose clients abort on it; INVALID_TXN_STATE below), so no hanging transaction
 * can hold the last stable offset; nor is a batch whose transaction's marker reached the partition while it was
 * being verified ({@link VerificationGuards}); a coordinator that cannot answer now is NOT_ENOUGH_REPLICAS
 * (retriable, as Kafka maps it); a fenced producer INVALID_PRODUCER_EPOCH. A control batch (a COMMIT/ABORT marker) is never
 * accepted from a client (INVALID_RECORD, before any verification); markers are written by the coordinator
 * through WriteTxnMarkers. Internal topics ({@code __transaction_state}) are not writable by clients:
 * INVALID_TOPIC_EXCEPTION.
 *
 * <p>A batch the engine refuses for some of its records (KIP-467: a compacted topic's keyless records) is
 * INVALID_RECORD with Kafka's partition-level message, the log start offset, and from v8 {@code record_errors}:
 * the index and message of each refused record.
 */
public final class ProduceHandler implements ApiHandler<ProduceRequestData, ProduceResponseData> {
    /** The first version whose transactional partitions the coordinator adds itself (transactions V2). */
    static final short IMPLICIT_ADD_VERSION = 12;
    /** The first version whose clients handle TRANSACTION_ABORTABLE (KIP-890). */
    static final short ABORTABLE_VERSION = 11;
    private static final long NO_GUARD = -1;

    private final TopicManager topics;
    private final TransactionVerifier transactions;
    private final VerificationGuards guards;
    private final ImplicitAddRetry retry;
    private final ProducerOrder order = new ProducerOrder();

    /**
     * @param guards what keeps a verified batch from landing after its transaction's marker
     * @param retry  how an implicit add (v12+) that met CONCURRENT_TRANSACTIONS is retried before the producer is
     *               told NOT_ENOUGH_REPLICAS: Kafka 4.x retries it in the broker, so a transactions V2 producer that
     *               starts its next transaction while the markers of the last one are being written is not held up
     *               by its own retry backoff
     */
    public ProduceHandler(TopicManager topics, TransactionVerifier transactions, VerificationGuards guards,
                          ImplicitAddRetry retry) {
        this.topics = topics;
        this.transactions = transactions;
        this.guards = guards;
        this.retry = retry;
    }

    /** A partition whose batch passed the checks, waiting for its transaction's verification and its append. */
    private record Accepted(Topic topic, int partition, ProducedBatches batch, CompletableFuture<PartitionProduceResponse> result) {
        boolean transactional() {
            return batch.headers().get(0).isTransactional();
        }

        TopicPartitionRef ref() {
            return new TopicPartitionRef(topic.name(), partition);
        }
    }

    @Override
    public CompletableFuture<ProduceResponseData> handle(RequestContext context, ProduceRequestData request) {
        short acks = request.acks();
        boolean validAcks = acks == 0 || acks == 1 || acks == -1;
        short version = context.apiVersion();
        String transactionalId = request.transactionalId();
        // As Kafka: transactional records need WRITE on the request's transactional id, else every partition fails.
        short wholeRequest = Errors.NONE;
        if (hasTransactionalRecords(request) && (transactionalId == null
                || !context.access().allowed(Operation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId))) {
            wholeRequest = Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        }
        List<TopicProduceResponse> topicResponses = new ArrayList<>();
        List<List<CompletableFuture<PartitionProduceResponse>>> perTopic = new ArrayList<>();
        List<CompletableFuture<PartitionProduceResponse>> all = new ArrayList<>();
        List<Accepted> accepted = new ArrayList<>();
        for (TopicProduceData td : request.topicData()) {
            Optional<Topic> topic = version >= 13 ? topics.topic(td.topicId()) : topics.topic(td.name());
            String name = version >= 13 ? topic.map(Topic::name).orElse(null) : td.name();
            boolean denied = name != null && !context.access().allowedOnTopic(Operation.WRITE, name);
            topicResponses.add(new TopicProduceResponse().setName(td.name()).setTopicId(td.topicId()));
            List<CompletableFuture<PartitionProduceResponse>> futures = new ArrayList<>();
            for (PartitionProduceData pd : td.partitionData()) {
                CompletableFuture<PartitionProduceResponse> f;
                if (!validAcks) {
                    f = CompletableFuture.completedFuture(error(pd.index(), Errors.INVALID_REQUIRED_ACKS, null));
                } else if (wholeRequest != Errors.NONE) {
                    f = CompletableFuture.completedFuture(error(pd.index(), wholeRequest, null));
                } else if (denied) {
                    f = CompletableFuture.completedFuture(error(pd.index(), Errors.TOPIC_AUTHORIZATION_FAILED, null));
                } else if (topic.isEmpty()) {
                    short code = version >= 13 ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    f = CompletableFuture.completedFuture(error(pd.index(), code, null));
                } else {
                    f = check(topic.get(), pd, version, accepted);
                }
                futures.add(f);
                all.add(f);
            }
            perTopic.add(futures);
        }
        verifyThenAppend(accepted, transactionalId, acks == -1, version);
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(v -> {
            if (acks == 0) {
                if (all.stream().anyMatch(p -> p.join().errorCode() != Errors.NONE)) {
                    throw new CloseConnection("a Produce with acks=0 failed (it has no response to carry the error)");
                }
                return null;
            }
            for (int i = 0; i < topicResponses.size(); i++) {
                List<PartitionProduceResponse> partitions = new ArrayList<>();
                perTopic.get(i).forEach(f -> partitions.add(f.join()));
                topicResponses.get(i).setPartitionResponses(partitions);
            }
            return new ProduceResponseData().setResponses(topicResponses).setThrottleTimeMs(0);
        });
    }

    /** The batch checks of one partition: an error now, or a pending result once it is verified and appended. */
    private CompletableFuture<PartitionProduceResponse> check(Topic topic, PartitionProduceData pd, short version,
                                                             List<Accepted> accepted) {
        int partition = pd.index();
        if (topic.log(partition) == null) {
            // As Kafka: no message (its partition responses carry one only for record validation errors).
            PartitionProduceResponse absent = error(partition, topics.absence(topic.name(), partition), null);
            count(topic.name(), null, absent.errorCode());
            return CompletableFuture.completedFuture(absent);
        }
        ProducedBatches batch;
        try {
            batch = checkBatch(pd.records() instanceof BufferRecords r ? r.buffer() : null,
                    topic.logConfig().maxMessageBytes(), version);
        } catch (RejectedBatch e) {
            if (e.byLog) {
                count(topic.name(), null, e.code);
            }
            return CompletableFuture.completedFuture(error(partition, e.code, e.getMessage()));
        }
        Accepted a = new Accepted(topic, partition, batch, new CompletableFuture<>());
        accepted.add(a);
        return a.result();
    }

    /**
     * Verifies the request's transactional partitions with the coordinator, in one call, then appends every
     * accepted partition that passed. Completes each {@link Accepted#result()}.
     */
    private void verifyThenAppend(List<Accepted> accepted, String transactionalId, boolean durable, short version) {
        List<Accepted> transactional = accepted.stream().filter(Accepted::transactional).toList();
        if (transactional.isEmpty()) {
            accepted.forEach(a -> append(a, durable, NO_GUARD));
            return;
        }
        Set<Long> producerIds = new HashSet<>();
        Set<Short> epochs = new HashSet<>();
        for (Accepted a : transactional) {
            producerIds.add(a.batch().headers().get(0).producerId());
            epochs.add(a.batch().headers().get(0).producerEpoch());
        }
        if (producerIds.size() > 1 || epochs.size() > 1) {
            // Kafka throws InvalidPidMappingException for the whole request.
            accepted.forEach(a -> a.result().complete(error(a.partition(), Errors.INVALID_PRODUCER_ID_MAPPING,
                    "Transactional records contained more than one producer ID")));
            return;
        }
        long producerId = producerIds.iterator().next();
        short epoch = epochs.iterator().next();
        // A later request of this producer waits for this one's verification: appends stay in request order.
        order.run(producerId, () -> {
            boolean verifyOnly = version < IMPLICIT_ADD_VERSION;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(verifyOnly ? 0 : retry.maxMs());
            return verify(transactionalId, producerId, epoch, transactional.stream().map(Accepted::ref).toList(),
                    verifyOnly, deadline).whenComplete((verified, failure) -> {
                        for (Accepted a : accepted) {
                            short code = !a.transactional() ? Errors.NONE
                                    : failure != null ? Errors.COORDINATOR_NOT_AVAILABLE
                                    : verified.errors().getOrDefault(a.ref(), Errors.UNKNOWN_SERVER_ERROR);
                            if (version < IMPLICIT_ADD_VERSION) {
                                code = TxnErrors.verified(code);
                            }
                            if (code == Errors.NONE) {
                                append(a, durable, a.transactional() ? verified.guard() : NO_GUARD);
                            } else {
                                a.result().complete(verificationError(a.partition(), code, version));
                            }
                        }
                    });
        });
    }

    /** The coordinator's answer to one verification, and the guard taken just before it was asked. */
    private record Verified(Map<TopicPartitionRef, Short> errors, long guard) {
    }

    /**
     * One verification call, repeated every {@code retry.backoffMs} while the coordinator answers
     * CONCURRENT_TRANSACTIONS and {@code deadline} (System.nanoTime) is not reached; the last answer then stands.
     * Each attempt takes a fresh verification guard: the markers of the transaction before, which are what a retry
     * waits for, must not void the attempt that comes after them.
     */
    private CompletableFuture<Verified> verify(String transactionalId, long producerId, short epoch,
                                               List<TopicPartitionRef> partitions, boolean verifyOnly, long deadline) {
        long guard = guards.begin();
        CompletableFuture<Map<TopicPartitionRef, Short>> answer;
        try {
            answer = transactions.addPartitions(transactionalId, producerId, epoch, partitions, verifyOnly);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return answer.thenCompose(errors -> {
            long backoffNanos = TimeUnit.MILLISECONDS.toNanos(retry.backoffMs());
            if (!errors.containsValue(Errors.CONCURRENT_TRANSACTIONS) || System.nanoTime() + backoffNanos > deadline) {
                return CompletableFuture.completedFuture(new Verified(errors, guard));
            }
            // The previous transaction is completing: ask again once it is complete (or after the backoff if nothing
            // is known to be completing), never past the deadline. The new attempt takes its own guard.
            CompletableFuture<Void> completing = transactions.completion(transactionalId);
            CompletableFuture<Void> wait = completing.isDone()
                    ? CompletableFuture.runAsync(() -> { },
                            CompletableFuture.delayedExecutor(retry.backoffMs(), TimeUnit.MILLISECONDS))
                    : completing.completeOnTimeout(null, Math.max(1, TimeUnit.NANOSECONDS.toMillis(
                            deadline - System.nanoTime())), TimeUnit.MILLISECONDS);
            return wait.thenCompose(ignored -> verify(transactionalId, producerId, epoch, partitions, verifyOnly, deadline));
        });
    }

    /** Kafka's translation of a coordinator's verification error into a Produce error (ReplicaManager). */
    private static PartitionProduceResponse verificationError(int partition, short code, short version) {
        return switch (code) {
            case Errors.PRODUCER_FENCED -> error(partition, Errors.INVALID_PRODUCER_EPOCH, null);
            case Errors.INVALID_TXN_STATE -> error(partition, code, "Partition was not added to the transaction");
            case Errors.TRANSACTION_ABORTABLE -> version >= ABORTABLE_VERSION ? error(partition, code, null)
                    : error(partition, Errors.INVALID_TXN_STATE, "Partition was not added to the transaction");
            case Errors.CONCURRENT_TRANSACTIONS, Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.COORDINATOR_NOT_AVAILABLE,
                    Errors.NOT_COORDINATOR -> error(partition, Errors.NOT_ENOUGH_REPLICAS,
                    "Unable to verify the partition has been added to the transaction. Underlying error: " + code);
            default -> error(partition, code, null);
        };
    }

    /** Appends an accepted batch; a verified transactional one only under its verification guard. */
    private void append(Accepted a, boolean durable, long guard) {
        int partition = a.partition();
        Topic topic = a.topic();
        if (TopicNames.isInternal(topic.name())) {
            count(topic.name(), null, Errors.INVALID_TOPIC_EXCEPTION);
            a.result().complete(error(partition, Errors.INVALID_TOPIC_EXCEPTION,
                    "Cannot append to internal topic " + topic.name()));
            return;
        }
        PartitionLog log = topic.log(partition);
        CompletableFuture<AppendResult> appended;
        try {
            if (guard == NO_GUARD) {
                appended = log.append(a.batch(), durable);
            } else {
                List<CompletableFuture<AppendResult>> holder = new ArrayList<>(1);
                if (!guards.appendIfNoMarkerSince(log.key(), a.batch().headers().get(0).producerId(), guard,
                        () -> holder.add(log.append(a.batch(), durable)))) {
                    // As Kafka's verification guard: the transaction ended while the batch was being verified.
                    count(topic.name(), null, Errors.INVALID_TXN_STATE);
                    a.result().complete(error(partition, Errors.INVALID_TXN_STATE,
                            "Record was not part of an ongoing transaction"));
                    return;
                }
                appended = holder.get(0);
            }
        } catch (RuntimeException e) {
            PartitionProduceResponse answer = failed(partition, log, e);
            count(topic.name(), null, answer.errorCode());
            a.result().complete(answer);
            return;
        }
        // The batches are readable once append returns (before an acks=all fsync): wake the fetches waiting now, once.
        topics.appended(log.key());
        // Acknowledged only if this broker still owns the partition at the epoch it opened it with and its lease
        // holds, checked after the append is durable: otherwise a successor may not have the batch.
        appended.whenComplete((r, e) -> {
            PartitionProduceResponse answer = e != null
                ? failed(partition, log, e)
                : !topics.mayAcknowledge(topic, partition)
                ? error(partition, Errors.NOT_LEADER_OR_FOLLOWER, null)
                : new PartitionProduceResponse().setIndex(partition).setErrorCode(Errors.NONE)
                        .setBaseOffset(r.baseOffset()).setLogAppendTimeMs(r.logAppendTime())
                        .setLogStartOffset(r.logStartOffset()).setErrorMessage(null);
            count(topic.name(), a.batch(), answer.errorCode());
            a.result().complete(answer);
        });
    }

    /**
     * MessagesIn and BytesIn (from the batch headers: no per-record work), or the partition's failure, per partition,
     * as Kafka's ReplicaManager counts a partition that reached its append: TotalProduceRequests always, and
     * FailedProduceRequests unless the error is one it leaves out (not leader, unknown partition, too large, corrupt,
     * storage error, an internal topic). Refusals before that (authorization, unknown topic, acks, the request
     * version's record checks, transaction verification) are counted nowhere, as in Kafka.
     */
    private void count(String topic, ProducedBatches batch, short errorCode) {
        if (errorCode != Errors.NONE) {
            switch (errorCode) {
                case Errors.NOT_LEADER_OR_FOLLOWER, Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.MESSAGE_TOO_LARGE,
                        RECORD_LIST_TOO_LARGE, Errors.CORRUPT_MESSAGE, Errors.KAFKA_STORAGE_ERROR,
                        Errors.INVALID_TOPIC_EXCEPTION -> topics.stats().produceRefused(topic);
                default -> topics.stats().produceFailed(topic);
            }
            return;
        }
        long records = 0;
        for (var h : batch.headers()) {
            records += h.recordCount();
        }
        topics.stats().produced(topic, records, batch.sizeInBytes());
    }

    /**
     * Kafka's {@code RequestUtils.hasTransactionalRecords}: whether a partition's first batch is a v2 batch with the
     * transactional flag, a marker included (read from the header only; the full checks come later).
     */
    static boolean hasTransactionalRecords(ProduceRequestData request) {
        for (TopicProduceData td : request.topicData()) {
            for (PartitionProduceData pd : td.partitionData()) {
                ByteBuf records = pd.records() instanceof BufferRecords r ? r.buffer() : null;
                if (records == null || records.readableBytes() < RecordBatches.HEADER_SIZE) {
                    continue;
                }
                int at = records.readerIndex();
                if (records.getByte(at + RecordBatches.MAGIC) == RecordBatches.MAGIC_V2
                        && (records.getShort(at + RecordBatches.ATTRIBUTES) & RecordBatches.TRANSACTIONAL_FLAG) != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Kafka's checks, in Kafka's order: exactly one magic-2 batch (INVALID_RECORD), its size within
     * max.message.bytes (MESSAGE_TOO_LARGE), a valid CRC (CORRUPT_MESSAGE), not a control batch
     * (INVALID_RECORD, whatever its key holds). The header is parsed here, once: the engine receives it with the
     * bytes.
     */
    static ProducedBatches checkBatch(ByteBuf records, int maxMessageBytes, short version) throws RejectedBatch {
        if (records == null || records.readableBytes() == 0) {
            throw new RejectedBatch(Errors.INVALID_RECORD, "Produce requests with version " + version
                    + " must have at least one record batch per partition", false);
        }
        ByteBuffer buf = records.nioBuffer();
        int start = buf.position();
        // As Kafka's ProduceRequest.validateRecords: the magic first (an older message set's is at the same place,
        // and its entries are shorter than a v2 header).
        if (buf.remaining() > RecordBatches.MAGIC && buf.get(start + RecordBatches.MAGIC) != RecordBatches.MAGIC_V2) {
            throw new RejectedBatch(Errors.INVALID_RECORD, "Produce requests with version " + version
                    + " are only allowed to contain record batches with magic version 2", false);
        }
        int size = RecordBatches.announcedSize(buf, start);
        if (size < RecordBatches.HEADER_SIZE || size > buf.remaining()) {
            throw new RejectedBatch(Errors.CORRUPT_MESSAGE, "Record batch size " + size
                    + " does not fit the " + buf.remaining() + " bytes received");
        }
        if (buf.get(start + RecordBatches.MAGIC) != RecordBatches.MAGIC_V2) {
            throw new RejectedBatch(Errors.INVALID_RECORD, "Produce requests with version " + version
                    + " are only allowed to contain record batches with magic version 2", false);
        }
        if (size < buf.remaining()) {
            throw new RejectedBatch(Errors.INVALID_RECORD, "Produce requests with version " + version
                    + " are only allowed to contain exactly one record batch per partition", false);
        }
        if (size > maxMessageBytes) {
            throw new RejectedBatch(Errors.MESSAGE_TOO_LARGE, "The request included a message larger than "
                    + "the max message size the server will accept: " + size + " > " + maxMessageBytes);
        }
        short attributes = buf.getShort(start + RecordBatches.ATTRIBUTES);
        if ((attributes & RecordBatches.CONTROL_FLAG) != 0) {
            long stored = Integer.toUnsignedLong(buf.getInt(start + RecordBatches.CRC));
            if (stored != RecordBatches.crc(buf, start, size)) {
                throw new RejectedBatch(Errors.CORRUPT_MESSAGE, "Record batch CRC32C mismatch");
            }
            throw new RejectedBatch(Errors.INVALID_RECORD, "Clients are not allowed to write control records");
        }
        try {
            return ProducedBatches.validate(buf);
        } catch (CorruptBatchException e) {
            throw new RejectedBatch(Errors.CORRUPT_MESSAGE, e.getMessage());
        }
    }

    /**
     * The answer for an append the engine refused. A batch refused for some of its records (KIP-467) carries each
     * one's index and message as {@code record_errors} and, as Kafka's ReplicaManager, the log start offset.
     */
    private static PartitionProduceResponse failed(int partition, PartitionLog log, Throwable e) {
        PartitionProduceResponse response = error(partition, StorageErrors.code(e), StorageErrors.message(e));
        List<InvalidRecordException.RecordError> recordErrors = StorageErrors.recordErrors(e);
        if (!recordErrors.isEmpty()) {
            response.setRecordErrors(recordErrors.stream().map(r -> new BatchIndexAndErrorMessage()
                    .setBatchIndex(r.batchIndex()).setBatchIndexErrorMessage(r.message())).toList());
            try {
                response.setLogStartOffset(log.offsets().logStartOffset());
            } catch (RuntimeException unreadable) {
                // the partition went offline meanwhile: -1, as for any other failure
            }
        }
        return response;
    }

    private static PartitionProduceResponse error(int partition, short code, String message) {
        return new PartitionProduceResponse().setIndex(partition).setErrorCode(code).setBaseOffset(-1)
                .setLogAppendTimeMs(-1).setLogStartOffset(-1).setErrorMessage(message);
    }

    /** Kafka's RECORD_LIST_TOO_LARGE (RecordBatchTooLargeException). */
    private static final short RECORD_LIST_TOO_LARGE = 18;

    /** A batch refused before it reaches the engine. */
    static final class RejectedBatch extends Exception {
        final short code;
        /** Whether Kafka's log refuses it (counted as a produce of the partition), not its request checks. */
        final boolean byLog;

        RejectedBatch(short code, String message) {
            this(code, message, true);
        }

        RejectedBatch(short code, String message, boolean byLog) {
            super(message, null, false, false);
            this.code = code;
            this.byLog = byLog;
        }
    }
}
