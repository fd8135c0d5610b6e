package io.kaas.broker.fetch;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The broker's incremental fetch sessions, at most {@code maxSessions}
 * ({@code max.incremental.fetch.session.cache.slots}, 1000 as in Kafka). When it is full, a new session
 * takes the place of the least recently used one if that one has been idle at least
 * {@code evictionMs} ({@code min.incremental.fetch.session.eviction.ms}, 2 minutes), or else of the
 * least recently used one that has fewer partitions than the newcomer; otherwise the newcomer goes
 * without a session (its fetches stay full ones, answered with session id 0), as in Kafka.
 */
public final class FetchSessionCache {
    private final int maxSessions;
    private final long evictionMs;
    /** Access order: the eldest entry is the least recently used session. */
    private final LinkedHashMap<Integer, FetchSession> sessions = new LinkedHashMap<>(16, 0.75f, true);

    public FetchSessionCache(int maxSessions, long evictionMs) {
        this.maxSessions = maxSessions;
        this.evictionMs = evictionMs;
    }

    /** A new session, or null when the cache has no room for it. */
    synchronized FetchSession create(boolean usesTopicIds, int partitionCount, long nowMs) {
        if (maxSessions <= 0) {
            return null;
        }
        if (sessions.size() >= maxSessions && !evictOne(partitionCount, nowMs)) {
            return null;
        }
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
        } while (sessions.containsKey(id));
        FetchSession session = new FetchSession(id, usesTopicIds, nowMs);
        sessions.put(id, session);
        return session;
    }

    private boolean evictOne(int partitionCount, long nowMs) {
        Iterator<FetchSession> it = sessions.values().iterator();
        FetchSession eldest = it.hasNext() ? it.next() : null;
        if (eldest != null && nowMs - eldest.lastUsedMs() >= evictionMs) {
            sessions.remove(eldest.id());
            return true;
        }
        for (FetchSession s : sessions.values()) {
            if (s.size() < partitionCount) {
                sessions.remove(s.id());
                return true;
            }
        }
        return false;
    }

    /** The session with {@code id}, marked as used; null if unknown (never created, evicted or closed). */
    synchronized FetchSession get(int id, long nowMs) {
        FetchSession s = sessions.get(id);
        if (s != null) {
            s.touch(nowMs);
        }
        return s;
    }

    synchronized void remove(int id) {
        sessions.remove(id);
    }

    synchronized int size() {
        return sessions.size();
    }
}
