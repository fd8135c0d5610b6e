package io.kaas.api.storage;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A running storage engine: a set of partition logs. Thread-safe: any method may be called from
 * any broker thread, never from a network event loop; methods may block on I/O.
 * Closed once, if and only if it was opened successfully.
 */
public interface StorageEngine extends AutoCloseable {

    /**
     * Checks that the engine can serve a partition with {@code config}. The broker calls it before it
     * records a topic's settings (CreateTopics, AlterConfigs and IncrementalAlterConfigs, validate-only
     * requests included), so a topic the engine cannot serve is never created. Cheap, no I/O.
     *
     * <p>An engine that does not compact refuses {@link LogConfig#compact()}: it could neither keep
     * the latest record per key nor honour a compact-only topic's promise to keep its data.
     *
     * @throws InvalidConfigException naming the setting the engine cannot honour
     */
    void checkConfig(LogConfig config);

    /**
     * The directory the engine keeps its partitions' data in, which DescribeLogDirs reports as the broker's log dir
     * (with the total and usable bytes of its file system), or empty for an engine that keeps nothing on disk.
     * Constant and cheap.
     */
    Optional<Path> logDir();

    /**
     * Opens (and, after a crash, recovers) the log of one partition, creating it empty if absent.
     * Accepts any config, even one {@link #checkConfig} refuses (a topic recorded before the engine was
     * changed): such a partition keeps its data and is served without the refused feature.
     * Returns the same open instance on repeated calls until {@link #deletePartition} or {@link #close}.
     */
    PartitionLog openPartition(PartitionKey key, LogConfig config) throws IOException;

    /**
     * Opens (recovering) the log of one partition as its writer at {@code leaderEpoch}, for an engine whose provider
     * declares {@link StorageEngineProvider#sharedVolume()}: another broker may have written the partition before, at
     * lower epochs, and may, fenced, still append to its own files. The engine
     * <ul>
     *   <li>refuses with {@link FencedLeaderEpochException} if the partition was written at a higher epoch;</li>
     *   <li>recovers what the earlier writers left, records where their data ends (the start of {@code leaderEpoch}
     *       in {@link PartitionLog#epochs()}), and never serves bytes they append after that point;</li>
     *   <li>writes its own data into files named with {@code leaderEpoch}, never into an earlier writer's files;</li>
     *   <li>asks {@link EngineContext#fence()} before it deletes or replaces files of the partition.</li>
     * </ul>
     * Opening an open partition at the epoch it is open with returns the open instance; at a higher epoch it reopens
     * (a partition taken over again after it was moved away and back). The default, for engines that do not share a
     * volume, ignores the epoch.
     *
     * @throws FencedLeaderEpochException if the partition holds data of a higher epoch
     */
    default PartitionLog openPartition(PartitionKey key, LogConfig config, int leaderEpoch) throws IOException {
        return openPartition(key, config);
    }

    /**
     * Gives up the partition without removing anything: flushes it, closes it and releases its resources, so another
     * broker can open it (a partition moved away, or this broker fenced). Appends in flight complete exceptionally or
     * are flushed before it returns. A partition that is not open is a no-op.
     */
    void closePartition(PartitionKey key) throws IOException;

    /** Closes the partition if open and removes all its data. A partition that does not exist is a no-op. */
    void deletePartition(PartitionKey key) throws IOException;

    /**
     * The engine's settings changed while it runs: {@code settings} is what {@link EngineContext#config()} would hold
     * now (the broker's dynamic broker configs of the Kafka keys that stand for engine settings, such as
     * {@code log.cleaner.threads} for the segment engine's {@code cleaner.threads}, over the static ones). The engine
     * applies, from now on, the settings it can change at run time and keeps the others as it opened with them. Called
     * at start-up after {@link StorageEngineProvider#open} and after every dynamic change, never on a network thread;
     * the values were checked by the broker's config definitions. The default ignores every change.
     *
     * @throws io.kaas.api.plugin.PluginConfigException naming the key if a setting is unusable; nothing changes then
     */
    default void reconfigure(io.kaas.api.plugin.PluginConfig settings) {
    }

    /**
     * Flushes every partition to stable storage and releases all resources. After a clean close a
     * restart needs no recovery scan.
     */
    @Override
    void close() throws IOException;
}
