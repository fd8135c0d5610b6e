package io.kaas.engine.segments.internal;

import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The segment storage engine: a set of {@link SegmentPartitionLog}s under the data directory, one
 * small committer pool shared by all partitions for group-commit fsyncs, and a {@link DeferredCloser}
 * for deleted segments. Partition open, delete and close are serialized on the engine.
 */
public final class SegmentEngine implements StorageEngine {
    private final Path dataDir;
    private final EngineContext context;
    private final IoHooks hooks;
    private final ExecutorService committers;
    private final DeferredCloser closer;
    private final Map<String, SegmentPartitionLog> partitions = new HashMap<>();
    private boolean closed;

    SegmentEngine(EngineContext context, IoHooks hooks) throws IOException {
        SegmentEngineConfig config = SegmentEngineConfig.from(context.config());
        this.context = context;
        this.dataDir = context.dataDir();
        this.hooks = hooks;
        Files.createDirectories(dataDir);
        AtomicInteger n = new AtomicInteger();
        this.committers = Executors.newFixedThreadPool(config.committerThreads(), r -> {
            Thread t = new Thread(r, "kaas-segments-committer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.closer = new DeferredCloser(config.deletedSegmentCloseDelayMs());
    }

    /** Opens the engine over {@code context.dataDir()}; called by the provider. */
    public static SegmentEngine open(EngineContext context) throws IOException {
        return new SegmentEngine(context, IoHooks.NONE);
    }

    private static String name(PartitionKey key) {
        return key.topic() + "/" + key.partition();
    }

    @Override
    public synchronized PartitionLog openPartition(PartitionKey key, LogConfig config) throws IOException {
        if (closed) {
            throw new IOException("the segment engine is closed");
        }
        SegmentPartitionLog open = partitions.get(name(key));
        if (open != null) {
            if (open.key().topicId().equals(key.topicId())) {
                return open;
            }
            // The topic was re-created under the same name: the old log is stale.
            partitions.remove(name(key));
            open.close();
        }
        SegmentPartitionLog log = SegmentPartitionLog.open(key, config, dataDir, committers, closer, hooks, context.clock());
        partitions.put(name(key), log);
        return log;
    }

    @Override
    public synchronized void deletePartition(PartitionKey key) throws IOException {
        SegmentPartitionLog open = partitions.get(name(key));
        if (open != null && open.key().topicId().equals(key.topicId())) {
            partitions.remove(name(key));
            open.close();
        }
        Path dir = PartitionDirectory.pathOf(dataDir, key);
        Optional<UUID> topicId = PartitionDirectory.readTopicId(dir);
        if (topicId.isEmpty() || topicId.get().equals(key.topicId())) {
            PartitionDirectory.deleteRecursively(dir);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        List<IOException> failures = new ArrayList<>();
        for (SegmentPartitionLog log : partitions.values()) {
            try {
                log.close();
            } catch (IOException e) {
                failures.add(e);
            }
        }
        partitions.clear();
        committers.shutdown();
        try {
            committers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closer.close();
        if (!failures.isEmpty()) {
            IOException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    int pendingDeferredCloses() {
        return closer.pendingCount();
    }
}
