package io.kaas.broker.it.txn;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import io.kaas.broker.it.KafkaWire;
import org.awaitility.Awaitility;

/**
 * Transaction requests encoded by kafka-clients' own serialization and sent over a plain socket to 127.0.0.1, for
 * the cases a well-behaved client never sends (a fenced epoch, a marker as Produce, a request on a connection
 * before the previous one's effects are complete). Every read is bounded by a 10 s socket timeout.
 */
final class RawTxn {

    private final int port;

    RawTxn(int port) {
        this.port = port;
    }

    /** A producer id and epoch as the coordinator handed them out. */
    record ProducerIdAndEpoch(long producerId, short epoch) {
    }

    /** Sends one request on a new connection and returns its response. */
    AbstractResponse send(ApiKeys api, short version, ApiMessage data) throws IOException {
        return KafkaWire.send(port, "raw-txn-test", api, version, data);
    }

    /** One request of {@link #sendPipelined}. */
    record Request(ApiKeys api, short version, ApiMessage data) {
    }

    /**
     * Writes every request on one connection before reading any answer (as a client with several requests in
     * flight does), then reads the answers in order.
     */
    List<AbstractResponse> sendPipelined(List<Request> requests) throws IOException {
        return KafkaWire.sendPipelined(port, "raw-txn-test",
                requests.stream().map(r -> new KafkaWire.Request(r.api(), r.version(), r.data())).toList());
    }

