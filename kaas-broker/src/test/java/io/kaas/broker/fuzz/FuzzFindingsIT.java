package io.kaas.broker.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.DescribeTopicPartitionsRequestData;
import io.kaas.wire.message.DescribeTopicPartitionsResponseData;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.message.FindCoordinatorResponseData;
import io.kaas.wire.message.MetadataRequestData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.message.OffsetFetchRequestData;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.protocol.Errors;
import io.kaas.wire.protocol.Records;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What the fuzz suite found, pinned down one case each: every one got Kafka's answer instead of a failure in its
 * handler ("request failed in its handler") or a broker trying to open millions of partitions.
 */
@Timeout(120)
class FuzzFindingsIT {

    @TempDir
    static Path dir;

    private static TestBroker broker;
    private static ListAppender<ILoggingEvent> log;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        broker.createTopic("found", 2);
        log = new ListAppender<>();
        log.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(log);
    }

    @AfterAll
    static void stop() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(log);
        broker.close();
        assertThat(log.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
            .extracting(ILoggingEvent::getFormattedMessage).as("no handler failed").isEmpty();
    }

    @Test
    void metadataV11WithATopicIdOrANullNameAnswersInvalidRequestOnEveryTopic() throws Exception {
        try (RawClient c = new RawClient(broker.port())) {
            c.send(ApiMessageType.METADATA, (short) 11, 5, new MetadataRequestData().setTopics(List.of(
                new MetadataRequestData.MetadataRequestTopic().setName("found").setTopicId(UUID.randomUUID()),
                new MetadataRequestData.MetadataRequestTopic().setName(null))));
            MetadataResponseData r = c.<MetadataResponseData>read(ApiMessageType.METADATA, (short) 11).body();
            assertThat(r.topics()).extracting(t -> t.name() + ":" + t.errorCode()).containsExactly("found:42", ":42");
            assertThat(c.apiVersions((short) 3, 6).errorCode()).as("the connection stays usable").isZero();
        }
    }

    @Test
    void describeTopicPartitionsWithACursorOutsideItsTopicsOrANegativeCursorPartitionAnswersInvalidRequest() throws Exception {
        try (RawClient c = new RawClient(broker.port())) {
            for (DescribeTopicPartitionsRequestData.Cursor cursor : List.of(
                    new DescribeTopicPartitionsRequestData.Cursor().setTopicName("other").setPartitionIndex(0),
                    new DescribeTopicPartitionsRequestData.Cursor().setTopicName("found").setPartitionIndex(-1))) {
                c.send(ApiMessageType.DESCRIBE_TOPIC_PARTITIONS, (short) 0, 7, new DescribeTopicPartitionsRequestData()
                    .setTopics(List.of(new DescribeTopicPartitionsRequestData.TopicRequest().setName("found")))
                    .setResponsePartitionLimit(10).setCursor(cursor));
                DescribeTopicPartitionsResponseData r = c.<DescribeTopicPartitionsResponseData>read(
                    ApiMessageType.DESCRIBE_TOPIC_PARTITIONS, (short) 0).body();
                assertThat(r.topics()).extracting(t -> t.name() + ":" + t.errorCode()).as(cursor.toString())
                    .containsExactly("found:42");
            }
        }
    }

    @Test
    void offsetFetchOfANegativePartitionAnswersNoOffset() throws Exception {
        try (RawClient c = new RawClient(broker.port())) {
            c.send(ApiMessageType.FIND_COORDINATOR, (short) 4, 8, new FindCoordinatorRequestData().setKeyType((byte) 0)
                .setCoordinatorKeys(List.of("g"))); // as a client does first: creates __consumer_offsets
            assertThat(c.<FindCoordinatorResponseData>read(ApiMessageType.FIND_COORDINATOR, (short) 4).body()
                .coordinators().get(0).errorCode()).isEqualTo(Errors.NONE);
            c.send(ApiMessageType.OFFSET_FETCH, (short) 1, 9, new OffsetFetchRequestData().setGroupId("g").setTopics(List.of(
                new OffsetFetchRequestData.OffsetFetchRequestTopic().setName("found").setPartitionIndexes(List.of(-1, 0)))));
            OffsetFetchResponseData r = c.<OffsetFetchResponseData>read(ApiMessageType.OFFSET_FETCH, (short) 1).body();
            assertThat(r.topics()).hasSize(1);
            assertThat(r.topics().get(0).partitions()).extracting(p -> p.partitionIndex() + ":" + p.committedOffset()
                + ":" + p.errorCode()).containsExactlyInAnyOrder("-1:-1:0", "0:-1:0");
        }
    }

    @Test
    void aFailedAcksZeroProduceClosesItsConnectionWithoutAHandlerError() throws Exception {
        try (RawClient c = new RawClient(broker.port())) {
            c.send(ApiMessageType.PRODUCE, (short) 9, 11, new ProduceRequestData().setAcks((short) 0).setTimeoutMs(1000)
                .setTopicData(List.of(new ProduceRequestData.TopicProduceData().setName("found").setPartitionData(List.of(
                    new ProduceRequestData.PartitionProduceData().setIndex(0)
                        .setRecords(Records.of(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))))))));
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
            .contains("closing connection: a Produce with acks=0 failed (it has no response to carry the error)");
    }

    @Test
    void creatingTopicsOrPartitionsOverTenThousandMetadataRecordsIsAPolicyViolation() throws Exception {
        try (Admin admin = broker.admin()) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("huge", 10_000, (short) 1))).all()
                    .get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(PolicyViolationException.class)
                .hasMessage("Unable to perform excessively large batch operation.");
            assertThatThrownBy(() -> admin.createPartitions(Map.of("found", NewPartitions.increaseTo(10_003))).all()
                    .get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(PolicyViolationException.class);
            admin.createTopics(List.of(new NewTopic("large", 100, (short) 1))).all().get(20, TimeUnit.SECONDS);
            assertThat(admin.describeTopics(List.of("huge", "large")).topicNameValues().get("large").get(20, TimeUnit.SECONDS)
                .partitions()).hasSize(100);
        }
    }
}
