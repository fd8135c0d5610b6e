package io.kaas.coordinator.group;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** Topics and committed offsets in memory, for coordinator unit tests. */
final class InMemoryStore implements ClusterStateStore {
    final Map<String, TopicRecord> topics = new ConcurrentHashMap<>();
    final Map<String, Map<TopicPartitionRef, CommittedOffset>> offsets = new ConcurrentHashMap<>();
    final Map<String, Map<String, String>> groupConfigs = new ConcurrentHashMap<>();
    final Map<ScramCredentialRef, ScramCredentialRecord> scram = new ConcurrentHashMap<>();
    int commitCalls;

    InMemoryStore withTopic(String name, int partitions) {
        topics.put(name, new TopicRecord(name, UUID.randomUUID(), partitions, Map.of()));
        return this;
    }

    @Override
    public String clusterId() {
        return "test-cluster-id-000000";
    }

    @Override
    public Collection<TopicRecord> topics() {
        return List.copyOf(topics.values());
    }

    @Override
    public Optional<TopicRecord> topic(String name) {
        return Optional.ofNullable(topics.get(name));
    }

    @Override
    public Optional<TopicRecord> topic(UUID topicId) {
        return topics.values().stream().filter(t -> t.topicId().equals(topicId)).findFirst();
    }

    @Override
    public void createTopic(TopicRecord topic) {
        topics.put(topic.name(), topic);
    }

    @Override
    public void deleteTopic(String name) {
        topics.remove(name);
    }

    @Override
    public TopicRecord updateTopicConfigs(String name, Map<String, String> configs) {
        return topics.computeIfPresent(name, (n, t) -> t.withConfigs(configs));
    }

    @Override
    public TopicRecord updatePartitionCount(String name, int partitions) {
        return topics.computeIfPresent(name, (n, t) -> t.withPartitions(partitions));
    }

    @Override
    public long allocateProducerIdBlock(int size) {
        return 0;
    }

    @Override
    public synchronized void commitOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> o) {
        commitCalls++;
        Map<TopicPartitionRef, CommittedOffset> m = new HashMap<>(offsets.getOrDefault(groupId, Map.of()));
        m.putAll(o);
        offsets.put(groupId, Map.copyOf(m));
    }

    @Override
    public Map<TopicPartitionRef, CommittedOffset> committedOffsets(String groupId) {
        return offsets.getOrDefault(groupId, Map.of());
    }

    @Override
    public Collection<String> groupsWithOffsets() {
        return List.copyOf(offsets.keySet());
    }

    @Override
    public synchronized void deleteGroup(String groupId) {
        offsets.remove(groupId);
    }

    @Override
    public synchronized void deleteOffsets(String groupId, Collection<TopicPartitionRef> partitions) {
        Map<TopicPartitionRef, CommittedOffset> m = new HashMap<>(offsets.getOrDefault(groupId, Map.of()));
        m.keySet().removeAll(partitions);
        if (m.isEmpty()) {
            offsets.remove(groupId);
        } else {
            offsets.put(groupId, Map.copyOf(m));
        }
    }

    @Override
    public Map<String, String> groupConfigs(String groupId) {
        return groupConfigs.getOrDefault(groupId, Map.of());
    }

    @Override
    public void updateGroupConfigs(String groupId, Map<String, String> configs) {
        if (configs.isEmpty()) {
            groupConfigs.remove(groupId);
        } else {
            groupConfigs.put(groupId, Map.copyOf(configs));
        }
    }

    @Override
    public Collection<String> groupsWithConfigs() {
        return List.copyOf(groupConfigs.keySet());
    }

    final Map<io.kaas.api.cluster.ClientQuotaEntity, Map<String, Double>> clientQuotas = new ConcurrentHashMap<>();
    final Map<java.util.OptionalInt, Map<String, String>> brokerConfigs = new ConcurrentHashMap<>();

    @Override
    public Map<io.kaas.api.cluster.ClientQuotaEntity, Map<String, Double>> clientQuotas() {
        return Map.copyOf(clientQuotas);
    }

    @Override
    public synchronized void alterClientQuotas(
            Map<io.kaas.api.cluster.ClientQuotaEntity, Map<String, java.util.Optional<Double>>> changes) {
        changes.forEach((entity, keys) -> {
            Map<String, Double> values = new java.util.HashMap<>(clientQuotas.getOrDefault(entity, Map.of()));
            keys.forEach((k, v) -> {
                if (v.isPresent()) {
                    values.put(k, v.get());
                } else {
                    values.remove(k);
                }
            });
            if (values.isEmpty()) {
                clientQuotas.remove(entity);
            } else {
                clientQuotas.put(entity, Map.copyOf(values));
            }
        });
    }

    @Override
    public Map<String, String> brokerConfigs(java.util.OptionalInt brokerId) {
        return brokerConfigs.getOrDefault(brokerId, Map.of());
    }

    @Override
    public void updateBrokerConfigs(java.util.OptionalInt brokerId, Map<String, String> configs) {
        if (configs.isEmpty()) {
            brokerConfigs.remove(brokerId);
        } else {
            brokerConfigs.put(brokerId, Map.copyOf(configs));
        }
    }

    final java.util.Set<AclBinding> acls = ConcurrentHashMap.newKeySet();

    @Override
    public Collection<AclBinding> acls() {
        return List.copyOf(acls);
    }

    @Override
    public void addAcls(Collection<AclBinding> bindings) {
        acls.addAll(bindings);
    }

    @Override
    public void removeAcls(Collection<AclBinding> bindings) {
        acls.removeAll(bindings);
    }

    @Override
    public Collection<ScramCredentialRecord> scramCredentials() {
        return List.copyOf(scram.values());
    }

    @Override
    public Collection<ScramCredentialRecord> scramCredentials(String user) {
        return scram.values().stream().filter(r -> r.user().equals(user)).toList();
    }

    @Override
    public void alterScramCredentials(Collection<ScramCredentialRecord> upserts, Collection<ScramCredentialRef> deletions) {
        deletions.forEach(scram::remove);
        upserts.forEach(r -> scram.put(r.ref(), r));
    }

    @Override
    public void close() {
    }

    // ---- coordination: the coordinators never coordinate brokers, so no test here reaches these ----

    @Override
    public io.kaas.api.cluster.ClusterSession session() {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public io.kaas.api.cluster.LiveBroker registerBroker(io.kaas.api.cluster.BrokerRegistration registration) {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public Map<Integer, io.kaas.api.cluster.LiveBroker> liveBrokers() {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public void electController(io.kaas.api.cluster.ControllerListener listener) {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public Optional<io.kaas.api.cluster.ControllerTerm> controller() {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public Map<UUID, io.kaas.api.cluster.TopicAssignment> assignments() {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public void updateAssignments(io.kaas.api.cluster.ControllerTerm term,
                                  Collection<io.kaas.api.cluster.TopicAssignment> changes) {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public Map<TopicPartitionRef, Integer> reassignmentRequests() {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public void alterReassignmentRequests(Map<TopicPartitionRef, Integer> targets) {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public void addListener(io.kaas.api.cluster.ClusterListener listener) {
        throw new UnsupportedOperationException("not used by the coordinators");
    }

    @Override
    public void removeListener(io.kaas.api.cluster.ClusterListener listener) {
        throw new UnsupportedOperationException("not used by the coordinators");
    }
}
