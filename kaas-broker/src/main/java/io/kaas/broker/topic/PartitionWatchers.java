package io.kaas.broker.topic;

import io.kaas.api.storage.PartitionKey;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One-shot wake-ups for long-polling fetches: a watcher registered on a partition runs once, on the
 * thread that reports the next append to that partition (it must only hand work off). No thread is
 * parked per waiter.
 */
public final class PartitionWatchers {
    private final ConcurrentHashMap<PartitionKey, Set<Runnable>> watchers = new ConcurrentHashMap<>();

    /** Runs {@code watcher} at the next {@link #appended} of {@code key}, unless removed before. */
    public void watch(PartitionKey key, Runnable watcher) {
        watchers.compute(key, (k, set) -> {
            Set<Runnable> s = set == null ? new LinkedHashSet<>() : set;
            s.add(watcher);
            return s;
        });
    }

    public void unwatch(PartitionKey key, Runnable watcher) {
        watchers.computeIfPresent(key, (k, set) -> {
            set.remove(watcher);
            return set.isEmpty() ? null : set;
        });
    }

    /** Reports that {@code key} has new readable data (or changed state); runs and forgets its watchers. */
    public void appended(PartitionKey key) {
        Set<Runnable> due = watchers.remove(key);
        if (due == null) {
            return;
        }
        for (Runnable r : due) {
            r.run();
        }
    }
}
