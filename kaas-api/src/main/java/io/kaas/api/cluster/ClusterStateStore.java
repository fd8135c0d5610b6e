package io.kaas.api.cluster;

import io.kaas.api.auth.AclBinding;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * Durable cluster state, shared by every broker of the cluster, and the coordination of those brokers. Thread-safe;
 * methods may block on I/O and are never called on a network event loop. Every mutating method is durable when it
 * returns (for the file store: written to a temporary file, fsynced, renamed, directory fsynced; for ZooKeeper:
 * acknowledged by a quorum); a failure to persist throws {@link ClusterStateException} and leaves the previous state in
 * force. Getters answer from memory where the store can (a store shared by several brokers keeps its copy current with
 * watches and tells {@link ClusterListener}s). Closed once, if and only if it was opened successfully.
 *
 * <p><b>What is kept here.</b> Low-rate metadata: topics and their configs, each group's own configs (Kafka's GROUP
 * config resource), ACLs, the SCRAM credentials of SASL users (salted and hashed as RFC 5802 says), producer-id
 * blocks, and the coordination state: live brokers, the controller, the partition assignments with their leader epochs
 * and requested partition moves. High-rate state is not: committed offsets and transaction state live in the internal
 * partitions {@code __consumer_offsets} and {@code __transaction_state} on the shared volume, owned like any partition.
 *
 * <p><b>Coordination.</b> A broker joins by {@link #registerBroker registering} (tied to its {@link #session()}: the
 * registration ends with the session), takes part in the {@link #electController controller election}, and follows
 * {@link #assignments()}. Only the controller writes assignments, with compare-and-set on each topic's version and on
 * its {@link ControllerTerm}, so two brokers can never both believe they won a write. A broker acts as the writer of a
 * partition only while its lease holds ({@link ClusterSession#leaseValid()}) and the assignment names its current
 * registration. The embedded single-broker {@code files} store has one broker, always the controller, and a lease that
 * never ends; it locks the data directory so that no second broker can use it.
 */
public interface ClusterStateStore extends AutoCloseable {

    /** The cluster id, created once (22-character URL-safe base64 of a random UUID, as Kafka's) and then stable. */
    String clusterId();

    /** Every topic, in no particular order. A snapshot: later changes do not show in it. */
    Collection<TopicRecord> topics();

    Optional<TopicRecord> topic(String name);

    Optional<TopicRecord> topic(UUID topicId);

    /** Stores a new topic. @throws TopicExistsException if the name is taken */
    void createTopic(TopicRecord topic);

    /** Removes a topic. @throws UnknownTopicException if absent */
    void deleteTopic(String name);

    /** Replaces a topic's config overrides. @throws UnknownTopicException if absent */
    TopicRecord updateTopicConfigs(String name, Map<String, String> configs);

    /** Raises a topic's partition count. @throws UnknownTopicException if absent */
    TopicRecord updatePartitionCount(String name, int partitions);

    /**
     * Reserves {@code size} consecutive producer ids that no other call, on this or any broker, before
     * or after a restart, will hand out again. @return the first id of the block
     */
    long allocateProducerIdBlock(int size);

    // ---- committed offsets as stores kept them before SPI 5 ----
    // Committed offsets live in __consumer_offsets since SPI 5. A store that kept them before (the files store) still
    // answers these, so the group coordinator reads a pre-5 data directory's offsets once, writes them to their
    // partitions and removes them with deleteGroup; a new store implements none of them.

    /**
     * Stores committed offsets of consumer group {@code groupId}, replacing any earlier commit of the
     * same partitions and keeping the group's other partitions. All or nothing: durable when it
     * returns (OffsetCommit is answered only then); on failure throws {@link ClusterStateException}
     * and no offset of the call is stored. Calls for one group are applied in call order; the caller
     * (the group coordinator) serializes commits per group. The topics are not checked.
     *
     * @param groupId the group id: any characters, possibly empty (Kafka accepts "" in OffsetCommit)
     * @param offsets the offsets by partition; empty changes nothing
     */
    @Deprecated
    default void commitOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) {
        throw new UnsupportedOperationException("committed offsets live in __consumer_offsets");
    }

    /**
     * The offsets committed by {@code groupId}, empty if none. A snapshot; reads from memory where the
     * store can, so it is cheap enough to call on every OffsetFetch.
     */
    @Deprecated
    default Map<TopicPartitionRef, CommittedOffset> committedOffsets(String groupId) {
        return Map.of();
    }

    /** The ids of every group with at least one committed offset, in no particular order. A snapshot. */
    @Deprecated
    default Collection<String> groupsWithOffsets() {
        return java.util.List.of();
    }

    /**
     * Removes every committed offset of {@code groupId} (DeleteGroups, offset expiry). Durable on
     * return; a group without offsets is not an error.
     */
    @Deprecated
    default void deleteGroup(String groupId) {
    }

    /**
     * Removes the committed offsets of {@code partitions} from {@code groupId} (OffsetDelete, expiry),
     * keeping its others; when none remain the group is removed as by {@link #deleteGroup}. Durable on
     * return; partitions without an offset are ignored.
     */
    @Deprecated
    default void deleteOffsets(String groupId, Collection<TopicPartitionRef> partitions) {
        throw new UnsupportedOperationException("committed offsets live in __consumer_offsets");
    }

    /**
     * The dynamic config overrides of group {@code groupId} (Kafka's GROUP config resource:
     * {@code consumer.session.timeout.ms}...), empty if none. Independent of the group's offsets and of
     * whether the group has members. A snapshot, read from memory where the store can.
     */
    Map<String, String> groupConfigs(String groupId);

    /**
     * Replaces the config overrides of group {@code groupId}; an empty map removes them. The broker has
     * validated names and values; the store keeps the strings as given. Durable on return; on failure
     * throws {@link ClusterStateException} and the previous overrides stay in force. Unaffected by
     * {@link #deleteGroup} (as in Kafka, where a group's configs are metadata of their own).
     *
     * @param groupId the group id: any characters except that it is not empty (Kafka refuses the default group)
     */
    void updateGroupConfigs(String groupId, Map<String, String> configs);

    /** The ids of every group with at least one config override, in no particular order. A snapshot. */
    Collection<String> groupsWithConfigs();

    // ---- SCRAM credentials (SASL/SCRAM-SHA-256 and -512 users) ----

    /**
     * Every stored SCRAM credential, in no particular order. A snapshot, read from memory where the store
     * can. Records hold the salt and the derived keys, never a password (none is stored).
     */
    Collection<ScramCredentialRecord> scramCredentials();

    /**
     * The SCRAM credentials of {@code user}, at most one per mechanism, empty if none. A snapshot, read
     * from memory where the store can: the broker calls it on every SCRAM authentication.
     */
    Collection<ScramCredentialRecord> scramCredentials(String user);

    /**
     * Stores {@code upserts} (replacing a credential of the same user and mechanism) and removes
     * {@code deletions} (a deletion of a credential that does not exist is ignored), all or nothing:
     * durable when it returns; on failure throws {@link ClusterStateException} and none of the changes is
     * in force. Both empty changes nothing.
     *
     * @throws IllegalArgumentException if a credential is named twice across both collections
     */
    void alterScramCredentials(Collection<ScramCredentialRecord> upserts, Collection<ScramCredentialRef> deletions);

    // --- ACLs ---

    /**
     * Every stored ACL binding (the authorizer's, see {@link io.kaas.api.auth.AclStore}), each once, in no
     * particular order. A snapshot, read from memory where the store can.
     */
    Collection<AclBinding> acls();

    /**
     * Stores the bindings not stored yet; a binding stored already is no change. All or nothing: durable
     * when it returns; on failure throws {@link ClusterStateException} and none of them is stored.
     */
    void addAcls(Collection<AclBinding> bindings);

    /**
     * Removes the bindings that are stored; others are ignored. All or nothing: durable when it returns; on
     * failure throws {@link ClusterStateException} and every binding stays.
     */
    void removeAcls(Collection<AclBinding> bindings);

    // ---- client quotas and dynamic broker configs ----

    /**
     * Every stored client quota: entity to (quota key to value). Keys are Kafka's ({@code producer_byte_rate},
     * {@code consumer_byte_rate}, {@code request_percentage}, {@code controller_mutation_rate},
     * {@code connection_creation_rate}); the store keeps any key as given (validation is the broker's). A snapshot, read
     * from memory where the store can.
     */
    Map<ClientQuotaEntity, Map<String, Double>> clientQuotas();

    /**
     * Applies quota changes, all or nothing: per entity, a key mapped to a value sets it, a key mapped to
     * {@link Optional#empty()} removes it; an entity left with no key disappears. Durable on return; on failure throws
     * {@link ClusterStateException} and no change is in force.
     */
    void alterClientQuotas(Map<ClientQuotaEntity, Map<String, Optional<Double>>> changes);

    /**
     * The dynamic broker configs of broker {@code brokerId}, or the cluster-wide default when empty (as Kafka's
     * {@code --entity-default}): key to value, only what was set dynamically. A snapshot, read from memory where the
     * store can.
     */
    Map<String, String> brokerConfigs(OptionalInt brokerId);

    /**
     * Replaces the dynamic configs of broker {@code brokerId} (or the cluster default) with {@code configs}; an empty
     * map removes them all. The broker has validated names and values; the store keeps the strings as given. Durable
     * on return; on failure throws {@link ClusterStateException} and the previous configs stay in force.
     */
    void updateBrokerConfigs(OptionalInt brokerId, Map<String, String> configs);

    // ---- coordination (SPI 5) ----

    /** This broker's session, and the lease that says whether it may act as a writer now. */
    ClusterSession session();

    /**
     * Registers this broker, tied to its session: the registration ends when the session does (or the store closes).
     * After an {@link SessionState#EXPIRED expired} session the store registers the same registration again by itself,
     * under a new broker epoch, before it reports {@link SessionState#CONNECTED} (if the node id was taken meanwhile it
     * logs that and stays unregistered, reporting {@link ClusterListener#brokersChanged}). Called once per store.
     *
     * @return the registration with its broker epoch
     * @throws BrokerIdInUseException if a live broker (another registration) holds {@code registration.nodeId()}
     */
    LiveBroker registerBroker(BrokerRegistration registration);

    /** The brokers registered now, by node id. A snapshot, from memory. */
    java.util.Map<Integer, LiveBroker> liveBrokers();

    /**
     * Enters this broker into the controller election; {@code listener} is told when its terms begin and end, for as
     * long as the store is open (after an expired session the store enters it again by itself). Called once.
     */
    void electController(ControllerListener listener);

    /** The controller as the store knows it now, if one is elected. From memory. */
    Optional<ControllerTerm> controller();

    /** Every topic's assignment, by topic id, each with its version. A snapshot, from memory. */
    java.util.Map<UUID, TopicAssignment> assignments();

    /**
     * Writes {@code changes}, all or nothing, if {@code term} is still the controller's term and each change's
     * {@link TopicAssignment#version()} is the stored one ({@link TopicAssignment#NEW}: none is stored). Durable on
     * return; the new versions show in {@link #assignments()}. Assignments of topics that no longer exist are refused
     * as a conflict.
     *
     * @throws NotControllerException   if {@code term} ended; nothing is written
     * @throws VersionConflictException if a version differs; nothing is written
     */
    void updateAssignments(ControllerTerm term, Collection<TopicAssignment> changes);

    /**
     * The partition moves asked for (AlterPartitionReassignments) and not yet done: the target broker of each. The
     * controller carries a move out, then removes it ({@link #alterReassignmentRequests} with -1). A snapshot.
     */
    java.util.Map<TopicPartitionRef, Integer> reassignmentRequests();

    /**
     * Adds, replaces or (with a target of -1) removes partition move requests, all or nothing; durable on return.
     * Any broker may call it.
     */
    void alterReassignmentRequests(java.util.Map<TopicPartitionRef, Integer> targets);

    /** Tells {@code listener} of every later change ({@link ClusterListener}). */
    void addListener(ClusterListener listener);

    void removeListener(ClusterListener listener);

    @Override
    void close();
}
