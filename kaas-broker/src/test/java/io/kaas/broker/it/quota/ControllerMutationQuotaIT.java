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
import io.kaas.wire.message.CreateTopicsRequestData;
import io.kaas.wire.message.CreateTopicsRequestData.CreatableTopic;
import io.kaas.wire.message.CreateTopicsResponseData;
import io.kaas.wire.message.CreateTopicsResponseData.CreatableTopicResult;
import io.kaas.wire.protocol.Errors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DeleteTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code controller_mutation_rate} (KIP-599) with the real Admin client: a quota of 2 partitions per second and a
 * burst of 2 (one window of one second), so one 4-partition topic empties the bucket for a second.
 */
class ControllerMutationQuotaIT {
    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dir).config("controller.quota.window.num", "1")
                .config("controller.quota.window.size.seconds", "1").start();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** Sets a client id's quota and waits until the broker has it in force (it follows the store's listener). */
    private static void quota(String clientId, Double rate) throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger("io.kaas.broker.quota.ClientQuotaManager");
        ListAppender<ILoggingEvent> inForce = new ListAppender<>();
        inForce.start();
        logger.addAppender(inForce);
        try (Admin admin = broker.admin()) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId)),
                    List.of(new ClientQuotaAlteration.Op("controller_mutation_rate", rate)))))
                    .all().get(20, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> inForce.list.stream()
                    .anyMatch(e -> e.getFormattedMessage().contains("client-id=" + clientId)));
        } finally {
            logger.detachAppender(inForce);
        }
    }

    private static Admin admin(String clientId) {
        return broker.admin(Map.of(AdminClientConfig.CLIENT_ID_CONFIG, clientId));
    }

    private static List<NewTopic> topics(String prefix, int count) {
        return java.util.stream.IntStream.range(0, count).mapToObj(i -> new NewTopic(prefix + i, 4, (short) 1)).toList();
    }

    @Test
    void overTheQuotaTopicsAreRefusedWithThrottlingQuotaExceededUnlessTheAdminRetries() throws Exception {
        quota("strict", 2.0);
        try (Admin admin = admin("strict")) {
            CreateTopicsResult refused = admin.createTopics(topics("strict-", 3),
                    new CreateTopicsOptions().retryOnQuotaViolation(false));
            refused.values().get("strict-0").get(20, TimeUnit.SECONDS);
            for (String t : List.of("strict-1", "strict-2")) {
                assertThatThrownBy(() -> refused.values().get(t).get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOf(ThrottlingQuotaExceededException.class)
                        .hasMessage("The throttling quota has been exceeded.")
                        .satisfies(e -> assertThat(((ThrottlingQuotaExceededException) e).throttleTimeMs())
                                .isBetween(1, 1000));
            }
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).contains("strict-0")
                    .doesNotContain("strict-1", "strict-2");

            // The default: the admin waits out throttle_time_ms and retries the refused topics until all are made.
            long began = System.nanoTime();
            admin.createTopics(topics("retried-", 3)).all().get(60, TimeUnit.SECONDS);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .contains("retried-0", "retried-1", "retried-2");
            // 12 partitions at 2/s from an empty bucket: at least about 4 s (6 s less the first topic's credit).
            assertThat(tookMs).isGreaterThan(3_000);

            // CreatePartitions and DeleteTopics are charged too (8 and 12 partitions: seconds of margin before the
            // bucket is back at zero, so the refusal right after does not depend on the machine's speed).
            Thread.sleep(3_000);
            admin.createPartitions(Map.of("strict-0", NewPartitions.increaseTo(12))).all().get(20, TimeUnit.SECONDS);
            assertThatThrownBy(() -> admin.createPartitions(Map.of("retried-0", NewPartitions.increaseTo(5)),
                    new CreatePartitionsOptions().retryOnQuotaViolation(false)).all().get(20, TimeUnit.SECONDS))
                    .cause().isInstanceOf(ThrottlingQuotaExceededException.class);
            Thread.sleep(4_500);
            admin.deleteTopics(List.of("strict-0")).all().get(20, TimeUnit.SECONDS);
            assertThatThrownBy(() -> admin.deleteTopics(List.of("retried-2"),
                    new DeleteTopicsOptions().retryOnQuotaViolation(false)).all().get(20, TimeUnit.SECONDS))
                    .cause().isInstanceOf(ThrottlingQuotaExceededException.class);
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).contains("retried-2")
                    .doesNotContain("strict-0");
        }
        try (Admin other = admin("unlimited")) {
            other.createTopics(topics("unlimited-", 5), new CreateTopicsOptions().retryOnQuotaViolation(false))
                    .all().get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void anOlderVersionIsNotRefusedButThrottled() throws Exception {
        quota("raw-client", 2.0);
        try (RawClient raw = new RawClient(broker.port())) {
            CreateTopicsRequestData request = new CreateTopicsRequestData().setTimeoutMs(10_000);
            for (String name : List.of("old-0", "old-1")) {
                request.topics().add(new CreatableTopic().setName(name).setNumPartitions(4).setReplicationFactor((short) -1));
            }
            raw.send(ApiMessageType.CREATE_TOPICS, (short) 5, 1, request);
            CreateTopicsResponseData response = raw.<CreateTopicsResponseData>read(ApiMessageType.CREATE_TOPICS,
                    (short) 5).body();
            assertThat(response.topics()).extracting(CreatableTopicResult::errorCode).containsOnly(Errors.NONE);
            // 8 partitions from a bucket of 2: -6 tokens, 3 s to refill at 2/s (less the time creating them took).
            assertThat(response.throttleTimeMs()).isBetween(1_000, 3_000);
            long sent = System.nanoTime();
            raw.send(ApiMessageType.API_VERSIONS, (short) 3, 2, new ApiVersionsRequestData()
                    .setClientSoftwareName("raw").setClientSoftwareVersion("1"));
            raw.readApiVersions((short) 3);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent))
                    .as("the connection is muted for the throttle time").isGreaterThan(response.throttleTimeMs() - 300L);
        }
    }

    @Test
    void badQuotaValuesAreRefusedWithKafkasError() {
        assertThatThrownBy(() -> quota("bad", -1.0)).cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("Quota controller_mutation_rate must be greater than 0");
        assertThatThrownBy(() -> quota("bad", 0.0)).cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("Quota controller_mutation_rate must be greater than 0");
    }

}
