package io.kaas.engine.segments.internal;

import java.io.Closeable;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes the channels of deleted segments after a delay, because a {@link io.kaas.api.storage.FileSlice}
 * handed to the broker may still be being sent. Whatever is still pending closes with the engine.
 */
final class DeferredCloser implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(DeferredCloser.class);

    private final long delayMs;
    private final ScheduledExecutorService scheduler;
    private final Set<Closeable> pending = ConcurrentHashMap.newKeySet();

    DeferredCloser(long delayMs) {
        this.delayMs = delayMs;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kaas-segments-closer");
            t.setDaemon(true);
            return t;
        });
    }

    void closeLater(Closeable resource) {
        pending.add(resource);
        scheduler.schedule(() -> closeNow(resource), delayMs, TimeUnit.MILLISECONDS);
    }

    private void closeNow(Closeable resource) {
        if (!pending.remove(resource)) {
            return;
        }
        try {
            resource.close();
        } catch (IOException e) {
            LOG.atWarn().setCause(e).setMessage("could not close a deleted segment").log();
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        for (Closeable c : Set.copyOf(pending)) {
            closeNow(c);
        }
    }
}
