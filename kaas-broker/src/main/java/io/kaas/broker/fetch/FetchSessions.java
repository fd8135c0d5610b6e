package io.kaas.broker.fetch;

import io.kaas.wire.protocol.Errors;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.FetchRequestData.FetchPartition;
import io.kaas.wire.message.FetchRequestData.FetchTopic;
import io.kaas.wire.message.FetchRequestData.ForgottenTopic;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.message.FetchResponseData.FetchableTopicResponse;
import io.kaas.wire.message.FetchResponseData.PartitionData;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

/**
 * The KIP-227 rules that turn a Fetch request into a fetch context, as Kafka's {@code FetchManager}:
 * <ul>
 *   <li>epoch -1 (final): a full fetch without a session; a session id given is closed;</li>
 *   <li>epoch 0 (initial): a full fetch that opens a new session (closing any session id given), or
 *       none when the cache has no room (the answer then carries session id 0);</li>
 *   <li>epoch &gt; 0: an incremental fetch of session {@code session_id}: unknown id →
 *       FETCH_SESSION_ID_NOT_FOUND, another epoch than the session expects →
 *       INVALID_FETCH_SESSION_EPOCH, a switch between topic names and ids →
 *       FETCH_SESSION_TOPIC_ID_ERROR; else the request's partitions are added or updated, its forgotten
 *       topics removed, the epoch advanced, and every partition of the session is read, but the answer
 *       carries only those with records, an error, or a changed high watermark, last stable offset or
 *       log start offset.</li>
 * </ul>
 * Fetch v4-6 has no sessions: every fetch is full.
 */
public final class FetchSessions {
    static final short FETCH_SESSION_ID_NOT_FOUND = 70;
    static final short INVALID_FETCH_SESSION_EPOCH = 71;
    static final short FETCH_SESSION_TOPIC_ID_ERROR = 106;
    private static final int FINAL_EPOCH = -1;
    private static final int INITIAL_EPOCH = 0;

    /** Resolves a session partition into a fetch target. */
    public interface Resolver {
        FetchReader.Target target(String name, UUID topicId, boolean byId, int partition, long fetchOffset, int maxBytes);
    }

    private final FetchSessionCache cache;
    private final Clock clock;

    public FetchSessions(FetchSessionCache cache, Clock clock) {
        this.cache = cache;
        this.clock = clock;
    }

    /** What one request is: an error, a full fetch (with or without a new session) or an incremental one. */
    public static final class Context {
        private final short error;
        private final FetchSession session;
        private final boolean incremental;

        private Context(short error, FetchSession session, boolean incremental) {
            this.error = error;
            this.session = session;
            this.incremental = incremental;
        }

        public short error() {
            return error;
        }

        public boolean isIncremental() {
            return incremental;
        }

        /** The session's partitions as targets, in the session's order. */
        public List<FetchReader.Target> targets(Resolver resolver) {
            synchronized (session) {
                List<FetchReader.Target> out = new ArrayList<>(session.size());
                boolean byId = session.usesTopicIds();
                for (FetchSession.Cached c : session.partitions()) {
                    out.add(resolver.target(c.topicName, c.key.topicId() == null ? new UUID(0, 0) : c.key.topicId(),
                            byId, c.key.partition(), c.fetchOffset, c.maxBytes));
                }
                return out;
            }
        }

        /** Records what the client is told, and drops what it need not be told (incremental only). */
        public FetchResponseData respond(FetchResponseData response) {
            if (session == null) {
                response.setSessionId(0);
                return response;
            }
            synchronized (session) {
                boolean byId = session.usesTopicIds();
                for (Iterator<FetchableTopicResponse> topics = response.responses().iterator(); topics.hasNext(); ) {
                    FetchableTopicResponse t = topics.next();
                    t.partitions().removeIf(p -> !update(session, key(byId, t.topicId(), t.topic(), p.partitionIndex()), p)
                            && incremental);
                    if (t.partitions().isEmpty()) {
                        topics.remove();
                    }
                }
                response.setSessionId(session.id());
            }
            return response;
        }

        /** Updates the cached offsets of one partition; true if the client must be told about it. */
        private boolean update(FetchSession s, FetchSession.Key key, PartitionData p) {
            FetchSession.Cached c = s.get(key);
            if (c == null) {
                return true;
            }
            boolean hasRecords = p.records() != null && p.records().sizeInBytes() > 0;
            boolean mustRespond = hasRecords || p.errorCode() != Errors.NONE;
            if (c.highWatermark != p.highWatermark()) {
                c.highWatermark = p.highWatermark();
                mustRespond = true;
            }
            if (c.lastStableOffset != p.lastStableOffset()) {
                c.lastStableOffset = p.lastStableOffset();
                mustRespond = true;
            }
            if (c.logStartOffset != p.logStartOffset()) {
                c.logStartOffset = p.logStartOffset();
                mustRespond = true;
            }
            if (hasRecords && incremental) {
                s.moveToEnd(key);
            }
            return mustRespond;
        }
    }

    /** The context of {@code request}; sessions are created, closed and advanced here. */
    public Context open(FetchRequestData request, short version) {
        if (version < 7) {
            return new Context(Errors.NONE, null, false);
        }
        int id = request.sessionId();
        int epoch = request.sessionEpoch();
        boolean byId = version >= 13;
        long now = clock.millis();
        if (epoch == FINAL_EPOCH || epoch == INITIAL_EPOCH) {
            if (id != 0) {
                cache.remove(id);
            }
            if (epoch == FINAL_EPOCH) {
                return new Context(Errors.NONE, null, false);
            }
            int count = 0;
            for (FetchTopic t : request.topics()) {
                count += t.partitions().size();
            }
            FetchSession session = cache.create(byId, count, now);
            if (session != null) {
                synchronized (session) {
                    apply(session, request, byId);
                }
            }
            return new Context(Errors.NONE, session, false);
        }
        FetchSession session = cache.get(id, now);
        if (session == null) {
            return new Context(FETCH_SESSION_ID_NOT_FOUND, null, true);
        }
        synchronized (session) {
            if (session.epoch() != epoch) {
                return new Context(INVALID_FETCH_SESSION_EPOCH, null, true);
            }
            if (session.usesTopicIds() != byId) {
                return new Context(FETCH_SESSION_TOPIC_ID_ERROR, null, true);
            }
            apply(session, request, byId);
            for (ForgottenTopic f : request.forgottenTopicsData()) {
                for (int p : f.partitions()) {
                    session.forget(key(byId, f.topicId(), f.topic(), p));
                }
            }
            session.bumpEpoch();
        }
        return new Context(Errors.NONE, session, true);
    }

    private static void apply(FetchSession session, FetchRequestData request, boolean byId) {
        for (FetchTopic t : request.topics()) {
            for (FetchPartition p : t.partitions()) {
                session.upsert(key(byId, t.topicId(), t.topic(), p.partition()), t.topic(), p.fetchOffset(),
                        p.partitionMaxBytes());
            }
        }
    }

    static FetchSession.Key key(boolean byId, UUID topicId, String topic, int partition) {
        return byId ? new FetchSession.Key(topicId, null, partition) : new FetchSession.Key(null, topic, partition);
    }
}
