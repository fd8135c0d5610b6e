package io.kaas.broker.it.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Broker-config and group-config changes are logged naming the entity, the keys (old -> new) and who asked. */
class ConfigChangeLogIT {
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final List<Logger> loggers = List.of(
            (Logger) LoggerFactory.getLogger("io.kaas.broker.handler.BrokerConfigChanges"),
            (Logger) LoggerFactory.getLogger("io.kaas.broker.handler.GroupConfigChanges"));

    @TempDir
    Path dir;

    @BeforeEach
    void capture() {
        appender.start();
        loggers.forEach(l -> l.addAppender(appender));
    }

    @AfterEach
    void release() {
        loggers.forEach(l -> l.detachAppender(appender));
    }

    private List<String> lines() {
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static AlterConfigOp set(String key, String value) {
        return new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET);
    }

    @Test
    void brokerAndGroupConfigChangesNameTheEntityTheKeysAndTheRequester() throws Exception {
        try (TestBroker broker = TestBroker.start(dir.resolve("data"));
             Admin admin = broker.admin(Map.of(AdminClientConfig.CLIENT_ID_CONFIG, "ops-tool"))) {
            ConfigResource clusterDefault = new ConfigResource(ConfigResource.Type.BROKER, "");
            ConfigResource broker1 = new ConfigResource(ConfigResource.Type.BROKER, "1");
            admin.incrementalAlterConfigs(Map.of(clusterDefault, List.of(set("log.retention.ms", "3600000"))))
                    .all().get(20, TimeUnit.SECONDS);
            admin.incrementalAlterConfigs(Map.of(clusterDefault, List.of(set("log.retention.ms", "7200000"),
                    set("custom.token", "s3cret")))).all().get(20, TimeUnit.SECONDS);
            admin.incrementalAlterConfigs(Map.of(broker1, List.of(set("log.segment.bytes", "1048576"))))
                    .all().get(20, TimeUnit.SECONDS);
            admin.incrementalAlterConfigs(Map.of(broker1, List.of(new AlterConfigOp(
                    new ConfigEntry("log.segment.bytes", ""), AlterConfigOp.OpType.DELETE)))).all().get(20, TimeUnit.SECONDS);
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .startsWith("Dynamic broker configs of the cluster default changed by User:ANONYMOUS "
                            + "(client id 'ops-tool' at /127.0.0.1:")
                    .endsWith("{log.retention.ms=(default) -> 3600000}"));
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .endsWith("{custom.token=(default) -> [hidden], log.retention.ms=3600000 -> 7200000}"));
            assertThat(lines()).anySatisfy(l -> assertThat(l).startsWith("Dynamic broker configs of broker 1 changed by")
                    .endsWith("{log.segment.bytes=(default) -> 1048576}"));
            assertThat(lines()).anySatisfy(l -> assertThat(l).startsWith("Dynamic broker configs of broker 1 changed by")
                    .endsWith("{log.segment.bytes=1048576 -> (default)}"));
            assertThat(lines()).noneMatch(l -> l.contains("s3cret"));

            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, "billing");
            admin.incrementalAlterConfigs(Map.of(group, List.of(set("consumer.session.timeout.ms", "50000"))))
                    .all().get(20, TimeUnit.SECONDS);
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .startsWith("Configs of group billing changed by User:ANONYMOUS (client id 'ops-tool' at /127.0.0.1:")
                    .endsWith("{consumer.session.timeout.ms=(default) -> 50000}"));

            int before = appender.list.size();
            admin.incrementalAlterConfigs(Map.of(group, List.of(set("consumer.session.timeout.ms", "55000"))),
                    new AlterConfigsOptions().validateOnly(true)).all().get(20, TimeUnit.SECONDS);
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(clusterDefault,
                    List.of(set("log.retention.ms", "soon")))).all().get(20, TimeUnit.SECONDS))
                    .hasMessageContaining("Invalid value soon for configuration log.retention.ms");
            assertThat(appender.list).as("validate-only and refused changes log no change").hasSize(before);
        }
    }
}
