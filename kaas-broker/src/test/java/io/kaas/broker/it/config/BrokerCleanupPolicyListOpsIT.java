package io.kaas.broker.it.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * APPEND and SUBTRACT on a broker's {@code log.cleanup.policy} start from its default when no dynamic value is stored,
 * as Kafka's controller does (librdkafka's 0081_admin: APPEND compact, then SUBTRACT compact, leaves {@code delete});
 * the empty list is allowed, as in Kafka 4.4; a value Kafka refuses (an unknown, empty or repeated element) is refused
 * with Kafka's message and nothing is stored, so DescribeConfigs and keyless produces to new topics keep working.
 */
@Timeout(90)
class BrokerCleanupPolicyListOpsIT {
    private static final ConfigResource BROKER_1 = new ConfigResource(ConfigResource.Type.BROKER, "1");
    private static final String KEY = "log.cleanup.policy";

    @TempDir
    Path dir;

    private static void alter(Admin admin, AlterConfigOp.OpType op, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(BROKER_1, List.of(new AlterConfigOp(new ConfigEntry(KEY, value), op))))
                .all().get(20, TimeUnit.SECONDS);
    }

    private static String described(Admin admin) throws Exception {
        return admin.describeConfigs(List.of(BROKER_1)).all().get(20, TimeUnit.SECONDS).get(BROKER_1).get(KEY).value();
    }

    private static Throwable failure(Admin admin, AlterConfigOp.OpType op, String value) {
        try {
            alter(admin, op, value);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void appendThenSubtractStartFromTheDefaultAndABrokenValueIsRefused() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("auto.create.topics.enable", "true").start();
             Admin admin = broker.admin()) {
            alter(admin, AlterConfigOp.OpType.APPEND, "compact");
            assertThat(described(admin)).as("APPEND to the default delete").isEqualTo("delete,compact");
            alter(admin, AlterConfigOp.OpType.SUBTRACT, "compact");
            assertThat(described(admin)).as("SUBTRACT from the stored delete,compact").isEqualTo("delete");

            // Kafka 4.4: the empty list is allowed (no cleanup policy at all)
            alter(admin, AlterConfigOp.OpType.SUBTRACT, "delete");
            assertThat(described(admin)).as("SUBTRACT of the last policy leaves the empty list").isEmpty();
            alter(admin, AlterConfigOp.OpType.SET, "delete");
            assertThat(failure(admin, AlterConfigOp.OpType.SET, "delete,shred"))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("Invalid value shred for configuration log.cleanup.policy: "
                            + "String must be one of: compact, delete");
            assertThat(failure(admin, AlterConfigOp.OpType.SET, "delete,delete"))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("Configuration 'log.cleanup.policy' values must not be duplicated.");
            assertThat(failure(admin, AlterConfigOp.OpType.SET, "delete,"))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("Configuration 'log.cleanup.policy' values must not be empty.");
            assertThat(described(admin)).as("nothing refused was stored").isEqualTo("delete");

            // a new topic takes the delete default: a keyless record is accepted
            try (KafkaProducer<String, String> producer = broker.producer()) {
                producer.send(new ProducerRecord<>("after-list-ops", null, "keyless")).get(20, TimeUnit.SECONDS);
            }
        }
    }
}
