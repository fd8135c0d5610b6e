package io.kaas.broker.it.interbroker;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** The lines the inter-broker package logs while open. */
final class InterBrokerLog implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger("io.kaas.broker.interbroker");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    InterBrokerLog() {
        appender.start();
        logger.addAppender(appender);
    }

    List<String> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
    }
}
