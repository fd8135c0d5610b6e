package io.kaas.broker.handler;

import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.DescribeLogDirsRequestData;
import io.kaas.wire.message.DescribeLogDirsRequestData.DescribableLogDirTopic;
import io.kaas.wire.message.DescribeLogDirsResponseData;
import io.kaas.wire.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import io.kaas.wire.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import io.kaas.wire.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DescribeLogDirs v1-5 (Kafka 4.x removed v0, KIP-896): the storage engine's directory with the partitions this broker
 * writes there (size in bytes, offset lag 0: there are no followers' logs, no future logs) and, from v4, the total and
 * usable bytes of its file system (KIP-827). v5 (Kafka 4.4, KIP-1066) tells whether the directory is cordoned (no new
 * partitions placed there): kaas has one directory per broker and does not cordon it ({@code cordoned.log.dirs} is
 * not read), so it is always false. The request's topics filter the partitions (null: all); a topic or
 * partition not written here is left out, as Kafka does. DESCRIBE on the cluster is checked by the contract.
 *
 * <p>An engine without a directory (in memory) still answers one entry, named {@code (in memory: storage engine
 * 'memory')}, with its partitions and sizes and the volume's bytes unknown (-1): a Kafka broker always has a log dir,
 * and the Java admin takes an answer without any for CLUSTER_AUTHORIZATION_FAILED.
 */
public final class DescribeLogDirsHandler implements ApiHandler<DescribeLogDirsRequestData, DescribeLogDirsResponseData> {
    private static final Logger LOG = LoggerFactory.getLogger(DescribeLogDirsHandler.class);

    private final BrokerContext ctx;
    private final TopicManager topics;

    public DescribeLogDirsHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<DescribeLogDirsResponseData> handle(RequestContext context, DescribeLogDirsRequestData request) {
        List<DescribeLogDirsResult> results = new ArrayList<>();
        Optional<Path> dir = ctx.storageEngine().logDir();
        results.add(dir.isPresent() ? describe(dir.get().toAbsolutePath().normalize(), request.topics())
                : partitions(new DescribeLogDirsResult().setLogDir(inMemory(ctx.config().storageEngine()))
                        .setIsCordoned(false), request.topics()));
        return CompletableFuture.completedFuture(new DescribeLogDirsResponseData().setThrottleTimeMs(0)
                .setErrorCode(Errors.NONE).setResults(results));
    }

    private DescribeLogDirsResult describe(Path dir, List<DescribableLogDirTopic> wanted) {
        DescribeLogDirsResult result = new DescribeLogDirsResult().setLogDir(dir.toString()).setIsCordoned(false);
        try {
            FileStore store = Files.getFileStore(dir);
            result.setTotalBytes(largeFileSystem(store.getTotalSpace()))
                    .setUsableBytes(largeFileSystem(store.getUsableSpace()));
        } catch (IOException | RuntimeException e) {
            LOG.atWarn().addKeyValue("logDir", dir).setCause(e)
                    .log("DescribeLogDirs: cannot read the file system of log dir {}: {}", dir, e.toString());
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR).setTopics(new ArrayList<>());
        }
        return partitions(result, wanted);
    }

    /** The name of the log dir of an engine that keeps its partitions in memory. */
    static String inMemory(String engine) {
        return "(in memory: storage engine '" + engine + "')";
    }

    /** {@code result} with the partitions written here that {@code wanted} asks for (null: all). */
    private DescribeLogDirsResult partitions(DescribeLogDirsResult result, List<DescribableLogDirTopic> wanted) {
        List<DescribeLogDirsTopic> described = new ArrayList<>();
        if (wanted == null) {
            for (Topic topic : topics.topics()) {
                addTopic(described, topic, null);
            }
        } else {
            Set<String> seen = new HashSet<>();
            for (DescribableLogDirTopic t : wanted) {
                if (seen.add(t.topic())) {
                    Set<Integer> partitions = new HashSet<>();
                    for (DescribableLogDirTopic same : wanted) {
                        if (same.topic().equals(t.topic())) {
                            partitions.addAll(same.partitions());
                        }
                    }
                    topics.topic(t.topic()).ifPresent(topic -> addTopic(described, topic, partitions));
                }
            }
        }
        return result.setErrorCode(Errors.NONE).setTopics(described);
    }

    /** The topic's partitions written here ({@code only}: those of them asked for, null: all), if any. */
    private static void addTopic(List<DescribeLogDirsTopic> out, Topic topic, Set<Integer> only) {
        List<DescribeLogDirsPartition> partitions = new ArrayList<>();
        for (int p = 0; p < topic.partitionCount(); p++) {
            PartitionLog log = topic.log(p);
            if (log != null && (only == null || only.contains(p))) {
                partitions.add(new DescribeLogDirsPartition().setPartitionIndex(p)
                        .setPartitionSize(log.sizeInBytes()).setOffsetLag(0).setIsFutureKey(false));
            }
        }
        if (!partitions.isEmpty()) {
            out.add(new DescribeLogDirsTopic().setName(topic.name()).setPartitions(partitions));
        }
    }

    /** A file system over 8 EiB reports a negative size (JDK-8162520): Kafka answers Long.MAX_VALUE. */
    private static long largeFileSystem(long space) {
        return space < 0 ? Long.MAX_VALUE : space;
    }
}
