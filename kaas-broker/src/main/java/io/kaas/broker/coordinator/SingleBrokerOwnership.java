package io.kaas.broker.coordinator;

import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.cluster.OwnershipListener;
import io.kaas.broker.topic.Topic;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ownership of a coordinator's internal topic on a broker that is alone: it owns every partition, at the epoch
 * its log was opened with. {@link #announce} tells the listener once per topic (by id) of every partition gained;
 * the broker calls it when the topic is there (after the topics open, and whenever the coordinator topic is found or
 * created). A broker that follows a cluster uses its partition ownership instead. Thread-safe.
 */
public final class SingleBrokerOwnership {
    private static final Logger LOG = LoggerFactory.getLogger(SingleBrokerOwnership.class);

    private final OwnershipListener listener;
    private final Set<java.util.UUID> announced = ConcurrentHashMap.newKeySet();

    public SingleBrokerOwnership(OwnershipListener listener) {
        this.listener = listener;
    }

    /** Tells the listener of every partition of {@code topic}, the first time it is called for that topic. */
    public void announce(Topic topic) {
        if (!announced.add(topic.id())) {
            return;
        }
        synchronized (this) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionLog log = topic.log(p);
                try {
                    listener.gained(new PartitionKey(topic.name(), topic.id(), p), log, log.leaderEpoch());
                } catch (RuntimeException e) {
                    LOG.atError().setCause(e).addKeyValue("partition", topic.name() + "-" + p)
                            .log("The coordinator could not take over {}-{}", topic.name(), p);
                }
            }
        }
    }
}
