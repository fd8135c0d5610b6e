package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.topic.TopicManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The log lines of topic changes name the topic, what changed and who asked: principal, client id and address. */
class TopicChangeLogIT {
    private final Logger logger = (Logger) LoggerFactory.getLogger(TopicManager.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @TempDir
    Path dir;

    @BeforeEach
    void capture() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
    }

    @Test
    void createAlterAndDeleteNameTheTopicTheChangeAndTheRequester() throws Exception {
        try (TestBroker broker = TestBroker.start(dir.resolve("data"));
             Admin admin = broker.admin(Map.of(AdminClientConfig.CLIENT_ID_CONFIG, "ops-tool"))) {
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1)
                    .configs(Map.of("retention.ms", "3600000")))).all().get();
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .contains("Topic orders created with 3 partitions and configs {retention.ms=3600000} by User:ANONYMOUS")
                    .contains("client id 'ops-tool' at /127.0.0.1:"));

            ConfigResource orders = new ConfigResource(ConfigResource.Type.TOPIC, "orders");
            admin.incrementalAlterConfigs(Map.of(orders, List.of(
                    new AlterConfigOp(new ConfigEntry("retention.ms", "7200000"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("cleanup.policy", "delete"), AlterConfigOp.OpType.SET)))).all().get();
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .contains("Configs of topic orders changed by User:ANONYMOUS (client id 'ops-tool' at /127.0.0.1:")
                    .endsWith("{cleanup.policy=delete, retention.ms=7200000}"));
            admin.incrementalAlterConfigs(Map.of(orders, List.of(
                    new AlterConfigOp(new ConfigEntry("retention.ms", ""), AlterConfigOp.OpType.DELETE)))).all().get();
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .contains("Configs of topic orders changed by User:ANONYMOUS").endsWith("{retention.ms=(default)}"));

            admin.deleteTopics(List.of("orders")).all().get();
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .contains("Topic orders deleted by User:ANONYMOUS (client id 'ops-tool' at /127.0.0.1:"));
        }
    }

    @Test
    void aTopicCreatedByTheBrokerItselfSaysSo() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("auto.create.topics.enable", "true").start()) {
            broker.producer().send(new org.apache.kafka.clients.producer.ProducerRecord<>("auto", "v")).get();
            assertThat(lines()).anySatisfy(l -> assertThat(l)
                    .isEqualTo("Topic auto created with 1 partitions and configs {} by the broker"));
        }
    }

    private List<String> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }
}
