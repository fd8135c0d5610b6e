package io.kaas.broker.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.admin.Answer;
import io.kaas.records.BatchBuilder;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.ProduceResponseData;
import io.kaas.wire.protocol.Errors;
import io.kaas.wire.protocol.Records;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/v1/topics/{name}/messages}: produces one test message with Produce run in-process as the caller
 * (WRITE on the topic), acks=all, so it is answered once the message is durable as any acks=all write. Without a
 * partition the Java producer's default partitioner picks it: murmur2 of the key, or any partition for no key.
 * The topic's max.message.bytes applies (413 MESSAGE_TOO_LARGE).
 */
final class ProduceAction {

    private static final Logger LOG = LoggerFactory.getLogger(ProduceAction.class);
    private static final int PRODUCE_VERSION = 9;
    private static final int TIMEOUT_MS = 30_000;

    private final KafkaRequests kafka;
    private final Forwarder forwarder;
    private final TopicsResource topics;

    ProduceAction(KafkaRequests kafka, Forwarder forwarder, TopicsResource topics) {
        this.kafka = kafka;
        this.forwarder = forwarder;
        this.topics = topics;
    }

    Answer produce(ConsoleCall call, String topic) {
        JsonNode body = call.body();
        Integer partition = Json.optionalInt(body, "partition", null);
        String key = Json.optionalText(body, "key");
        String value = Json.optionalText(body, "value");
        Map<String, String> headers = TopicActions.stringMap(body, "headers");
        MetadataResponseData.MetadataResponseTopic t = topics.describe(call.caller(), topic);
        int count = t.partitions().size();
        byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        if (partition == null) {
            partition = keyBytes == null ? ThreadLocalRandom.current().nextInt(count)
                : (murmur2(keyBytes) & 0x7fffffff) % count;
        } else if (partition < 0 || partition >= count) {
            throw new ApiError(404, "UNKNOWN_TOPIC_OR_PARTITION", "partition " + partition + " of topic '" + topic
                + "' does not exist (it has " + count + " partitions)");
        }
        List<Map.Entry<String, byte[]>> headerBytes = new ArrayList<>();
        headers.forEach((k, v) -> headerBytes.add(new AbstractMap.SimpleEntry<>(k,
            v == null ? null : v.getBytes(StandardCharsets.UTF_8))));
        // As a Java producer without idempotence writes it: magic 2, uncompressed, create time, no producer id.
        java.nio.ByteBuffer built = BatchBuilder.create(System.currentTimeMillis())
            .add(keyBytes, value == null ? null : value.getBytes(StandardCharsets.UTF_8), headerBytes).build();
        byte[] batch = new byte[built.remaining()];
        built.get(batch);
        ProduceResponseData response = kafka.call(call.caller(), ApiMessageType.PRODUCE, PRODUCE_VERSION,
            request(topic, partition, batch));
        response = toLeader(response, topic, partition, batch);
        for (ProduceResponseData.TopicProduceResponse tr : response.responses()) {
            for (ProduceResponseData.PartitionProduceResponse pr : tr.partitionResponses()) {
                if (pr.errorCode() == Errors.TOPIC_AUTHORIZATION_FAILED) {
                    throw new ApiError(403, "TOPIC_AUTHORIZATION_FAILED", call.caller().principal()
                        + " is not authorized to write to topic '" + topic + "'");
                }
                if (pr.errorCode() == Errors.MESSAGE_TOO_LARGE) {
                    throw new ApiError(413, KafkaErrors.name(pr.errorCode()), "the message (" + batch.length
                        + " bytes as a batch) is larger than topic '" + topic + "' accepts (max.message.bytes)");
                }
                KafkaErrors.check(pr.errorCode(), pr.errorMessage(), "cannot produce to partition " + partition
                    + " of topic '" + topic + "'");
                LOG.atInfo().addKeyValue("topic", topic).addKeyValue("partition", partition)
                    .addKeyValue("offset", pr.baseOffset()).addKeyValue("principal", call.caller().principal())
                    .log("console: {} produced a test message to partition {} of topic '{}' at offset {}",
                        call.caller(), partition, topic, pr.baseOffset());
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("partition", partition);
                out.put("offset", pr.baseOffset());
                return Json.answer(201, out);
            }
        }
        throw new ApiError(500, "UNKNOWN_SERVER_ERROR", "Produce answered nothing for topic '" + topic + "'");
    }

    private static ProduceRequestData request(String topic, int partition, byte[] batch) {
        return new ProduceRequestData().setTransactionalId(null).setAcks((short) -1)
            .setTimeoutMs(TIMEOUT_MS).setTopicData(new ArrayList<>(List.of(new ProduceRequestData.TopicProduceData()
                .setName(topic).setPartitionData(new ArrayList<>(List.of(new ProduceRequestData.PartitionProduceData()
                    .setIndex(partition).setRecords(Records.of(Unpooled.wrappedBuffer(batch)))))))));
    }

    /**
     * The leader's answer when this broker's was NOT_LEADER_OR_FOLLOWER (given only once the caller's WRITE was
     * checked): the same batch, sent to the partition's leader over the inter-broker listener.
     */
    private ProduceResponseData toLeader(ProduceResponseData here, String topic, int partition, byte[] batch) {
        boolean elsewhere = here.responses().stream().flatMap(t -> t.partitionResponses().stream())
            .anyMatch(p -> p.errorCode() == Errors.NOT_LEADER_OR_FOLLOWER);
        java.util.Optional<Integer> leader = elsewhere ? forwarder.remoteLeader(topic, partition)
            : java.util.Optional.empty();
        if (leader.isEmpty()) {
            return here;
        }
        Forwarder.Reply<ProduceResponseData> reply = forwarder.send1(leader.get(), request(topic, partition, batch),
            PRODUCE_VERSION, "Produce to partition " + partition + " of topic '" + topic + "'");
        if (!reply.answered()) {
            throw Forwarder.unanswered(reply.failure() + " (the test message may or may not have been written)");
        }
        return reply.answer();
    }

    /** Kafka's murmur2 (the default partitioner's hash). */
    static int murmur2(byte[] data) {
        int length = data.length;
        int seed = 0x9747b28c;
        final int m = 0x5bd1e995;
        final int r = 24;
        int h = seed ^ length;
        int length4 = length / 4;
        for (int i = 0; i < length4; i++) {
            final int i4 = i * 4;
            int k = (data[i4] & 0xff) + ((data[i4 + 1] & 0xff) << 8) + ((data[i4 + 2] & 0xff) << 16)
                + ((data[i4 + 3] & 0xff) << 24);
            k *= m;
            k ^= k >>> r;
            k *= m;
            h *= m;
            h ^= k;
        }
        int tail = length & ~3;
        int left = length % 4;
        if (left == 3) {
            h ^= (data[tail + 2] & 0xff) << 16;
        }
        if (left >= 2) {
            h ^= (data[tail + 1] & 0xff) << 8;
        }
        if (left >= 1) {
            h ^= data[tail] & 0xff;
            h *= m;
        }
        h ^= h >>> 13;
        h *= m;
        h ^= h >>> 15;
        return h;
    }
}
