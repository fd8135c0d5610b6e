package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.RegisteredEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A broker's store in a process of its own, for {@link ZooKeeperPauseTest}: opens the store on {@code args[0]} as
 * node {@code args[1]}, registers, then prints every 20 ms one line {@code lease=<valid> state=<state> epoch=<its
 * broker epoch as it sees it, or -1> at=<the wall-clock millisecond the lease was looked at>} until it is killed.
 */
public final class LeaseReportingMain {
    private LeaseReportingMain() {
    }

    public static void main(String[] args) throws Exception {
        int nodeId = Integer.parseInt(args[1]);
        ZooKeeperClusterStore store = ZooKeeperClusterStore.open(new ClusterStoreContext(Path.of("."),
                TestZooKeeper.config(args[0]), nodeId));
        store.registerBroker(new BrokerRegistration(nodeId, List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT",
                "127.0.0.1", 9092)), Optional.empty(), "127.0.0.1", ProcessHandle.current().pid()));
        while (true) {
            long at = System.currentTimeMillis();
            boolean lease = store.session().leaseValid();
            LiveBroker me = store.liveBrokers().get(nodeId);
            System.out.println("lease=" + lease + " state=" + store.session().state() + " epoch="
                    + (me == null ? -1 : me.brokerEpoch()) + " at=" + at);
            System.out.flush();
            Thread.sleep(20);
        }
    }
}
