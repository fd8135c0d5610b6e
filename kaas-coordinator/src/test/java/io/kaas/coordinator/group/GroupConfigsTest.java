package io.kaas.coordinator.group;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Kafka's group-config validation and the consumer protocol honouring a group's own timeouts. */
class GroupConfigsTest {
    @TempDir
    Path dir;
    ManualTimer timer;
    InMemoryStore store;
    EngineOffsets offsetsLog;
    GroupCoordinator coordinator;

    @BeforeEach
    void setUp() throws IOException {
        timer = new ManualTimer();
        store = new InMemoryStore().withTopic("orders", 2);
        offsetsLog = EngineOffsets.open(dir);
        coordinator = new GroupCoordinator(store, GroupCoordinatorConfig.defaults(), timer, offsetsLog);
        coordinator.start();
        offsetsLog.gainAll(coordinator);
    }

    @AfterEach
    void tearDown() throws IOException {
        coordinator.close();
        offsetsLog.close();
    }

    private GroupConfigs configs() {
        return coordinator.groupConfigs();
    }

    private static void refused(Runnable r, short code, String message) {
        assertThatThrownBy(r::run).isInstanceOf(GroupConfigException.class).hasMessage(message)
                .extracting(e -> ((GroupConfigException) e).errorCode()).isEqualTo(code);
    }

    @Test
    void describeListsEveryKafkaGroupConfigWithTheBrokerDefaultsThenTheOverrides() {
        assertThat(configs().describe("g")).extracting(v -> v.def().name()).containsExactly(
                "consumer.session.timeout.ms", "consumer.heartbeat.interval.ms", "consumer.assignment.interval.ms",
                "share.session.timeout.ms",
                "share.heartbeat.interval.ms", "share.record.lock.duration.ms", "share.auto.offset.reset",
                "share.isolation.level", "streams.session.timeout.ms", "streams.heartbeat.interval.ms",
                "streams.num.standby.replicas");
        assertThat(configs().describe("g")).allMatch(v -> !v.override());
        configs().alter("g", Map.of("consumer.session.timeout.ms", "50000"), false);
        assertThat(configs().describe("g").get(0)).isEqualTo(new GroupConfigs.Value(
                GroupConfigDef.get("consumer.session.timeout.ms"), "50000", true));
        assertThat(configs().describe("g").get(1).value()).isEqualTo("5000");
        assertThat(configs().groupIds()).containsExactly("g");
    }

    @Test
    void validateOnlyStoresNothing() {
        configs().alter("g", Map.of("consumer.heartbeat.interval.ms", "6000"), true);
        assertThat(store.groupConfigs).isEmpty();
    }

    @Test
    void refusesWhatKafkaRefusesWithItsMessages() {
        refused(() -> configs().alter("", Map.of(), false), Errors.INVALID_REQUEST, "Default group resources are not allowed.");
        refused(() -> configs().describe(""), Errors.INVALID_REQUEST, "Group name must not be empty");
        refused(() -> configs().alter("g", Map.of("session.timeout.ms", "1"), false), Errors.INVALID_CONFIG,
                "Unknown group config name: session.timeout.ms");
        refused(() -> configs().alter("g", Map.of("consumer.session.timeout.ms", "abc"), false), Errors.INVALID_CONFIG,
                "Invalid value abc for configuration consumer.session.timeout.ms: Not a number of type INT");
        refused(() -> configs().alter("g", Map.of("consumer.session.timeout.ms", "0"), false), Errors.INVALID_CONFIG,
                "Invalid value 0 for configuration consumer.session.timeout.ms: Value must be at least 1");
        refused(() -> configs().alter("g", Map.of("consumer.session.timeout.ms", "44999"), false), Errors.INVALID_CONFIG,
                "consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.");
        refused(() -> configs().alter("g", Map.of("consumer.session.timeout.ms", "60001"), false), Errors.INVALID_CONFIG,
                "consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.");
        refused(() -> configs().alter("g", Map.of("consumer.heartbeat.interval.ms", "4999"), false), Errors.INVALID_CONFIG,
                "consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.");
        refused(() -> configs().alter("g", Map.of("consumer.heartbeat.interval.ms", "15001"), false), Errors.INVALID_CONFIG,
                "consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.");
        refused(() -> configs().alter("g", Map.of("share.isolation.level", "dirty"), false), Errors.INVALID_CONFIG,
                "Invalid value dirty for configuration share.isolation.level: String must be one of: read_committed, "
                        + "read_uncommitted");
        refused(() -> configs().alter("g", Map.of("streams.num.standby.replicas", "3"), false), Errors.INVALID_CONFIG,
                "streams.num.standby.replicas must be less than or equal to 2");
        refused(() -> configs().alter("g", Map.of("share.auto.offset.reset", "by_duration:PT-1S"), false),
                Errors.INVALID_CONFIG, "Invalid value by_duration:PT-1S for configuration share.auto.offset.reset: "
                        + "Invalid value `by_duration:PT-1S` for configuration share.auto.offset.reset. The value must be "
                        + "either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.");
        refused(() -> configs().alter("g", Map.of("share.auto.offset.reset", "never"), false), Errors.INVALID_CONFIG,
                "Invalid value never for configuration share.auto.offset.reset: Invalid value `never` for configuration "
                        + "share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format "
                        + "'by_duration:<PnDTnHnMn.nS>'.");
        assertThat(store.groupConfigs).isEmpty();
        configs().alter("g", Map.of("share.auto.offset.reset", "by_duration:PT1H", "share.isolation.level", "read_committed"),
                false);
        assertThat(store.groupConfigs("g")).hasSize(2);
    }

