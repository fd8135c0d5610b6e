package io.kaas.broker.topic;

import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionLog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A topic as this broker serves it: its cluster record, the resolved log settings, and the open log of each
 * partition this broker writes (with the leader epoch it was opened at); a partition written elsewhere has none here.
 * Immutable; the {@link TopicManager} swaps in a new instance when the topic or its ownership changes.
 */
public final class Topic {
    private final TopicRecord record;
    private final LogConfig logConfig;
    private final PartitionLog[] logs;
    private final int[] epochs;

    Topic(TopicRecord record, LogConfig logConfig) {
        this(record, logConfig, new PartitionLog[record.partitions()], filled(record.partitions()));
    }

    private Topic(TopicRecord record, LogConfig logConfig, PartitionLog[] logs, int[] epochs) {
        this.record = record;
        this.logConfig = logConfig;
        this.logs = logs;
        this.epochs = epochs;
    }

    private static int[] filled(int n) {
        int[] e = new int[n];
        Arrays.fill(e, -1);
        return e;
    }

    public TopicRecord record() {
        return record;
    }

    public LogConfig logConfig() {
        return logConfig;
    }

    public String name() {
        return record.name();
    }

    public UUID id() {
        return record.topicId();
    }

    /** The topic's partition count, whichever broker writes them. */
    public int partitionCount() {
        return record.partitions();
    }

    /** The log of {@code partition} if this broker writes it, else null (no such partition, or written elsewhere). */
    public PartitionLog log(int partition) {
        return partition >= 0 && partition < logs.length ? logs[partition] : null;
    }

    /** Whether {@code partition} is one of the topic's partitions. */
    public boolean hasPartition(int partition) {
        return partition >= 0 && partition < record.partitions();
    }

    /** The leader epoch {@code partition}'s log was opened at here, -1 if this broker does not write it. */
    public int leaderEpoch(int partition) {
        return partition >= 0 && partition < epochs.length ? epochs[partition] : -1;
    }

    /** The open logs of the partitions this broker writes. */
    public List<PartitionLog> logs() {
        List<PartitionLog> out = new ArrayList<>();
        for (PartitionLog l : logs) {
            if (l != null) {
                out.add(l);
            }
        }
        return out;
    }

    /** This topic with {@code record} and {@code config} (more or fewer partitions, other configs), logs kept. */
    Topic withRecord(TopicRecord newRecord, LogConfig config) {
        int n = newRecord.partitions();
        PartitionLog[] l = Arrays.copyOf(logs, n);
        int[] e = Arrays.copyOf(epochs, n);
        for (int i = logs.length; i < n; i++) {
            e[i] = -1;
        }
        return new Topic(newRecord, config, l, e);
    }

    /** This topic with {@code partition} served from {@code log} at {@code epoch} (null: not served here). */
    Topic withLog(int partition, PartitionLog log, int epoch) {
        PartitionLog[] l = logs.clone();
        int[] e = epochs.clone();
        l[partition] = log;
        e[partition] = log == null ? -1 : epoch;
        return new Topic(record, logConfig, l, e);
    }
}
