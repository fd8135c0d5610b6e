package io.kaas.cluster.zookeeper.internal;

import java.util.List;
import java.util.UUID;

/** Where the store keeps what, under the chroot of {@code zookeeper.connect} (see {@link ZooKeeperClusterStore}). */
final class ZkPaths {
    static final String CLUSTER_ID = "/cluster/id";
    static final String BROKERS = "/brokers/ids";
    static final String CONTROLLER = "/controller";
    static final String CONTROLLER_EPOCH = "/controller_epoch";
    static final String ELECTION = "/controller_election";
    static final String TOPICS = "/topics";
    static final String ASSIGNMENTS = "/assignments";
    static final String REASSIGNMENTS = "/reassign_partitions";
    static final String PRODUCER_IDS = "/latest_producer_id_block";
    static final String GROUP_CONFIGS = "/config/groups";
    static final String SCRAM = "/config/users";
    static final String ACLS = "/acls";
    static final String BROKER_CONFIGS = "/config/brokers";

    /** The directories created at open (the single nodes are created when first written). */
    static final List<String> DIRECTORIES = List.of("/cluster", BROKERS, ELECTION, TOPICS, ASSIGNMENTS, GROUP_CONFIGS,
            SCRAM, ACLS, BROKER_CONFIGS, WatchedQuotas.CLIENTS, WatchedQuotas.IPS);

    private ZkPaths() {
    }

    static String child(String dir, String name) {
        return dir + "/" + name;
    }

    static String broker(int nodeId) {
        return child(BROKERS, Integer.toString(nodeId));
    }

    static String topic(String name) {
        return child(TOPICS, name);
    }

    static String assignment(UUID topicId) {
        return child(ASSIGNMENTS, Json.uuidText(topicId));
    }
}
