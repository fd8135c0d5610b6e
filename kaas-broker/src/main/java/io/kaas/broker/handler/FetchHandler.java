package io.kaas.broker.handler;

import io.kaas.broker.BrokerContext;
import io.kaas.broker.topic.ErrorCodes;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.FetchRequestData.FetchPartition;
import io.kaas.wire.message.FetchRequestData.FetchTopic;
import io.kaas.wire.message.FetchResponseData;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Fetch v4-18 without incremental sessions (as Kafka with the session cache disabled: every fetch is
 * full and answered with session id 0). Long-polls through {@link DelayedFetch}: no thread is parked.
 */
public final class FetchHandler implements ApiHandler<FetchRequestData, FetchResponseData> {
    /** Kafka's FETCH_SESSION_ID_NOT_FOUND. */
    private static final short FETCH_SESSION_ID_NOT_FOUND = 70;

    private final BrokerContext ctx;
    private final TopicManager topics;

    public FetchHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
    }

    @Override
    public ApiMessageType api() {
        return ApiMessageType.FETCH;
    }

    @Override
    public short minVersion() {
        return 4;
    }

    @Override
    public short maxVersion() {
        return 18;
    }

    @Override
    public CompletableFuture<FetchResponseData> handle(RequestContext context, FetchRequestData request) {
        short version = context.apiVersion();
        if (version >= 7 && request.sessionEpoch() > 0) {
            return CompletableFuture.completedFuture(new FetchResponseData().setThrottleTimeMs(0)
                    .setErrorCode(FETCH_SESSION_ID_NOT_FOUND).setSessionId(0).setResponses(new ArrayList<>()));
        }
        List<FetchReader.Target> targets = new ArrayList<>();
        for (FetchTopic ft : request.topics()) {
            Optional<Topic> topic = version >= 13 ? topics.topic(ft.topicId()) : topics.topic(ft.topic());
            short missing = version >= 13 ? ErrorCodes.UNKNOWN_TOPIC_ID : ErrorCodes.UNKNOWN_TOPIC_OR_PARTITION;
            for (FetchPartition fp : ft.partitions()) {
                var log = topic.map(t -> t.log(fp.partition())).orElse(null);
                short error = topic.isEmpty() ? missing : log == null ? ErrorCodes.UNKNOWN_TOPIC_OR_PARTITION : ErrorCodes.NONE;
                String name = topic.map(Topic::name).orElse(ft.topic());
                targets.add(new FetchReader.Target(name, ft.topicId(), fp.partition(), fp.fetchOffset(),
                        fp.partitionMaxBytes(), log, error));
            }
        }
        FetchReader reader = new FetchReader(targets, request.maxBytes(), request.isolationLevel() == 1);
        FetchReader.Result first = reader.read();
        if (request.maxWaitMs() <= 0 || targets.isEmpty() || first.bytes() >= request.minBytes() || first.hasError()) {
            return CompletableFuture.completedFuture(first.response());
        }
        return DelayedFetch.park(ctx, topics.watchers(), reader, request.minBytes(), request.maxWaitMs(), first);
    }
}
