package io.kaas.broker.it;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;

/**
 * Kafka requests encoded by kafka-clients' own serialization, sent to a broker over a plain socket on 127.0.0.1, for
 * the tests that need a request no client sends as it is (a corrupt batch, an old version, a field set by hand).
 */
public final class KafkaWire {
    private static final AtomicInteger CORRELATION = new AtomicInteger(1);

    private KafkaWire() {
    }

    /** One request of {@link #sendPipelined}. */
    public record Request(ApiKeys api, short version, ApiMessage data) {
    }

    /** Sends one request on a new connection and returns its response. */
    public static AbstractResponse send(int port, String clientId, ApiKeys api, short version, ApiMessage data)
            throws IOException {
        return sendPipelined(port, clientId, List.of(new Request(api, version, data))).get(0);
    }

    /**
     * Writes every request on one new connection before reading any answer (as a client with several requests in
     * flight does), then reads the answers in order; 10 s at most for each read.
     */
    public static List<AbstractResponse> sendPipelined(int port, String clientId, List<Request> requests)
            throws IOException {
        List<RequestHeader> headers = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.setTcpNoDelay(true);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            for (Request r : requests) {
                RequestHeader header = new RequestHeader(r.api(), r.version(), clientId, CORRELATION.incrementAndGet());
                headers.add(header);
                ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), r.data(), r.version());
                out.writeInt(bytes.remaining());
                out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            }
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            List<AbstractResponse> responses = new ArrayList<>();
            for (RequestHeader header : headers) {
                byte[] response = new byte[in.readInt()];
                in.readFully(response);
                responses.add(AbstractResponse.parseResponse(ByteBuffer.wrap(response), header));
            }
            return responses;
        }
    }

    /** A Produce request of {@code records} to one partition, named by {@code topic} and (v13 and up) {@code id}. */
    public static ProduceRequestData produce(String topic, Uuid id, int partition, short acks, ByteBuffer records) {
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic).setTopicId(id)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(partition)
                        .setRecords(MemoryRecords.readableRecords(records)))));
        return new ProduceRequestData().setAcks(acks).setTimeoutMs(10_000).setTopicData(topics);
    }

    /** Sends a Produce request for one partition and returns that partition's response. */
    public static ProduceResponseData.PartitionProduceResponse produceOne(int port, String clientId,
                                                                         ProduceRequestData data, short version)
            throws IOException {
        ProduceResponseData response = (ProduceResponseData) send(port, clientId, ApiKeys.PRODUCE, version, data).data();
        return response.responses().iterator().next().partitionResponses().get(0);
    }
}
