/**
 * Topics as the broker serves them: the {@link io.kaas.broker.topic.TopicManager} keeps every topic's
 * cluster record, open partition logs and resolved {@link io.kaas.api.storage.LogConfig}, validates
 * names and configs as Kafka does, and wakes long-polling fetches when a partition grows.
 */
package io.kaas.broker.topic;