    @Test
    void theSessionTimeoutMustExceedTheHeartbeatIntervalOnceMerged() {
        GroupCoordinatorConfig wide = new GroupCoordinatorConfig(6000, 1_800_000, 0, Integer.MAX_VALUE, 1_000_000, 600_000,
                4096, 45_000, 5_000, Integer.MAX_VALUE, List.of("uniform"),
                new GroupCoordinatorConfig.ConsumerBounds(1_000, 60_000, 1_000, 60_000));
        GroupConfigs c = new GroupConfigs(store, wide);
        refused(() -> c.alter("g", Map.of("consumer.session.timeout.ms", "5000"), false), Errors.INVALID_CONFIG,
                "consumer.session.timeout.ms must be greater than consumer.heartbeat.interval.ms");
        c.alter("g", Map.of("consumer.session.timeout.ms", "5000", "consumer.heartbeat.interval.ms", "1000"), false);
    }

    @Test
    void theAssignmentIntervalDefaultsToTheBrokersAndStaysWithinItsBounds() {
        GroupCoordinatorConfig tuned = GroupCoordinatorConfig.defaults().withConsumerAssignmentIntervalMs(250);
        GroupConfigs c = new GroupConfigs(store, new GroupCoordinatorConfig(6000, 1_800_000, 0, Integer.MAX_VALUE,
                1_000_000, 600_000, 4096, 45_000, 5_000, Integer.MAX_VALUE, List.of("uniform"),
                new GroupCoordinatorConfig.ConsumerBounds(45_000, 60_000, 5_000, 15_000, 100, 5_000), 250, 600_000));
        assertThat(new GroupConfigs(store, tuned).describe("g")).filteredOn(v -> v.def().name()
                .equals("consumer.assignment.interval.ms")).singleElement()
                .satisfies(v -> assertThat(v.value()).isEqualTo("250")).satisfies(v -> assertThat(v.override()).isFalse());
        refused(() -> c.alter("g", Map.of("consumer.assignment.interval.ms", "99"), false), Errors.INVALID_CONFIG,
                "consumer.assignment.interval.ms must be in the range 100 to 5000 inclusive.");
        refused(() -> c.alter("g", Map.of("consumer.assignment.interval.ms", "5001"), false), Errors.INVALID_CONFIG,
                "consumer.assignment.interval.ms must be in the range 100 to 5000 inclusive.");
        refused(() -> c.alter("g", Map.of("consumer.assignment.interval.ms", "-1"), false), Errors.INVALID_CONFIG,
                "Invalid value -1 for configuration consumer.assignment.interval.ms: Value must be at least 0");
        refused(() -> c.alter("g", Map.of("consumer.assignment.interval.ms", "often"), false), Errors.INVALID_CONFIG,
                "Invalid value often for configuration consumer.assignment.interval.ms: Not a number of type INT");
        assertThat(store.groupConfigs("g")).isEmpty();
        c.alter("g", Map.of("consumer.assignment.interval.ms", "5000"), false);
        assertThat(c.consumerAssignmentIntervalMs("g")).isEqualTo(5000);
        assertThat(c.consumerAssignmentIntervalMs("other")).isEqualTo(250);
    }

    @Test
    void aGroupsOwnAssignmentIntervalBatchesItsTargetAssignments() {
        configs().alter("eager", Map.of("consumer.assignment.interval.ms", "0"), false);
        join("eager", "a");
        join("batched", "a");
        timer.advance(100);
        // a second member: a new group epoch, and a new target at once only where the interval is 0
        assertThat(join("eager", "b").memberEpoch()).isEqualTo(2);
        assertThat(coordinator.consumerGroup("eager").assignmentEpoch).isEqualTo(2);
        join("batched", "b");
        assertThat(coordinator.consumerGroup("batched").groupEpoch).isEqualTo(2);
        assertThat(coordinator.consumerGroup("batched").assignmentEpoch).as("within the broker's 1 s").isEqualTo(1);
    }

    private ConsumerGroupHeartbeatResponseData join(String group, String member) {
        return coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData().setGroupId(group)
                .setMemberId(member).setMemberEpoch(0).setRebalanceTimeoutMs(30_000)
                .setSubscribedTopicNames(List.of("orders")).setTopicPartitions(new ArrayList<>()), (short) 1, "client",
                "/127.0.0.1");
    }

    @Test
    void consumerMembersGetTheGroupsHeartbeatIntervalAndSessionTimeout() {
        configs().alter("tuned", Map.of("consumer.heartbeat.interval.ms", "7000", "consumer.session.timeout.ms", "50000"),
                false);
        assertThat(join("tuned", "a").heartbeatIntervalMs()).isEqualTo(7000);
        assertThat(join("plain", "b").heartbeatIntervalMs()).isEqualTo(5000);

        timer.advance(46_000); // past the broker's 45 s, within the group's 50 s
        assertThat(coordinator.consumerGroup("plain").members).isEmpty();
        assertThat(coordinator.consumerGroup("tuned").members).containsKey("a");
        timer.advance(5_000);
        assertThat(coordinator.consumerGroup("tuned").members).isEmpty();
    }
}
