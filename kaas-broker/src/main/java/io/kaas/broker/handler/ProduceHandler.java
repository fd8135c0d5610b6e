package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.ProduceRequestData.PartitionProduceData;
import io.kaas.wire.message.ProduceRequestData.TopicProduceData;
import io.kaas.wire.message.ProduceResponseData;
import io.kaas.wire.message.ProduceResponseData.PartitionProduceResponse;
import io.kaas.wire.message.ProduceResponseData.TopicProduceResponse;
import io.kaas.wire.protocol.BufferRecords;
import io.kaas.wire.protocol.Errors;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Produce v3-13 (advertised from v0, see {@link HandlerRegistry}): validates each partition's batch as
 * Kafka does, appends it, and answers once every append completed (after fsync for {@code acks=-1}).
 * {@code acks=0} gets no response; if a partition failed, the connection is closed instead, as Kafka does.
 *
 * <p>Transactions: a control batch (a COMMIT/ABORT marker) is never accepted from a client, as in Kafka
 * (INVALID_RECORD); markers are written by the broker itself. Until the transaction coordinator exists, a
 * transactional batch is refused too, with Kafka's answer to a transactional produce the coordinator has not
 * verified (INVALID_TXN_STATE): an open transaction that no coordinator can ever end would hold the partition's
 * last stable offset, and so every read_committed consumer, forever. The transactions issue lifts this.
 */
public final class ProduceHandler implements ApiHandler<ProduceRequestData, ProduceResponseData> {
    private final TopicManager topics;

    public ProduceHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ProduceResponseData> handle(RequestContext context, ProduceRequestData request) {
        short acks = request.acks();
        boolean validAcks = acks == 0 || acks == 1 || acks == -1;
        short version = context.apiVersion();
        List<TopicProduceResponse> topicResponses = new ArrayList<>();
        List<List<CompletableFuture<PartitionProduceResponse>>> perTopic = new ArrayList<>();
        List<CompletableFuture<PartitionProduceResponse>> all = new ArrayList<>();
        // As Kafka: a transactional produce needs WRITE on its transactional id, else every partition fails.
        boolean transactionalIdDenied = request.transactionalId() != null
                && !context.access().allowed(Operation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId());
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
                } else if (transactionalIdDenied) {
                    f = CompletableFuture.completedFuture(
                            error(pd.index(), Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, null));
                } else if (denied) {
                    f = CompletableFuture.completedFuture(error(pd.index(), Errors.TOPIC_AUTHORIZATION_FAILED, null));
                } else if (topic.isEmpty()) {
                    short code = version >= 13 ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    f = CompletableFuture.completedFuture(error(pd.index(), code, null));
                } else {
                    f = append(topic.get(), pd, acks == -1, version);
                }
                futures.add(f);
                all.add(f);
            }
            perTopic.add(futures);
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(v -> {
            if (acks == 0) {
                if (all.stream().anyMatch(p -> p.join().errorCode() != Errors.NONE)) {
                    throw new IllegalStateException("acks=0 produce failed: closing the connection as Kafka does");
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

    private CompletableFuture<PartitionProduceResponse> append(Topic topic, PartitionProduceData pd, boolean durable,
                                                               short version) {
        int partition = pd.index();
        PartitionLog log = topic.log(partition);
        if (log == null) {
            return CompletableFuture.completedFuture(error(partition, Errors.UNKNOWN_TOPIC_OR_PARTITION, null));
        }
        ProducedBatches batch;
        try {
            batch = checkBatch(pd.records() instanceof BufferRecords r ? r.buffer() : null,
                    topic.logConfig().maxMessageBytes(), version);
        } catch (RejectedBatch e) {
            return CompletableFuture.completedFuture(error(partition, e.code, e.getMessage()));
        }
        CompletableFuture<AppendResult> appended;
        try {
            appended = log.append(batch, durable);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(error(partition, StorageErrors.code(e), StorageErrors.message(e)));
        }
        // The batches are readable once append returns (before an acks=all fsync): wake the fetches waiting now, once.
        topics.appended(log.key());
        return appended.handle((r, e) -> {
            if (e != null) {
                return error(partition, StorageErrors.code(e), StorageErrors.message(e));
            }
            return new PartitionProduceResponse().setIndex(partition).setErrorCode(Errors.NONE)
                    .setBaseOffset(r.baseOffset()).setLogAppendTimeMs(r.logAppendTime())
                    .setLogStartOffset(r.logStartOffset()).setErrorMessage(null);
        });
    }

    /**
     * Kafka's checks, in Kafka's order: exactly one magic-2 batch (INVALID_RECORD), its size within
     * max.message.bytes (MESSAGE_TOO_LARGE), a valid CRC (CORRUPT_MESSAGE), not a control batch
     * (INVALID_RECORD, whatever its key holds), then not transactional (INVALID_TXN_STATE: no coordinator yet,
     * see the class javadoc). The header is parsed here, once: the engine receives it with the bytes.
     */
    static ProducedBatches checkBatch(ByteBuf records, int maxMessageBytes, short version) throws RejectedBatch {
        if (records == null || records.readableBytes() == 0) {
            throw new RejectedBatch(Errors.INVALID_RECORD, "Produce requests with version " + version
                    + " must have at least one record batch per partition");
        }
        ByteBuffer buf = records.nioBuffer();
        int start = buf.position();
        int size = RecordBatches.announcedSize(buf, start);
        if (size < RecordBatches.HEADER_SIZE || size > buf.remaining()) {
            throw new RejectedBatch(Errors.CORRUPT_MESSAGE, "Record batch size " + size
                    + " does not fit the " + buf.remaining() + " bytes received");
        }
        if (buf.get(start + RecordBatches.MAGIC) != RecordBatches.MAGIC_V2) {
            throw new RejectedBatch(Errors.INVALID_RECORD, "Produce requests with version " + version
                    + " are only allowed to contain record batches with magic version 2");
        }
        if (size < buf.remaining()) {
            throw new RejectedBatch(Errors.INVALID_RECORD, "Produce requests with version " + version
                    + " are only allowed to contain exactly one record batch per partition");
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
        ProducedBatches produced;
        try {
            produced = ProducedBatches.validate(buf);
        } catch (CorruptBatchException e) {
            throw new RejectedBatch(Errors.CORRUPT_MESSAGE, e.getMessage());
        }
        if (produced.headers().get(0).isTransactional()) {
            throw new RejectedBatch(Errors.INVALID_TXN_STATE, "Transactional produce is not supported yet: this broker "
                    + "has no transaction coordinator to verify the transaction");
        }
        return produced;
    }

    private static PartitionProduceResponse error(int partition, short code, String message) {
        return new PartitionProduceResponse().setIndex(partition).setErrorCode(code).setBaseOffset(-1)
                .setLogAppendTimeMs(-1).setLogStartOffset(-1).setErrorMessage(message);
    }

    /** A batch refused before it reaches the engine. */
    static final class RejectedBatch extends Exception {
        final short code;

        RejectedBatch(short code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }
}
