package io.kaas.cluster.zookeeper.internal;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The children of one directory node, parsed, kept current by a persistent recursive watch: each event re-reads the
 * child it names on the store's event thread. Reads and their application happen under one lock, in the order this
 * session issued them, so a later read never leaves an older state behind; a writer re-reads what it wrote
 * ({@link #refresh}) before it returns, so its own changes show at once. Getters are lock-free.
 *
 * @param <T> what one child parses to
 */
final class WatchedChildren<T> {
    private static final Logger LOG = LoggerFactory.getLogger(WatchedChildren.class);

    /** Parses one child's data; throws {@link IllegalArgumentException} (or another runtime exception) if it cannot. */
    interface Parser<T> {
        T parse(String child, byte[] data, Stat stat);
    }

    /** One child as last read: its value and the znode's version and creation zxid. */
    record Entry<T>(T value, int version, long czxid) {
    }

    private final CuratorFramework client;
    private final String dir;
    private final Parser<T> parser;
    private final Runnable onChange;
    private final Executor events;
    private final Map<String, Entry<T>> entries = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Watcher watcher = this::onEvent;
    private volatile boolean closed;

    WatchedChildren(CuratorFramework client, String dir, Parser<T> parser, Runnable onChange, Executor events) {
        this.client = client;
        this.dir = dir;
        this.parser = parser;
        this.onChange = onChange;
        this.events = events;
    }

    String dir() {
        return dir;
    }

    /** Adds the watch (again, after a new session) and reads every child. */
    void watchAndLoad() throws Exception {
        client.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher(watcher).forPath(dir);
        refreshAll();
    }

    /** Every child, by name, as last read. A live view: copy it for a snapshot. */
    Map<String, Entry<T>> entries() {
        return entries;
    }

    Optional<Entry<T>> get(String child) {
        return Optional.ofNullable(entries.get(child));
    }

    /** Stops reacting to events (the store is closing). */
    void close() {
        closed = true;
    }

    private void onEvent(WatchedEvent event) {
        String path = event.getPath();
        if (path == null || !path.startsWith(dir + "/")) {
            return;
        }
        String rest = path.substring(dir.length() + 1);
        int slash = rest.indexOf('/');
        String child = slash < 0 ? rest : rest.substring(0, slash);
        events.execute(() -> {
            try {
                refresh(child);
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                LOG.warn("Could not read ZooKeeper node {}/{} after a change: {}", dir, child, e.toString());
            }
        });
    }

    /** Reads every child again, dropping those that are gone. */
    void refreshAll() throws Exception {
        boolean changed = false;
        lock.lock();
        try {
            Set<String> children = new java.util.HashSet<>(client.getChildren().forPath(dir));
            for (String child : children) {
                changed |= load(child);
            }
            for (String known : Set.copyOf(entries.keySet())) {
                if (!children.contains(known)) {
                    entries.remove(known);
                    changed = true;
                }
            }
        } finally {
            lock.unlock();
        }
        if (changed) {
            onChange.run();
        }
    }

    /** Reads one child again (gone: dropped). */
    void refresh(String child) throws Exception {
        boolean changed;
        lock.lock();
        try {
            changed = load(child);
        } finally {
            lock.unlock();
        }
        if (changed) {
            onChange.run();
        }
    }

    private boolean load(String child) throws Exception {
        Stat stat = new Stat();
        byte[] data;
        String path = dir + "/" + child;
        try {
            data = client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return entries.remove(child) != null;
        }
        Entry<T> old = entries.get(child);
        if (old != null && old.version() == stat.getVersion() && old.czxid() == stat.getCzxid()) {
            return false;
        }
        T value;
        try {
            value = parser.parse(child, data, stat);
        } catch (RuntimeException e) {
            LOG.warn("Ignoring ZooKeeper node {}: it cannot be read ({})", path, e.getMessage());
            return entries.remove(child) != null;
        }
        entries.put(child, new Entry<>(value, stat.getVersion(), stat.getCzxid()));
        return true;
    }
}
