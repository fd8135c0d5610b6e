package io.kaas.broker.topic;

import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterStateStore;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the dynamic broker configs of the cluster-state store (the cluster default and this broker's own) at start-up
 * and after every change any broker makes ({@link ClusterListener#brokerConfigsChanged}), without a restart.
 */
public final class DynamicBrokerConfigApplier implements ClusterListener {
    private static final Logger LOG = LoggerFactory.getLogger(DynamicBrokerConfigApplier.class);

    private final ClusterStateStore store;
    private final int nodeId;
    private final TopicManager topics;
    private final Executor executor;
    private final Consumer<Map<String, String>> others;
    private Map<String, String> applied = Map.of(); // only on the executor, or before start returns

    public DynamicBrokerConfigApplier(ClusterStateStore store, int nodeId, TopicManager topics, Executor executor) {
        this(store, nodeId, topics, executor, merged -> { });
    }

    /**
     * @param others applies the broker's effective dynamic configs (its own over the cluster default) outside the
     *               topics, e.g. the connection limits; may throw to report values it cannot apply
     */
    public DynamicBrokerConfigApplier(ClusterStateStore store, int nodeId, TopicManager topics, Executor executor,
                                      Consumer<Map<String, String>> others) {
        this.store = store;
        this.nodeId = nodeId;
        this.topics = topics;
        this.executor = executor;
        this.others = others;
    }

    /** Applies what is stored now and follows later changes. */
    public synchronized void start() {
        store.addListener(this);
        apply();
    }

    @Override
    public void brokerConfigsChanged() {
        executor.execute(this::apply);
    }

    private synchronized void apply() {
        Map<String, String> clusterDefault = store.brokerConfigs(OptionalInt.empty());
        Map<String, String> own = store.brokerConfigs(OptionalInt.of(nodeId));
        Map<String, String> merged = io.kaas.broker.config.DynamicBrokerConfigs.merged(clusterDefault, own);
        if (merged.equals(applied)) {
            return;
        }
        try {
            topics.applyDynamicBrokerConfigs(clusterDefault, own);
            others.accept(merged);
            // keys only: a key kaas does not know is stored as given and might hold a secret
            LOG.atInfo().setMessage("Broker {} applied dynamic broker configs: cluster default {}, its own {}")
                    .addArgument(nodeId).addArgument(new java.util.TreeSet<>(clusterDefault.keySet()))
                    .addArgument(new java.util.TreeSet<>(own.keySet())).addKeyValue("nodeId", nodeId).log();
            applied = merged;
        } catch (RuntimeException e) {
            LOG.atError().setMessage("Broker {} could not apply the dynamic broker configs {}: {}").addArgument(nodeId)
                    .addArgument(new java.util.TreeSet<>(merged.keySet())).addArgument(e.toString()).addKeyValue("nodeId", nodeId).log();
        }
    }
}
