package io.kaas.broker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGTERM and SIGINT handling through {@code sun.misc.Signal}, so that a graceful stop exits 0 (the
 * JVM's default for SIGTERM is 143). Where the signal API is unavailable the shutdown hook alone
 * still drains and fsyncs.
 */
final class Signals {

    private static final Logger LOG = LoggerFactory.getLogger(Signals.class);

    private Signals() {
    }

    static void onTermination(Runnable action) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    LOG.atInfo().log("SIG{} received: shutting down", name);
                    new Thread(action, "kaas-signal-" + name).start();
                });
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                LOG.atDebug().log("cannot handle SIG{}: {}", name, e.getMessage());
            }
        }
    }
}
