package io.kaas.cluster.zookeeper.internal;

import java.util.Optional;
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
 * One node, parsed, kept current by a persistent watch, with the same ordering rule as {@link WatchedChildren}.
 *
 * @param <T> what the node parses to
 */
final class WatchedNode<T> {
    private static final Logger LOG = LoggerFactory.getLogger(WatchedNode.class);

    private final CuratorFramework client;
    private final String path;
    private final WatchedChildren.Parser<T> parser;
    private final Runnable onChange;
    private final Executor events;
    private final ReentrantLock lock = new ReentrantLock();
    private final Watcher watcher = this::onEvent;
    private volatile boolean closed;
    private volatile WatchedChildren.Entry<T> entry;

    WatchedNode(CuratorFramework client, String path, WatchedChildren.Parser<T> parser, Runnable onChange, Executor events) {
        this.client = client;
        this.path = path;
        this.parser = parser;
        this.onChange = onChange;
        this.events = events;
    }

    void watchAndLoad() throws Exception {
        client.watchers().add().withMode(AddWatchMode.PERSISTENT).usingWatcher(watcher).forPath(path);
        refresh();
    }

    Optional<WatchedChildren.Entry<T>> get() {
        return Optional.ofNullable(entry);
    }

    /** Stops reacting to events (the store is closing). */
    void close() {
        closed = true;
    }

    private void onEvent(WatchedEvent event) {
        if (path.equals(event.getPath())) {
            events.execute(() -> {
                try {
                    refresh();
                } catch (Exception e) {
                    LOG.warn("Could not read ZooKeeper node {} after a change: {}", path, e.toString());
                }
            });
        }
    }

    void refresh() throws Exception {
        boolean changed;
        lock.lock();
        try {
            changed = load();
        } finally {
            lock.unlock();
        }
        if (changed) {
            onChange.run();
        }
    }

    private boolean load() throws Exception {
        Stat stat = new Stat();
        byte[] data;
        try {
            data = client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            boolean had = entry != null;
            entry = null;
            return had;
        }
        WatchedChildren.Entry<T> old = entry;
        if (old != null && old.version() == stat.getVersion() && old.czxid() == stat.getCzxid()) {
            return false;
        }
        try {
            entry = new WatchedChildren.Entry<>(parser.parse(path, data, stat), stat.getVersion(), stat.getCzxid());
        } catch (RuntimeException e) {
            LOG.warn("Ignoring ZooKeeper node {}: it cannot be read ({})", path, e.getMessage());
            entry = null;
            return old != null;
        }
        return true;
    }
}
