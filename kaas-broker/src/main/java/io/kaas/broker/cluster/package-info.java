/**
 * The cluster of brokers on one shared volume: the view of live brokers and partition writers, this broker's
 * ownership of partitions (opened at their leader epoch, given up when moved or fenced) and the controller that
 * assigns partitions to live brokers.
 */
package io.kaas.broker.cluster;
