package io.kaas.broker.it.sasl;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Every line logged (at DEBUG and above for the SASL handlers, INFO elsewhere) while open. */
final class LogCapture implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final Logger kaas = (Logger) LoggerFactory.getLogger("io.kaas.broker.handler.sasl");
    private final Level previous = kaas.getLevel();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCapture() {
        appender.start();
        root.addAppender(appender);
        kaas.setLevel(Level.DEBUG);
    }

    /** The formatted lines (with their key-values and any exception's message) so far. */
    List<String> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(LogCapture::text).toList();
        }
    }

    /** The lines of logger {@code loggerName} at {@code level} or above. */
    List<String> lines(String loggerName, Level level) {
        synchronized (appender.list) {
            return appender.list.stream().filter(e -> e.getLoggerName().equals(loggerName) && e.getLevel().isGreaterOrEqual(level))
                .map(LogCapture::text).toList();
        }
    }

    private static String text(ILoggingEvent e) {
        StringBuilder out = new StringBuilder(e.getFormattedMessage());
        if (e.getKeyValuePairs() != null) {
            e.getKeyValuePairs().forEach(kv -> out.append(' ').append(kv.key).append('=').append(kv.value));
        }
        if (e.getThrowableProxy() != null) {
            out.append(' ').append(e.getThrowableProxy().getMessage());
        }
        return out.toString();
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        kaas.setLevel(previous);
    }
}
