package io.kaas.broker.console;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.interbroker.BrokerClient;
import io.kaas.broker.interbroker.InterBrokerException;
import io.kaas.wire.protocol.ApiMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's requests to the other brokers of a cluster, over the inter-broker listener ({@link BrokerClient}):
 * the part of a Kafka request that this broker's own handler, run as the console user, answered
 * NOT_LEADER_OR_FOLLOWER or NOT_COORDINATOR for, sent to the partition's leader or the group's coordinator at the
 * same API version. The handler checks the user's ACLs before it looks at leadership, so only what the user was
 * allowed reaches another broker; the inter-broker connection itself authenticates as this broker. Each request is
 * bounded by {@link #TIMEOUT_MS}: a broker that does not answer in time gives a {@link Reply} with its failure,
 * never a hung page, and is not asked again for twice that time (the same failure is answered at once), so a page
 * that needs several requests of it waits once. Thread-safe.
 */
final class Forwarder {

    /** The console's error for a broker that gave no answer (Kafka's name for it), answered 504. */
    static final String UNANSWERED = "NETWORK_EXCEPTION";

    /** The console's error for no answer from another broker: 504 NETWORK_EXCEPTION with why. */
    static ApiError unanswered(String failure) {
        return new ApiError(504, UNANSWERED, failure);
    }

    /** How long the console waits for another broker's answer. */
    static final long TIMEOUT_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(Forwarder.class);

    /** Another broker's answer, or why there is none ({@code failure}, naming the broker). */
    record Reply<S extends ApiMessage>(int nodeId, S answer, String failure) {
        boolean answered() {
            return answer != null;
        }
    }

    private final ClusterView view;
    private final BrokerClient client;
    private final long timeoutMs;
    /** The brokers that timed out lately: the failure, and until when (System.nanoTime) it is answered at once. */
    private final Map<Integer, Silent> silent = new ConcurrentHashMap<>();

    private record Silent(String failure, long untilNanos) {
    }

    /** @param client the broker's inter-broker client, or null when it has none (a single broker) */
    Forwarder(ClusterView view, BrokerClient client, long timeoutMs) {
        this.view = view;
        this.client = client;
        this.timeoutMs = timeoutMs;
    }

    /** This broker's node id. */
    int localNodeId() {
        return view == null ? -1 : view.localNodeId();
    }

    /** The broker writing {@code partition} of {@code topic}, if another broker than this one does. */
    Optional<Integer> remoteLeader(String topic, int partition) {
        if (view == null) {
            return Optional.empty();
        }
        return view.leader(topic, partition).map(PartitionLeader::leader)
            .filter(node -> node >= 0 && node != view.localNodeId());
    }

    /** The live brokers other than this one, by node id. */
    List<Integer> otherBrokers() {
        List<Integer> out = new ArrayList<>();
        if (view != null) {
            view.liveBrokers().keySet().stream().filter(id -> id != view.localNodeId()).sorted().forEach(out::add);
        }
        return out;
    }

    /**
     * Sends each request to its broker, all at once, at exactly {@code version}, and waits for every answer, at
     * most {@link #TIMEOUT_MS} in all; the replies in the order of {@code asks}.
     */
    <S extends ApiMessage> List<Reply<S>> sendAll(List<Ask> asks, int version, String what) {
        List<CompletableFuture<Reply<S>>> sent = new ArrayList<>();
        for (Ask a : asks) {
            sent.add(send(a.nodeId(), a.request(), version, what));
        }
        List<Reply<S>> out = new ArrayList<>();
        for (int i = 0; i < asks.size(); i++) {
            out.add(join(asks.get(i).nodeId(), sent.get(i)));
        }
        return out;
    }

    /** A request for broker {@code nodeId}. */
    record Ask(int nodeId, ApiMessage request) {
    }

    /** Sends {@code request} to broker {@code node} at exactly {@code version}. */
    <S extends ApiMessage> Reply<S> send1(int node, ApiMessage request, int version, String what) {
        return join(node, send(node, request, version, what));
    }

    @SuppressWarnings("unchecked")
    private <S extends ApiMessage> CompletableFuture<Reply<S>> send(int node, ApiMessage request, int version,
                                                                     String what) {
        if (client == null) {
            return CompletableFuture.completedFuture(new Reply<>(node, null, "broker " + node
                + " cannot be asked: this broker has no inter-broker client"));
        }
        Silent quiet = silent.get(node);
        if (quiet != null && System.nanoTime() - quiet.untilNanos() < 0) {
            return CompletableFuture.completedFuture(new Reply<>(node, null, quiet.failure()));
        }
        short v = (short) version;
        return client.send(node, request, v, v).orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
            .handle((answer, error) -> {
                if (error == null) {
                    silent.remove(node);
                    return new Reply<>(node, (S) answer, null);
                }
                String failure = failure(node, error);
                if (timedOut(error)) {
                    silent.put(node, new Silent(failure, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2 * timeoutMs)));
                }
                LOG.atInfo().addKeyValue("broker", node).log("console: {} not answered by broker {}: {}", what, node,
                    failure);
                return new Reply<>(node, null, failure);
            });
    }

    private <S extends ApiMessage> Reply<S> join(int node, CompletableFuture<Reply<S>> f) {
        try {
            // orTimeout bounds it; the extra second only guards against a lost completion.
            return f.get(timeoutMs + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply<>(node, null, "interrupted while waiting for broker " + node);
        } catch (ExecutionException | TimeoutException e) {
            return new Reply<>(node, null, failure(node, e));
        }
    }

    private static boolean timedOut(Throwable error) {
        for (Throwable c = error; c != null; c = c.getCause()) {
            if (c instanceof TimeoutException) {
                return true;
            }
        }
        InterBrokerException ib = InterBrokerException.find(error);
        return ib != null && ib.reason() == InterBrokerException.Reason.TIMED_OUT;
    }

    private String failure(int node, Throwable error) {
        for (Throwable c = error; c != null; c = c.getCause()) {
            if (c instanceof TimeoutException) {
                return "broker " + node + " did not answer in " + timeoutMs + " ms";
            }
        }
        InterBrokerException ib = InterBrokerException.find(error);
        if (ib != null && ib.reason() == InterBrokerException.Reason.TIMED_OUT) {
            return "broker " + node + " did not answer in " + client.requestTimeoutMs() + " ms";
        }
        String message = ib != null ? ib.getMessage() : String.valueOf(error.getMessage());
        return message.contains("broker " + node) ? message : "broker " + node + ": " + message;
    }
}
