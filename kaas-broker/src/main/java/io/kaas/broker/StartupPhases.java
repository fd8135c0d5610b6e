package io.kaas.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long each step of a broker's start-up took, on the thread that starts it: {@link #mark} ends a step; {@link
 * #log} writes them as one DEBUG line ({@code io.kaas.broker.StartupPhases}), e.g. {@code metrics 12 ms, admin 30 ms,
 * ...}. Costs two {@link System#nanoTime()} calls per step and nothing when DEBUG is off. Not thread-safe: the
 * starting thread alone marks.
 */
final class StartupPhases {

    private static final Logger LOG = LoggerFactory.getLogger(StartupPhases.class);

    private final long began = System.nanoTime();
    private final List<String> names = new ArrayList<>();
    private final List<Long> nanos = new ArrayList<>();
    private long last = began;

    /** Ends step {@code name}, begun where the previous one ended (or at construction). */
    void mark(String name) {
        long now = System.nanoTime();
        names.add(name);
        nanos.add(now - last);
        last = now;
    }

    /** The milliseconds since construction. */
    long elapsedMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    }

    /** One DEBUG line with every step's duration, for broker {@code nodeId}. */
    void log(int nodeId) {
        if (!LOG.isDebugEnabled()) {
            return;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(names.get(i)).append(' ')
                .append(String.format(java.util.Locale.ROOT, "%.1f", nanos.get(i) / 1e6)).append(" ms");
        }
        LOG.debug("broker {} start-up phases: {}", nodeId, out);
    }
}
