package io.kaas.broker.handler;

import java.util.Comparator;

/**
 * The order in which Kafka 4.4 lists a broker's configs in DescribeConfigs: that of the {@code java.util.HashMap} its
 * {@code AbstractConfig.nonInternalValues()} builds, sized for the broker's 379 config values (a table of 512
 * buckets), which iterates by bucket: {@code (h ^ (h >>> 16)) & 511} of each name's hash. Java's Admin and the
 * CLI tools find configs by name, but some clients read the answers by position (kafkajs's own tests ask for
 * {@code default.replication.factor} and {@code num.partitions} and take the first as the former, as Kafka
 * answers). Sorting stably by the same bucket gives Kafka's order for every key both brokers have.
 */
final class KafkaBrokerConfigOrder {
    /** Kafka 4.4's broker config table: 379 values, {@code HashMap(379)}, 512 buckets. */
    private static final int BUCKETS = 512;

    static final Comparator<String> BY_NAME = Comparator.comparingInt(KafkaBrokerConfigOrder::bucket);

    private KafkaBrokerConfigOrder() {
    }

    static int bucket(String name) {
        int h = name.hashCode();
        return (h ^ (h >>> 16)) & (BUCKETS - 1);
    }
}
