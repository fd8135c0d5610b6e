package io.kaas.broker.interbroker;

import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.handler.TransactionVerifier;
import io.kaas.coordinator.transaction.MarkerWriter;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's inter-broker requests, wired in one place: the {@link BrokerClient} over the inter-broker listener,
 * the coordinator's marker writer and Produce's transaction verifier that reach other brokers through it. Settings of
 * the inter-broker listener that cannot be used are logged once at start (naming the key) and fail only the requests
 * that need another broker. Thread-safe.
 */
public final class InterBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InterBroker.class);

    private final ClusterView view;
    private final BrokerClient client;
    private final ScheduledExecutorService scheduler;

    private InterBroker(ClusterView view, BrokerClient client, ScheduledExecutorService scheduler) {
        this.view = view;
        this.client = client;
        this.scheduler = scheduler;
    }

    /** @param scheduler runs the marker retries' backoff (the broker's scheduler) */
    public static InterBroker open(BrokerConfig config, ClusterView view, ScheduledExecutorService scheduler) {
        BrokerClient client = BrokerClient.of(config, view, e -> LOG.atWarn().addKeyValue("nodeId", config.nodeId())
            .addKeyValue("listener", config.interBrokerListenerName())
            .log("Inter-broker listener {} cannot be used ({}); requests to other brokers (transaction markers, "
                + "transaction verification) will fail until it is fixed", config.interBrokerListenerName(),
                e.getMessage()));
        return new InterBroker(view, client, scheduler);
    }

    /** The coordinator's marker writer: {@code local} for partitions led here, WriteTxnMarkers for the others. */
    public MarkerWriter markers(MarkerWriter local) {
        return new RemoteMarkerWriter(local, view, client, scheduler, RemoteMarkerWriter.DEFAULT_BUDGET_MS);
    }

    /**
     * Produce's verifier: {@code local} when the transactional id's coordinator is this broker, AddPartitionsToTxn to
     * the coordinator broker otherwise.
     *
     * @param partitionFor the {@code __transaction_state} partition of a transactional id
     */
    public TransactionVerifier verifier(TransactionVerifier local, ToIntFunction<String> partitionFor) {
        return new RemoteTransactionVerifier(local, partitionFor, view, client);
    }

    public BrokerClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
    }
}
