package io.kaas.broker.it.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Connection creation rates (KIP-612) and the dynamic {@code max.connections*} configs, with raw sockets from
 * other loopback addresses (127.0.0.2 and up, so the admin's own connections from 127.0.0.1 stay out of the way)
 * and the Java clients. Rates over two windows of one second: a rate is measured over at least one second.
 */
@Timeout(120)
class ConnectionQuotasIT {
    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dir).config("quota.window.num", "2").config("quota.window.size.seconds", "1")
                .start();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** Sets (or with null removes) an ip entity's quota and waits until the broker has it in force. */
    private static void ipQuota(String ip, Double rate) throws Exception {
        // the broker takes a stored quota change from the store's listener, and logs the rates in force
        String logger = "io.kaas.broker.quota.ConnectionRateQuotas";
        ListAppender<ILoggingEvent> inForce = capture(logger);
        try (Admin admin = broker.admin()) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP, ip)),
                    List.of(new ClientQuotaAlteration.Op("connection_creation_rate", rate)))))
                    .all().get(20, TimeUnit.SECONDS);
            // the line of this change, not a late one of an earlier change: it names the address while it has a quota
            String named = "/" + ip + "=";
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> List.copyOf(inForce.list).stream()
                    .map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.startsWith("connection_creation_rate quotas in force"))
                    .anyMatch(m -> m.contains(named) == (rate != null)));
        } finally {
            ((Logger) LoggerFactory.getLogger(logger)).detachAppender(inForce);
        }
    }

    /** Sets (or with null removes) a cluster-default broker config and waits until the broker applied it. */
    private static void brokerDefault(String key, String value) throws Exception {
        // every broker applies a stored change on its own scheduler thread, and logs it
        ListAppender<ILoggingEvent> applied = capture("io.kaas.broker.topic.DynamicBrokerConfigApplier");
        try (Admin admin = broker.admin()) {
            AlterConfigOp op = value == null
                    ? new AlterConfigOp(new ConfigEntry(key, ""), AlterConfigOp.OpType.DELETE)
                    : new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, List.of(op))).all().get(20, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !applied.list.isEmpty());
        } finally {
            ((Logger) LoggerFactory.getLogger("io.kaas.broker.topic.DynamicBrokerConfigApplier")).detachAppender(applied);
        }
    }

    /** An ApiVersions round trip from {@code local}; false if the broker closed the connection instead. */
    private static boolean served(RawClient c, int correlationId) throws Exception {
        try {
            c.send(ApiMessageType.API_VERSIONS, (short) 3, correlationId,
                    new ApiVersionsRequestData().setClientSoftwareName("raw").setClientSoftwareVersion("1"));
            return c.readApiVersions((short) 3).correlationId() == correlationId;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void closeAll(List<RawClient> clients) {
        for (RawClient c : clients) {
            try {
                c.close();
            } catch (Exception e) {
                // closed by the broker already
            }
        }
    }

    private static ListAppender<ILoggingEvent> capture(String logger) {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        ((Logger) LoggerFactory.getLogger(logger)).addAppender(log);
        return log;
    }

    @Test
    void anAddressOverItsConnectionCreationRateIsClosedAndTheLogNamesIt() throws Exception {
        ipQuota("127.0.0.2", 2.0);
        ListAppender<ILoggingEvent> log = capture("io.kaas.broker.network.ConnectionLimitHandler");
        List<RawClient> clients = new ArrayList<>();
        try {
            // A burst of five: whatever the scheduling, the rate (over at least one and under two windows) passes
            // 2 per second before the fifth, and the first two the broker counts are within it.
            for (int i = 0; i < 5; i++) {
                clients.add(new RawClient(broker.port(), "127.0.0.2"));
            }
            List<Boolean> served = new ArrayList<>();
            for (int i = 0; i < clients.size(); i++) {
                served.add(served(clients.get(i), i + 1));
            }
            // each connection is counted on its own event loop, so which two come first is not the clients' order
            assertThat(served.stream().filter(b -> b).count()).as("two at least are within the quota")
                    .isGreaterThanOrEqualTo(2);
            assertThat(served).as("over 2 connections per second: closed").contains(false);
            try (RawClient other = new RawClient(broker.port(), "127.0.0.3")) {
                assertThat(served(other, 3)).as("another address has no quota").isTrue();
            }
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).anySatisfy(m -> assertThat(m)
                    .startsWith("Closing connection from /127.0.0.2 after ")
                    .endsWith("its address is over its connection_creation_rate quota of 2 connections per second"));
            Thread.sleep(2_100);
            try (RawClient later = new RawClient(broker.port(), "127.0.0.2")) {
                assertThat(served(later, 4)).as("once the rate fell back").isTrue();
            }
        } finally {
            ((Logger) LoggerFactory.getLogger("io.kaas.broker.network.ConnectionLimitHandler")).detachAppender(log);
            closeAll(clients);
            ipQuota("127.0.0.2", null);
        }
    }

    @Test
    void theJavaProducerGetsThroughUnderAConnectionRateQuota() throws Exception {
        broker.createTopic("rated", 1);
        ipQuota("127.0.0.1", 1.0);
        try (KafkaProducer<String, String> producer = broker.producer()) {
            // bootstrap + broker connection in the same second: the second is closed, the client reconnects.
            producer.send(new ProducerRecord<>("rated", 0, "k", "v")).get(30, TimeUnit.SECONDS);
        } finally {
            Thread.sleep(1_100);
            ipQuota("127.0.0.1", null);
        }
    }

    @Test
    void theBrokerWideCreationRateDelaysConnectionsInsteadOfClosingThem() throws Exception {
        brokerDefault("max.connection.creation.rate", "2");
        try {
            Thread.sleep(1_100); // the admin's own connections out of the rate
            long began = System.nanoTime();
            List<RawClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    clients.add(new RawClient(broker.port(), "127.0.0.4"));
                }
                for (int i = 0; i < clients.size(); i++) {
                    assertThat(served(clients.get(i), i)).as("connection %d delayed, not closed", i).isTrue();
                }
            } finally {
                closeAll(clients);
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isGreaterThan(900);
        } finally {
            brokerDefault("max.connection.creation.rate", null);
        }
    }

    @Test
    void aListenersOwnCreationRateChangesAtRunTimeAndDelaysItsConnections() throws Exception {
        String key = "listener.name.plaintext.max.connection.creation.rate";
        String logger = "io.kaas.broker.quota.ConnectionRateQuotas";
        ListAppender<ILoggingEvent> updated = capture(logger);
        try {
            brokerDefault(key, "2");
            assertThat(List.copyOf(updated.list)).extracting(ILoggingEvent::getFormattedMessage)
                    .contains("Updating max.connection.creation.rate of listener PLAINTEXT: (none) -> 2");
            try (Admin admin = broker.admin()) {
                ConfigEntry entry = admin.describeConfigs(List.of(CLUSTER_DEFAULT)).all().get(20, TimeUnit.SECONDS)
                        .get(CLUSTER_DEFAULT).get(key);
                assertThat(entry.value()).isEqualTo("2");
                assertThat(entry.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
            }
            Thread.sleep(1_100); // the admin's own connections out of the rate
            long began = System.nanoTime();
            List<RawClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    clients.add(new RawClient(broker.port(), "127.0.0.6"));
                }
                for (int i = 0; i < clients.size(); i++) {
                    assertThat(served(clients.get(i), i)).as("connection %d delayed, not closed", i).isTrue();
                }
            } finally {
                closeAll(clients);
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).as("held to 2 per second")
                    .isGreaterThan(900);
        } finally {
            brokerDefault(key, null);
            ((Logger) LoggerFactory.getLogger(logger)).detachAppender(updated);
        }
        assertThat(List.copyOf(updated.list)).extracting(ILoggingEvent::getFormattedMessage)
                .contains("Updating max.connection.creation.rate of listener PLAINTEXT: 2 -> (none)");
    }

    @Test
    void maxConnectionsPerIpAndItsOverridesChangeAtRunTime() throws Exception {
        brokerDefault("max.connections.per.ip", "2");
        List<RawClient> clients = new ArrayList<>();
        try {
            clients.add(new RawClient(broker.port(), "127.0.0.5"));
            clients.add(new RawClient(broker.port(), "127.0.0.5"));
            assertThat(served(clients.get(0), 1)).isTrue();
            try (RawClient third = new RawClient(broker.port(), "127.0.0.5")) {
                assertThat(third.closedByServer()).as("max.connections.per.ip=2, set at run time").isTrue();
            }
            brokerDefault("max.connections.per.ip.overrides", "127.0.0.5:3");
            clients.add(new RawClient(broker.port(), "127.0.0.5"));
            assertThat(served(clients.get(2), 2)).as("the override lets a third in").isTrue();
        } finally {
            closeAll(clients);
            brokerDefault("max.connections.per.ip.overrides", null);
            brokerDefault("max.connections.per.ip", null);
        }
    }

    @Test
    void badValuesAreRefusedWithKafkasErrorAndNothingIsStored() throws Exception {
        assertThatThrownBy(() -> brokerDefault("max.connections.per.ip.overrides", "127.0.0.1:abc"))
                .cause().isInstanceOf(InvalidRequestException.class).hasMessage("For input string: \"abc\"");
        assertThatThrownBy(() -> brokerDefault("max.connections.per.ip.overrides", "nocolon"))
                .cause().isInstanceOf(InvalidRequestException.class).hasMessage(
                        "Error parsing configuration property 'max.connections.per.ip.overrides': begin 0, end -1, length 7");
        assertThatThrownBy(() -> brokerDefault("max.connections.per.ip.overrides", "bad host!:3"))
                .cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("max.connections.per.ip.overrides contains invalid addresses : bad host!");
        assertThatThrownBy(() -> brokerDefault("max.connections", "-1"))
                .cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("Invalid value -1 for configuration max.connections: Value must be at least 0");
        // a listener's rate is checked as its base key, then as Kafka's listener quota (in its wrapped words)
        assertThatThrownBy(() -> brokerDefault("listener.name.plaintext.max.connection.creation.rate", "abc"))
                .cause().isInstanceOf(InvalidRequestException.class).hasMessage(
                        "Invalid value abc for configuration max.connection.creation.rate: Not a number of type INT");
        assertThatThrownBy(() -> brokerDefault("listener.name.plaintext.max.connection.creation.rate", "0"))
                .cause().isInstanceOf(InvalidRequestException.class).hasMessage("Invalid value "
                        + "org.apache.kafka.common.config.ConfigException: Invalid max.connection.creation.rate 0 for "
                        + "configuration Invalid dynamic configuration");
        assertThatThrownBy(() -> brokerDefault("max.connection.creation.rate", "0"))
                .cause().isInstanceOf(InvalidRequestException.class).hasMessage("Invalid value "
                        + "org.apache.kafka.common.config.ConfigException: Invalid max.connection.creation.rate 0 for "
                        + "configuration Invalid dynamic configuration");
        assertThatThrownBy(() -> brokerDefault("max.connections", "0"))
                .cause().isInstanceOf(InvalidRequestException.class).hasMessage("Invalid value "
                        + "org.apache.kafka.common.config.ConfigException: Invalid max.connections 0 for "
                        + "configuration Invalid dynamic configuration");
        assertThatThrownBy(() -> ipQuota("127.0.0.9", -3.0)).cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("Quota connection_creation_rate must be greater than 0");
        assertThatThrownBy(() -> ipQuota("127.0.0.9", 2.5)).cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("connection_creation_rate cannot be a fractional value.");
        try (Admin admin = broker.admin()) {
            assertThat(admin.describeConfigs(List.of(CLUSTER_DEFAULT)).all().get(20, TimeUnit.SECONDS)
                    .get(CLUSTER_DEFAULT).entries()).extracting(ConfigEntry::name)
                    .doesNotContain("max.connections.per.ip.overrides", "max.connections",
                            "listener.name.plaintext.max.connection.creation.rate");
        }
    }
}
