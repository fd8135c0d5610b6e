package io.kaas.broker.interbroker;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.coordinator.transaction.MarkerWriter;
import io.kaas.wire.message.WriteTxnMarkersRequestData;
import io.kaas.wire.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import io.kaas.wire.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import io.kaas.wire.message.WriteTxnMarkersResponseData;
import io.kaas.wire.message.WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult;
import io.kaas.wire.message.WriteTxnMarkersResponseData.WritableTxnMarkerResult;
import io.kaas.wire.message.WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's {@link MarkerWriter} with several brokers: each partition's marker goes to the partition's
 * writer as the {@link ClusterView} names it: in process ({@code local}, the {@link
 * io.kaas.broker.transaction.LocalMarkerWriter}) when that is this broker, else in one WriteTxnMarkers request per
 * broker over the inter-broker listener ({@link BrokerClient}), as Kafka's TransactionMarkerChannelManager. A
 * partition answered NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, or whose request got
 * no answer (connection failure, timeout: NETWORK_EXCEPTION), is sent again after its leader is read again (backoff 50 ms doubling to
 * 1 s) until it is answered or the attempt's budget is spent; the future then completes with each partition's last
 * code, and the coordinator's own completion retry takes over (TransactionCompleter). Kept from MarkerWriter's
 * contract: UNKNOWN_TOPIC_OR_PARTITION is answered only for a partition the cluster does not have (the view knows
 * no such partition); a partition that exists but found no writer in time is NOT_LEADER_OR_FOLLOWER (retriable).
 * Thread-safe.
 */
