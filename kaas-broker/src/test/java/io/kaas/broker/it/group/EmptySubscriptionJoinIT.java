package io.kaas.broker.it.group;

import static io.kaas.broker.it.group.GroupConfigsIT.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.protocol.Errors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A KIP-848 member may (re)join with an empty subscription, as Kafka 4.4 accepts: librdkafka does so when its
 * subscription changes right after an unsubscribe (its 0045_subscribe_many_updates with group.protocol=consumer
 * failed with a fatal INVALID_REQUEST against kaas). Only a join naming neither topics nor a regex is refused.
 */
@Timeout(60)
class EmptySubscriptionJoinIT {
    @TempDir
    Path dir;

    private static ConsumerGroupHeartbeatRequestData join(String memberId, List<String> topics) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId("empty-join").setMemberId(memberId).setMemberEpoch(0)
                .setRebalanceTimeoutMs(30_000).setSubscribedTopicNames(topics).setTopicPartitions(List.of());
    }

    @Test
    void aMemberJoinsSubscribedToNothingThenSubscribes() throws Exception {
        try (TestBroker broker = TestBroker.start(dir); RawClient raw = new RawClient(broker.port())) {
            broker.createTopic("orders", 3);
            call(raw, ApiMessageType.FIND_COORDINATOR, 4,
                    new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of("empty-join")));
            String memberId = UUID.randomUUID().toString();

            ConsumerGroupHeartbeatResponseData neither = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 0,
                    join(memberId, null));
            assertThat(neither.errorCode()).isEqualTo(Errors.INVALID_REQUEST);
            assertThat(neither.errorMessage())
                    .isEqualTo("Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.");

            ConsumerGroupHeartbeatResponseData empty = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 0,
                    join(memberId, List.of()));
            assertThat(empty.errorCode()).as(empty.errorMessage()).isEqualTo(Errors.NONE);
            assertThat(empty.memberEpoch()).isPositive();
            assertThat(empty.assignment().topicPartitions()).isEmpty();

            ConsumerGroupHeartbeatResponseData subscribed = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 0,
                    join(memberId, List.of("orders")).setMemberEpoch(empty.memberEpoch()));
            assertThat(subscribed.errorCode()).as(subscribed.errorMessage()).isEqualTo(Errors.NONE);
            // as in Kafka 4.4, the new target comes at a heartbeat group.consumer.assignment.interval.ms (1 s) after
            // the last one
            ConsumerGroupHeartbeatResponseData[] last = {subscribed};
            Awaitility.await("orders assigned").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        if (last[0].assignment() != null && !last[0].assignment().topicPartitions().isEmpty()) {
                            return true;
                        }
                        last[0] = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 0,
                                new ConsumerGroupHeartbeatRequestData().setGroupId("empty-join").setMemberId(memberId)
                                        .setMemberEpoch(last[0].memberEpoch()));
                        assertThat(last[0].errorCode()).as(last[0].errorMessage()).isEqualTo(Errors.NONE);
                        return false;
                    });
            assertThat(last[0].assignment().topicPartitions()).singleElement()
                    .satisfies(tp -> assertThat(tp.partitions()).containsExactlyInAnyOrder(0, 1, 2));
        }
    }
}
