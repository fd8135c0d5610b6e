package io.kaas.broker.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The broker's default logging, set up in code: INFO and above to the console in Kafka's layout, Netty
 * at INFO, PF4J at WARN (kaas logs each plugin itself). Configuring Logback in code instead of from an
 * XML file takes about 50 ms off start-up (no XML parser, no Joran), which is why the distribution
 * ships no {@code logback.xml} by default.
 *
 * <p>Stands aside, so Logback's own search applies, when a configuration file is named with the
 * {@code logback.configurationFile} system property ({@code bin/kaas-server-start.sh} sets it when
 * {@code config/logback.xml} exists or {@code KAAS_LOG_CONFIG} is set). A broker started by that
 * script ({@code kaas.home} is set) otherwise always logs this way, whatever its class path holds; an
 * application that embeds the broker keeps its own {@code logback-test.xml} or {@code logback.xml}.
 */
public final class ConsoleLogging extends ContextAwareBase implements Configurator {

    /** The layout of the distribution's {@code config/logback-example.xml}, Kafka's console layout. */
    public static final String PATTERN = "[%d{ISO8601}] %-5level [%thread] %logger{36} - %msg%n";

    /** Set by {@code bin/kaas-server-start.sh} to the installation folder. */
    static final String KAAS_HOME = "kaas.home";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (anotherConfigurationApplies()) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("CONSOLE");
        console.setEncoder(encoder);
        console.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        context.getLogger("io.netty").setLevel(Level.INFO);
        context.getLogger("org.pf4j").setLevel(Level.WARN);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** A named file always; a logback(-test).xml resource unless the start script launched this broker. */
    private static boolean anotherConfigurationApplies() {
        String file = System.getProperty("logback.configurationFile");
        if (file != null && !file.isBlank()) {
            return true;
        }
        if (System.getProperty(KAAS_HOME) != null) {
            return false;
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ClassLoader.getSystemClassLoader();
        }
        return loader.getResource("logback-test.xml") != null || loader.getResource("logback.xml") != null;
    }
}
