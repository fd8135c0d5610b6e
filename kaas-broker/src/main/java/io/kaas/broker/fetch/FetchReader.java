package io.kaas.broker.fetch;

import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ReadResult;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.message.FetchResponseData.AbortedTransaction;
import io.kaas.wire.message.FetchResponseData.FetchableTopicResponse;
import io.kaas.wire.message.FetchResponseData.PartitionData;
import io.kaas.wire.protocol.Errors;
import io.kaas.wire.protocol.Records;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Reads the partitions of one fetch request, honouring {@code fetch.max.bytes} across partitions and
 * {@code max.partition.fetch.bytes} per partition, with at least one whole batch from the first partition
 * that has data (KIP-74). Can be run again for a long-poll re-check. Reads do no I/O beyond the engine's
 * index look-ups: records stay the engine's slices ({@link LogSliceRecords}) until the response is encoded.
 */
public final class FetchReader {

    /** One requested partition, resolved; {@code log} is null when {@code error} is set. */
    public record Target(String topic, UUID topicId, int partition, long fetchOffset, int partitionMaxBytes,
                         PartitionLog log, short error) {
    }

    /** The outcome of one read pass. */
    public record Result(FetchResponseData response, int bytes, boolean hasError, long[] before) {
    }

    private final List<Target> targets;
    private final int maxBytes;
    private final boolean readCommitted;

    public FetchReader(List<Target> targets, int maxBytes, boolean readCommitted) {
        this.targets = targets;
        this.maxBytes = maxBytes;
        this.readCommitted = readCommitted;
    }

    List<Target> targets() {
        return targets;
    }

    /** The offset a read would be capped at (high watermark, or last stable offset). */
    long readLimit(LogOffsets offsets) {
        return readCommitted ? offsets.lastStableOffset() : offsets.highWatermark();
    }

    /** The read limit and log start of every readable partition, in target order. */
    long[] snapshot() {
        long[] s = new long[targets.size() * 2];
        for (int i = 0; i < targets.size(); i++) {
            PartitionLog log = targets.get(i).log();
            if (log != null) {
                LogOffsets o = log.offsets();
                s[2 * i] = readLimit(o);
                s[2 * i + 1] = o.logStartOffset();
            }
        }
        return s;
    }

    /**
     * Reads every target once. {@link Result#before} is the {@link #snapshot()} taken just before, so
     * a waiter can tell whether anything changed since.
     */
    public Result read() {
        long[] before = snapshot();
        List<FetchableTopicResponse> topics = new ArrayList<>();
        FetchableTopicResponse current = null;
        int remaining = maxBytes;
        int total = 0;
        boolean minOneBatch = true;
        boolean hasError = false;
        for (Target t : targets) {
            if (current == null || !Objects.equals(current.topicId(), t.topicId()) || !Objects.equals(current.topic(), t.topic())) {
                current = new FetchableTopicResponse().setTopic(t.topic()).setTopicId(t.topicId())
                        .setPartitions(new ArrayList<>());
                topics.add(current);
            }
            PartitionData pd;
            if (t.error() != Errors.NONE) {
                pd = error(t.partition(), t.error(), null);
            } else {
                int limit = Math.min(t.partitionMaxBytes(), remaining);
                pd = readOne(t, Math.max(limit, 0), minOneBatch);
                int size = pd.records() == null ? 0 : pd.records().sizeInBytes();
                if (size > 0) {
                    minOneBatch = false;
                    remaining = Math.max(0, remaining - size);
                    total += size;
                }
            }
            hasError |= pd.errorCode() != Errors.NONE;
            current.partitions().add(pd);
        }
        FetchResponseData response = new FetchResponseData().setThrottleTimeMs(0).setErrorCode(Errors.NONE)
                .setSessionId(0).setResponses(topics);
        return new Result(response, total, hasError, before);
    }

    private PartitionData readOne(Target t, int limit, boolean minOneBatch) {
        LogOffsets offsets = t.log().offsets();
        try {
            ReadResult rr;
            if (limit <= 0 && !minOneBatch) {
                rr = new ReadResult(List.of(), offsets);
                checkInRange(t.fetchOffset(), offsets);
            } else {
                rr = t.log().read(t.fetchOffset(), limit, readLimit(offsets), minOneBatch);
            }
            LogOffsets o = rr.offsets();
            return new PartitionData().setPartitionIndex(t.partition()).setErrorCode(Errors.NONE)
                    .setHighWatermark(o.highWatermark()).setLastStableOffset(o.lastStableOffset())
                    .setLogStartOffset(o.logStartOffset()).setPreferredReadReplica(-1)
                    .setAbortedTransactions(readCommitted ? aborted(t, rr, readLimit(offsets)) : null)
                    .setRecords(rr.slices().isEmpty() ? Records.EMPTY : new LogSliceRecords(rr.slices()));
        } catch (RuntimeException e) {
            return error(t.partition(), StorageErrors.code(e), offsets);
        }
    }

    /**
     * read_committed: the aborted transactions with data in what the read may return, [fetch offset, read limit)
     * (the limit is the last stable offset; a range past the returned batches is harmless, the consumer applies
     * a range only to the batches it gets), as Fetch v4+ {@code aborted_transactions} carries them.
     */
    private static List<AbortedTransaction> aborted(Target t, ReadResult rr, long readLimit) {
        List<AbortedTransaction> out = new ArrayList<>();
        if (rr.slices().isEmpty()) {
            return out;
        }
        for (io.kaas.api.storage.AbortedTransaction a : t.log().abortedTransactions(t.fetchOffset(), readLimit)) {
            out.add(new AbortedTransaction().setProducerId(a.producerId()).setFirstOffset(a.firstOffset()));
        }
        return out;
    }

    private static void checkInRange(long offset, LogOffsets offsets) {
        if (offset < offsets.logStartOffset() || offset > offsets.highWatermark()) {
            throw new io.kaas.api.storage.OffsetOutOfRangeException("Offset " + offset + " is out of range ["
                    + offsets.logStartOffset() + ", " + offsets.highWatermark() + "]");
        }
    }

    private PartitionData error(int partition, short code, LogOffsets offsets) {
        return new PartitionData().setPartitionIndex(partition).setErrorCode(code)
                .setHighWatermark(offsets == null ? -1 : offsets.highWatermark())
                .setLastStableOffset(offsets == null ? -1 : offsets.lastStableOffset())
                .setLogStartOffset(offsets == null ? -1 : offsets.logStartOffset())
                .setPreferredReadReplica(-1)
                .setAbortedTransactions(null)
                .setRecords(Records.EMPTY);
    }
}
