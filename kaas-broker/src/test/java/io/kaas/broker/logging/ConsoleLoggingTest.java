package io.kaas.broker.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConsoleLoggingTest {

    private final ClassLoader original = Thread.currentThread().getContextClassLoader();

    @AfterEach
    void restore() {
        Thread.currentThread().setContextClassLoader(original);
        System.clearProperty("logback.configurationFile");
        System.clearProperty(ConsoleLogging.KAAS_HOME);
    }

    @Test
    void withNoConfigurationFileSetsUpTheConsoleInKafkasLayout() throws Exception {
        LoggerContext context = new LoggerContext();
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
            Thread.currentThread().setContextClassLoader(bare);
            assertThat(configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        }
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(root.getAppender("CONSOLE")).isInstanceOfSatisfying(ConsoleAppender.class, console -> {
            assertThat(console.isStarted()).isTrue();
            assertThat(((PatternLayoutEncoder) console.getEncoder()).getPattern()).isEqualTo(ConsoleLogging.PATTERN);
        });
        assertThat(context.getLogger("org.pf4j").getLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("io.netty").getLevel()).isEqualTo(Level.INFO);
        context.stop();
    }

    @Test
    void standsAsideWhenAConfigurationFileIsNamed() throws Exception {
        LoggerContext context = new LoggerContext();
        System.setProperty("logback.configurationFile", "/somewhere/logback.xml");
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
            Thread.currentThread().setContextClassLoader(bare);
            assertThat(configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        }
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
    }

    @Test
    void standsAsideWhenALogbackTestXmlIsOnTheClassPath() {
        // This module's test resources hold a logback-test.xml.
        LoggerContext context = new LoggerContext();
        assertThat(configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
    }

    @Test
    void aBrokerStartedByTheScriptIgnoresLogbackFilesOnItsClassPath() {
        // bin/kaas-server-start.sh sets kaas.home; a CLASSPATH in its environment must not change its logging.
        System.setProperty(ConsoleLogging.KAAS_HOME, "/opt/kaas");
        LoggerContext context = new LoggerContext();
        assertThat(configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("CONSOLE")).isNotNull();
        context.stop();
    }

    private static ExecutionStatus configure(LoggerContext context) {
        ConsoleLogging logging = new ConsoleLogging();
        logging.setContext(context);
        return logging.configure(context);
    }
}