    /**
     * Sends {@code frame} (a request without its size prefix) as it is and returns the answer's bytes, or null if
     * the broker closed the connection instead of answering.
     */
    byte[] sendBytes(byte[] frame) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(frame.length);
            out.write(frame);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            try {
                byte[] response = new byte[in.readInt()];
                in.readFully(response);
                return response;
            } catch (EOFException | SocketException closed) {
                return null;
            }
        }
    }

    /**
     * InitProducerId (v4) for {@code transactionalId}, retried while the coordinator answers a retriable error
     * (loading, not yet available, a previous transaction still completing), at most 30 s.
     */
    ProducerIdAndEpoch initProducerId(String transactionalId, int timeoutMs) {
        AtomicReference<InitProducerIdResponseData> last = new AtomicReference<>();
        Awaitility.await("InitProducerId(" + transactionalId + ")").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    InitProducerIdResponseData r = (InitProducerIdResponseData) send(ApiKeys.INIT_PRODUCER_ID, (short) 4,
                            new InitProducerIdRequestData().setTransactionalId(transactionalId)
                                    .setTransactionTimeoutMs(timeoutMs).setProducerId(-1).setProducerEpoch((short) -1))
                            .data();
                    last.set(r);
                    Errors error = Errors.forCode(r.errorCode());
                    if (error == Errors.NONE) {
                        return true;
                    }
                    if (RETRIABLE.contains(error)) {
                        return false;
                    }
                    throw new AssertionError("InitProducerId(" + transactionalId + ") answered " + error);
                });
        return new ProducerIdAndEpoch(last.get().producerId(), last.get().producerEpoch());
    }

    /** The coordinator's answers a client retries. */
    static final Set<Errors> RETRIABLE = Set.of(Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.COORDINATOR_NOT_AVAILABLE,
            Errors.NOT_COORDINATOR, Errors.CONCURRENT_TRANSACTIONS);

    /** AddPartitionsToTxn, the client form (v3), for partitions of one topic; the error of each partition. */
    static Request addPartitions(String transactionalId, ProducerIdAndEpoch pid, String topic, Collection<Integer> partitions) {
        AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection topics =
                new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic().setName(topic)
                .setPartitions(new ArrayList<>(partitions)));
        return new Request(ApiKeys.ADD_PARTITIONS_TO_TXN, (short) 3, new AddPartitionsToTxnRequestData()
                .setV3AndBelowTransactionalId(transactionalId).setV3AndBelowProducerId(pid.producerId())
                .setV3AndBelowProducerEpoch(pid.epoch()).setV3AndBelowTopics(topics));
    }

    /** The single error every partition of a v3 AddPartitionsToTxn answer carries (fails if they differ). */
    static Errors addPartitionsError(AbstractResponse response) {
        AddPartitionsToTxnResponseData data = (AddPartitionsToTxnResponseData) response.data();
        Set<Errors> errors = new java.util.HashSet<>();
        data.resultsByTopicV3AndBelow().forEach(t -> t.resultsByPartition()
                .forEach(p -> errors.add(Errors.forCode(p.partitionErrorCode()))));
        if (errors.size() != 1) {
            throw new AssertionError("expected one error for all partitions, got " + data);
        }
        return errors.iterator().next();
    }

    /** AddPartitionsToTxn (v3), retried while CONCURRENT_TRANSACTIONS (the previous end still completing), 30 s. */
    void addPartitionsUntilDone(String transactionalId, ProducerIdAndEpoch pid, String topic, Collection<Integer> partitions) {
        Awaitility.await("AddPartitionsToTxn(" + transactionalId + ")").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    Errors error = addPartitionsError(send(addPartitions(transactionalId, pid, topic, partitions)));
                    if (error == Errors.NONE) {
                        return true;
                    }
                    if (error == Errors.CONCURRENT_TRANSACTIONS) {
                        return false;
                    }
                    throw new AssertionError("AddPartitionsToTxn(" + transactionalId + ") answered " + error);
                });
    }

    AbstractResponse send(Request request) throws IOException {
        return send(request.api(), request.version(), request.data());
    }

    /** EndTxn (v4, transactions V1). */
    static Request endTxn(String transactionalId, ProducerIdAndEpoch pid, boolean commit) {
        return new Request(ApiKeys.END_TXN, (short) 4, new EndTxnRequestData().setTransactionalId(transactionalId)
                .setProducerId(pid.producerId()).setProducerEpoch(pid.epoch()).setCommitted(commit));
    }

    static Errors endTxnError(AbstractResponse response) {
        return Errors.forCode(((EndTxnResponseData) response.data()).errorCode());
    }

    /** A transactional v2 batch of {@code values} from {@code pid} starting at {@code sequence}. */
    static MemoryRecords transactionalBatch(ProducerIdAndEpoch pid, int sequence, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), ("k" + i).getBytes(StandardCharsets.UTF_8),
                    values[i].getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withTransactionalRecords(Compression.NONE, pid.producerId(), pid.epoch(), sequence, records);
    }

    /** A Produce request (acks=-1) of {@code records} to one partition, with {@code transactionalId} (may be null). */
    static ProduceRequestData produce(String transactionalId, String topic, int partition, MemoryRecords records) {
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(partition)
                        .setRecords(records))));
        return new ProduceRequestData().setTransactionalId(transactionalId).setAcks((short) -1).setTimeoutMs(10_000)
                .setTopicData(topics);
    }

    /**
     * Sends a Produce of {@code version} (a name, not a topic id: v12 or lower) and returns the partition's error;
     * resent while the partition has no leader yet (a new topic), as a client does, at most 20 s.
     */
    Errors produceError(ProduceRequestData data, short version) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            ProduceResponseData response = (ProduceResponseData) send(ApiKeys.PRODUCE, version, data.duplicate()).data();
            Errors error = Errors.forCode(response.responses().iterator().next().partitionResponses().get(0).errorCode());
            if (!NO_LEADER_YET.contains(error) || System.nanoTime() > deadline) {
                return error;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return error;
            }
        }
    }

    private static final Set<Errors> NO_LEADER_YET = Set.of(Errors.NOT_LEADER_OR_FOLLOWER, Errors.LEADER_NOT_AVAILABLE,
            Errors.UNKNOWN_TOPIC_OR_PARTITION);
}
