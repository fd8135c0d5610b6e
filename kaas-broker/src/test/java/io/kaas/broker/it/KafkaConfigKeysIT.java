package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.KaasBroker;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Kafka's broker keys that kaas reads under another name are honoured under Kafka's name too
 * ({@code log.retention.check.interval.ms} by both engines, {@code max.incremental.fetch.session.cache.slots}), and
 * the keys set without effect are listed in one INFO line at start-up.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaConfigKeysIT {
    @TempDir
    Path dir;

    @Test
    void logRetentionCheckIntervalDrivesEachEnginesRetentionPassAndTheKeysWithoutEffectAreListed() throws Exception {
        for (String engine : List.of(TestBroker.SEGMENTS, TestBroker.ROCKSDB)) {
            ListAppender<ILoggingEvent> log = new ListAppender<>();
            Logger brokerLog = (Logger) LoggerFactory.getLogger(KaasBroker.class);
            log.start();
            brokerLog.addAppender(log);
            try (TestBroker broker = TestBroker.builder(dir.resolve(engine)).engine(engine)
                    .config(Map.of("log.retention.check.interval.ms", "100", "log.flush.interval.ms", "200",
                            "queued.max.requests", "100", "process.roles", "broker"))
                    .start(); Admin admin = broker.admin()) {
                List<String> lines = log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
                String expected = engine.equals(TestBroker.ROCKSDB)
                        ? "log.flush.interval.ms, process.roles" // rocksdb has no flush interval; queued.max.requests is read
                        : "process.roles";
                assertThat(lines).as(engine).containsOnlyOnce(
                        "Kafka config keys set but without effect in kaas (storage engine '" + engine + "'): " + expected);
                assertThat(lines).as("nothing reported unknown").noneMatch(l -> l.startsWith("Unknown config keys"));

                KafkaClients.createTopic(admin, "by-time", 1, Map.of("segment.ms", "300", "retention.ms", "1000"));
                try (KafkaProducer<String, String> producer = broker.producer()) {
                    for (int i = 0; i < 50; i++) {
                        producer.send(new ProducerRecord<>("by-time", 0, "k" + i, "v"));
                    }
                    producer.flush();
                }
                TopicPartition tp = new TopicPartition("by-time", 0);
                // the engines' own default pass runs every 5 minutes: only the Kafka key makes this happen in time
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                        assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp)
                                .get(10, TimeUnit.SECONDS).offset()).as(engine).isEqualTo(50));
            } finally {
                brokerLog.detachAppender(log);
            }
        }
    }

    @Test
    void maxIncrementalFetchSessionCacheSlotsZeroServesFullFetchesWithoutSessions() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("max.incremental.fetch.session.cache.slots", "0"));
             Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "fetched", 1, Map.of());
            try (KafkaProducer<String, String> producer = broker.producer()) {
                producer.send(new ProducerRecord<>("fetched", 0, "k", "v")).get(10, TimeUnit.SECONDS);
            }
            FetchRequestData.FetchTopic t = new FetchRequestData.FetchTopic().setTopic("fetched");
            t.partitions().add(new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0)
                    .setPartitionMaxBytes(1 << 20));
            FetchRequestData request = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                    .setMaxBytes(1 << 20).setSessionId(0).setSessionEpoch(0).setTopics(new ArrayList<>(List.of(t)));
            short version = 12;
            RequestHeader header = new RequestHeader(ApiKeys.FETCH, version, "slots-test", 1);
            ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), request, version);
            try (Socket socket = new Socket("127.0.0.1", broker.port())) {
                socket.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeInt(bytes.remaining());
                out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                out.flush();
                DataInputStream in = new DataInputStream(socket.getInputStream());
                byte[] response = new byte[in.readInt()];
                in.readFully(response);
                FetchResponseData got = ((FetchResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header))
                        .data();
                assertThat(Errors.forCode(got.errorCode())).isEqualTo(Errors.NONE);
                assertThat(got.sessionId()).as("no slot: no incremental session").isZero();
                FetchResponseData.PartitionData p = got.responses().get(0).partitions().get(0);
                assertThat(p.records().sizeInBytes()).as("the full fetch is served").isPositive();
            }
        }
    }
}
