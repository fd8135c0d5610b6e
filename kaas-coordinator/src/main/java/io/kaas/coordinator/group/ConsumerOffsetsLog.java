package io.kaas.coordinator.group;

/**
 * The internal topic {@code __consumer_offsets} as the group coordinator sees it: committed offsets live in its
 * partitions (on the same volume and with the same durability as data, owned like any partition), group
 * {@code g} on partition {@code abs(g.hashCode()) % partitionCount()}, as in Kafka. The broker creates it and hands its
 * partitions over as this broker gains them ({@link GroupCoordinator#onPartitionGained}).
 */
@FunctionalInterface
public interface ConsumerOffsetsLog {
    /** The number of partitions: the topic's once it exists, else {@code offsets.topic.num.partitions}. */
    int partitionCount();
}
