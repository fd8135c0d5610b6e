package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.fetch.DelayedFetch;
import io.kaas.broker.fetch.FetchReader;
import io.kaas.broker.fetch.FetchSessionCache;
import io.kaas.broker.fetch.FetchSessions;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.LeaderEpochs;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.FetchRequestData.FetchPartition;
import io.kaas.wire.message.FetchRequestData.FetchTopic;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Fetch v4-18 with incremental fetch sessions (KIP-227, {@link FetchSessions}). Records stay the
 * engine's slices until the codec writes them, file slices zero-copy (see {@link FetchReader}); long-polls park in {@link DelayedFetch} without a thread, their
 * re-reads run on a small fetch pool (never on the scheduler or an event loop) whose threads exit
 * when idle.
 */
public final class FetchHandler implements ApiHandler<FetchRequestData, FetchResponseData> {
    /** {@code min.incremental.fetch.session.eviction.ms}, as in Kafka. */
    static final long SESSION_EVICTION_MS = 120_000;

    private final BrokerContext ctx;
    private final TopicManager topics;
    private final FetchSessions sessions;
    private final ExecutorService rereads;

    public FetchHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
        this.sessions = new FetchSessions(new FetchSessionCache(ctx.config().maxIncrementalFetchSessionCacheSlots(), SESSION_EVICTION_MS),
                ctx.clock());
        this.rereads = newRereadPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
    }

    @Override
    public CompletableFuture<FetchResponseData> handle(RequestContext context, FetchRequestData request) {
        short version = context.apiVersion();
        FetchSessions.Context session = sessions.open(request, version);
        if (session.error() != Errors.NONE) {
            return CompletableFuture.completedFuture(new FetchResponseData().setThrottleTimeMs(0)
                    .setErrorCode(session.error()).setSessionId(0).setResponses(new ArrayList<>()));
        }
        Predicate<String> mayRead = context.access().check(Operation.READ, ResourceType.TOPIC);
        List<FetchReader.Target> targets = session.isIncremental()
                ? session.targets((name, id, byId, p, offset, max) -> target(mayRead, name, id, byId, p, offset, max))
                : requestTargets(request, version, mayRead);
        FetchReader reader = new FetchReader(targets, request.maxBytes(), request.isolationLevel() == 1);
        FetchReader.Result first = reader.read();
        if (request.maxWaitMs() <= 0 || targets.isEmpty() || first.bytes() >= request.minBytes() || first.hasError()) {
            count(targets, first);
            return CompletableFuture.completedFuture(session.respond(first.response()));
        }
        return DelayedFetch.park(ctx, rereads, topics.watchers(), reader, request.minBytes(), request.maxWaitMs(), first)
                .thenApply(r -> {
                    count(targets, r);
                    return session.respond(r.response());
                });
    }

    /** BytesOut and FailedFetchRequests per topic: once per partition of the answer (in target order), never per record. */
    private void count(List<FetchReader.Target> targets, FetchReader.Result result) {
        var stats = topics.stats();
        int i = 0;
        for (var topic : result.response().responses()) {
            for (var pd : topic.partitions()) {
                String name = targets.get(i++).topic();
                if (name == null) {
                    continue;
                }
                if (pd.errorCode() != Errors.NONE) {
                    stats.fetchFailed(name);
                } else {
                    stats.fetched(name, pd.records() == null ? 0 : pd.records().sizeInBytes());
                }
            }
        }
    }

    private List<FetchReader.Target> requestTargets(FetchRequestData request, short version, Predicate<String> mayRead) {
        List<FetchReader.Target> targets = new ArrayList<>();
        for (FetchTopic ft : request.topics()) {
            for (FetchPartition fp : ft.partitions()) {
                FetchReader.Target t = target(mayRead, ft.topic(), ft.topicId(), version >= 13, fp.partition(),
                        fp.fetchOffset(), fp.partitionMaxBytes());
                targets.add(checkLeaderEpoch(t, fp.currentLeaderEpoch()));
            }
        }
        return targets;
    }

    /**
     * A full fetch's {@code current_leader_epoch} against the epoch this broker writes the partition at, as Kafka's
     * leader checks it: FENCED_LEADER_EPOCH for an older one, UNKNOWN_LEADER_EPOCH for a newer one (-1: not checked).
     */
    private FetchReader.Target checkLeaderEpoch(FetchReader.Target t, int currentLeaderEpoch) {
        if (t.error() != Errors.NONE || currentLeaderEpoch == LeaderEpochs.UNDEFINED) {
            return t;
        }
        int local = topics.topic(t.topic()).map(x -> x.leaderEpoch(t.partition())).orElse(LeaderEpochs.UNDEFINED);
        short error = LeaderEpochs.checkCurrent(currentLeaderEpoch, local);
        return error == Errors.NONE ? t : new FetchReader.Target(t.topic(), t.topicId(), t.partition(), t.fetchOffset(),
                t.partitionMaxBytes(), null, error);
    }

    /** Resolves one partition to fetch, or the error to answer for it (READ denied: TOPIC_AUTHORIZATION_FAILED). */
    FetchReader.Target target(Predicate<String> mayRead, String name, UUID topicId, boolean byId, int partition,
                              long fetchOffset, int maxBytes) {
        Optional<Topic> topic = byId ? topics.topic(topicId) : topics.topic(name);
        short missing = byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        String resolved = topic.map(Topic::name).orElse(name);
        if (resolved != null && !mayRead.test(resolved)) {
            return new FetchReader.Target(resolved, topicId, partition, fetchOffset, maxBytes, null,
                    Errors.TOPIC_AUTHORIZATION_FAILED);
        }
        var log = topic.map(t -> t.log(partition)).orElse(null);
        short error = topic.isEmpty() ? missing : log == null ? topics.absence(resolved, partition) : Errors.NONE;
        return new FetchReader.Target(resolved, topicId, partition, fetchOffset, maxBytes, log, error);
    }

    private static ExecutorService newRereadPool(int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "kaas-fetch-reread-" + n.getAndIncrement());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