public final class RemoteMarkerWriter implements MarkerWriter {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteMarkerWriter.class);
    /** Below the coordinator's 30 s bound on one attempt, so the answer is this writer's, not the bound's. */
    public static final long DEFAULT_BUDGET_MS = 20_000;
    static final long MIN_BACKOFF_MS = 50;
    static final long MAX_BACKOFF_MS = 1_000;
    private static final short WRITE_TXN_MARKERS_VERSION = 1;

    private final MarkerWriter local;
    private final ClusterView view;
    private final BrokerClient client;
    private final ScheduledExecutorService scheduler;
    private final long budgetMs;

    /**
     * @param local     writes the markers of partitions this broker leads
     * @param scheduler runs the retries' backoff (short tasks only)
     * @param budgetMs  how long one {@link #write} keeps retrying before it answers
     */
    public RemoteMarkerWriter(MarkerWriter local, ClusterView view, BrokerClient client,
                              ScheduledExecutorService scheduler, long budgetMs) {
        this.local = local;
        this.view = view;
        this.client = client;
        this.scheduler = scheduler;
        this.budgetMs = budgetMs;
    }

    @Override
    public CompletableFuture<Map<TopicPartitionRef, Short>> write(long producerId, short producerEpoch,
                                                                  int coordinatorEpoch, boolean commit,
                                                                  Set<TopicPartitionRef> partitions) {
        if (allHere(partitions)) {
            // A broker alone, or a transaction on this broker's partitions only: the in-process path as it is.
            return local.write(producerId, producerEpoch, coordinatorEpoch, commit, partitions);
        }
        Attempt attempt = new Attempt(producerId, producerEpoch, coordinatorEpoch, commit, partitions);
        attempt.round(new LinkedHashSet<>(partitions), 0);
        return attempt.done;
    }

    private boolean allHere(Set<TopicPartitionRef> partitions) {
        for (TopicPartitionRef tp : partitions) {
            Optional<PartitionLeader> leader = view.leader(tp.topic(), tp.partition());
            if (leader.isEmpty() || leader.get().leader() != view.localNodeId()) {
                return false;
            }
        }
        return true;
    }

    private static boolean retriable(short code) {
        return code == Errors.NOT_LEADER_OR_FOLLOWER || code == Errors.UNKNOWN_TOPIC_OR_PARTITION
            || code == Errors.LEADER_NOT_AVAILABLE || code == Errors.NETWORK_EXCEPTION;
    }

    /** One {@link #write}: its rounds of sends, and each partition's last answer. */
    private final class Attempt {
        final long producerId;
        final short producerEpoch;
        final int coordinatorEpoch;
        final boolean commit;
        final long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budgetMs);
        final CompletableFuture<Map<TopicPartitionRef, Short>> done = new CompletableFuture<>();
        final Map<TopicPartitionRef, Short> codes = new HashMap<>();
        /** Partitions the cluster does not have: answered UNKNOWN_TOPIC_OR_PARTITION, not retried. */
        final Set<TopicPartitionRef> unknown = new java.util.HashSet<>();

        Attempt(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                Set<TopicPartitionRef> partitions) {
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
            this.coordinatorEpoch = coordinatorEpoch;
            this.commit = commit;
            partitions.forEach(tp -> codes.put(tp, Errors.NETWORK_EXCEPTION));
            ScheduledFuture<?> budget = scheduler.schedule(this::finish, budgetMs, TimeUnit.MILLISECONDS);
            done.whenComplete((r, e) -> budget.cancel(false));
        }

        String result() {
            return commit ? "COMMIT" : "ABORT";
        }

        /** Sends every partition of {@code todo} to its writer; retries the retriable answers after a backoff. */
        void round(Set<TopicPartitionRef> todo, int round) {
            if (done.isDone()) {
                return;
            }
            Set<TopicPartitionRef> here = new LinkedHashSet<>();
            Map<Integer, List<TopicPartitionRef>> elsewhere = new TreeMap<>();
            for (TopicPartitionRef tp : todo) {
                Optional<PartitionLeader> leader = view.leader(tp.topic(), tp.partition());
                if (leader.isEmpty()) {
                    synchronized (this) {
                        unknown.add(tp);
                    }
                    answer(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                } else if (!leader.get().hasLeader()) {
                    answer(tp, Errors.NOT_LEADER_OR_FOLLOWER);
                } else if (leader.get().leader() == view.localNodeId()) {
                    here.add(tp);
                } else {
                    elsewhere.computeIfAbsent(leader.get().leader(), k -> new ArrayList<>()).add(tp);
                }
            }
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            if (!here.isEmpty()) {
                CompletableFuture<Map<TopicPartitionRef, Short>> f;
                try {
                    f = local.write(producerId, producerEpoch, coordinatorEpoch, commit, here);
                } catch (RuntimeException e) {
                    f = CompletableFuture.failedFuture(e);
                }
                sent.add(f.handle((codes, error) -> {
                    for (TopicPartitionRef tp : here) {
                        Short code = error == null ? codes.get(tp) : null;
                        answer(tp, code != null ? code : Errors.UNKNOWN_SERVER_ERROR);
                    }
                    return null;
                }));
            }
            elsewhere.forEach((node, tps) -> sent.add(send(node, tps)));
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> next(todo, round));
        }

        private CompletableFuture<Void> send(int node, List<TopicPartitionRef> tps) {
            Map<String, List<Integer>> byTopic = new LinkedHashMap<>();
            tps.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), k -> new ArrayList<>()).add(tp.partition()));
            List<WritableTxnMarkerTopic> topics = new ArrayList<>();
            byTopic.forEach((t, ps) -> topics.add(new WritableTxnMarkerTopic().setName(t).setPartitionIndexes(ps)));
            WriteTxnMarkersRequestData request = new WriteTxnMarkersRequestData().setMarkers(List.of(
                new WritableTxnMarker().setProducerId(producerId).setProducerEpoch(producerEpoch)
                    .setTransactionResult(commit).setCoordinatorEpoch(coordinatorEpoch).setTopics(topics)));
            return client.send(node, request, WRITE_TXN_MARKERS_VERSION).handle((body, error) -> {
                if (error != null) {
                    InterBrokerException ib = InterBrokerException.find(error);
                    LOG.atWarn().addKeyValue("nodeId", node).addKeyValue("producerId", producerId)
                        .log("{} markers of producer {} (epoch {}) for {} not written by broker {}: {}", result(),
                            producerId, producerEpoch, tps, node, ib != null ? ib.getMessage() : String.valueOf(error));
                    // as Kafka's inter-broker senders: no answer (disconnected, timed out) is NETWORK_EXCEPTION
                    tps.forEach(tp -> answer(tp, Errors.NETWORK_EXCEPTION));
                    return null;
                }
                Map<TopicPartitionRef, Short> got = new HashMap<>();
                for (WritableTxnMarkerResult m : ((WriteTxnMarkersResponseData) body).markers()) {
                    for (WritableTxnMarkerTopicResult t : m.topics()) {
                        for (WritableTxnMarkerPartitionResult p : t.partitions()) {
                            got.put(new TopicPartitionRef(t.name(), p.partitionIndex()), p.errorCode());
                        }
                    }
                }
                for (TopicPartitionRef tp : tps) {
                    Short code = got.get(tp);
                    answer(tp, code != null ? code : Errors.UNKNOWN_SERVER_ERROR);
                    if (code != null && code == Errors.CLUSTER_AUTHORIZATION_FAILED) {
                        LOG.atError().addKeyValue("nodeId", node).addKeyValue("listener", client.listener())
                            .log("Broker {} refused the {} marker of producer {} on {}: this broker's principal on "
                                + "listener {} needs CLUSTER_ACTION on the cluster", node, result(), producerId, tp,
                                client.listener());
                    }
                }
                return null;
            });
        }

        private synchronized void answer(TopicPartitionRef tp, short code) {
            codes.put(tp, code);
        }

        private void next(Set<TopicPartitionRef> todo, int round) {
            Set<TopicPartitionRef> again = new LinkedHashSet<>();
            synchronized (this) {
                for (TopicPartitionRef tp : todo) {
                    if (!unknown.contains(tp) && retriable(codes.get(tp))) {
                        again.add(tp);
                    }
                }
            }
            long backoff = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS << Math.min(round, 10));
            if (again.isEmpty() || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) >= deadlineNanos) {
                finish();
                return;
            }
            scheduler.schedule(() -> round(again, round + 1), backoff, TimeUnit.MILLISECONDS);
        }

        /** Answers with each partition's last code; a partition the cluster has is never UNKNOWN_TOPIC_OR_PARTITION. */
        private void finish() {
            Map<TopicPartitionRef, Short> out;
            synchronized (this) {
                out = new HashMap<>(codes);
            }
            out.replaceAll((tp, code) -> code == Errors.UNKNOWN_TOPIC_OR_PARTITION
                && view.leader(tp.topic(), tp.partition()).isPresent() ? Errors.NOT_LEADER_OR_FOLLOWER : code);
            done.complete(out);
        }
    }
}
