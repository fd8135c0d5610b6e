package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the store's listeners of its changes on one thread of its own, one call at a time, in the order of the
 * changes. A listener that throws is logged and the others are still told.
 */
final class ListenerDispatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerDispatch.class);
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final Path dir;
    private final List<ClusterListener> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService thread;
    private volatile Thread dispatching;

    ListenerDispatch(Path dir) {
        this.dir = dir;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kaas-files-cluster-events");
            t.setDaemon(true);
            dispatching = t;
            return t;
        });
    }

    void add(ClusterListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void remove(ClusterListener listener) {
        listeners.remove(listener);
    }

    /** Tells every listener registered when the call runs; nothing once closed. */
    void tell(String what, Consumer<ClusterListener> call) {
        run(what, () -> listeners.forEach(l -> call.accept(l)));
    }

    /** Runs {@code call} on the listener thread, after every call submitted before it. */
    void run(String what, Runnable call) {
        try {
            thread.execute(() -> {
                try {
                    call.run();
                } catch (RuntimeException e) {
                    LOG.atWarn().setMessage("A listener of the cluster store {} failed on {}").addArgument(dir)
                            .addArgument(what).setCause(e).addKeyValue("event", what).log();
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.atDebug().setMessage("Not telling of {}: the cluster store {} is closed").addArgument(what)
                    .addArgument(dir).log();
        }
    }

    /** Delivers what was submitted (waiting a bounded time unless called by a listener), then stops. */
    @Override
    public void close() {
        thread.shutdown();
        if (Thread.currentThread() == dispatching) {
            return;
        }
        try {
            if (!thread.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.atWarn().setMessage("Listeners of the cluster store {} did not return within {} s of its close")
                        .addArgument(dir).addArgument(CLOSE_WAIT_SECONDS).log();
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.shutdownNow();
        }
    }
}
