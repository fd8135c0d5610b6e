package io.kaas.coordinator.transaction;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures what a class logs, for tests that check a failure is reported. */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Level previous;

    /** Captures from INFO up while open (the tests' root level is WARN). */
    public LogCapture(Class<?> type) {
        logger = (Logger) LoggerFactory.getLogger(type);
        previous = logger.getLevel();
        if (!logger.isInfoEnabled()) {
            logger.setLevel(Level.INFO);
        }
        appender.start();
        logger.addAppender(appender);
    }

    /** The formatted messages logged at {@code level} or above. */
    public List<String> messages(Level level) {
        synchronized (appender.list) {
            return appender.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(level))
                    .map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previous);
    }
}
