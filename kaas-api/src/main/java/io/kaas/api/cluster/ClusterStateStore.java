package io.kaas.api.cluster;

import io.kaas.api.auth.AclBinding;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Durable cluster state. Thread-safe; methods may block on I/O and are never called on a network
 * event loop. Every mutating method is durable when it returns (for the file store: written to a
 * temporary file, fsynced, renamed, directory fsynced); a failure to persist throws
 * {@link ClusterStateException} and leaves the previous state in force.
 * Closed once, if and only if it was opened successfully.
 *
 * <p>Besides topics, the store keeps the committed offsets of consumer groups: the group coordinator
 * holds group membership in memory and only offsets are durable, as in Kafka, where a restarted
 * coordinator reloads offsets and members rejoin. It also keeps each group's own configs (Kafka's GROUP
 * config resource), low-rate metadata like a topic's configs, and the SCRAM credentials of SASL users
 * (salted and hashed as RFC 5802 says, managed with AlterUserScramCredentials).
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
    void commitOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets);

    /**
     * The offsets committed by {@code groupId}, empty if none. A snapshot; reads from memory where the
     * store can, so it is cheap enough to call on every OffsetFetch.
     */
    Map<TopicPartitionRef, CommittedOffset> committedOffsets(String groupId);

    /** The ids of every group with at least one committed offset, in no particular order. A snapshot. */
    Collection<String> groupsWithOffsets();

    /**
     * Removes every committed offset of {@code groupId} (DeleteGroups, offset expiry). Durable on
     * return; a group without offsets is not an error.
     */
    void deleteGroup(String groupId);

    /**
     * Removes the committed offsets of {@code partitions} from {@code groupId} (OffsetDelete, expiry),
     * keeping its others; when none remain the group is removed as by {@link #deleteGroup}. Durable on
     * return; partitions without an offset are ignored.
     */
    void deleteOffsets(String groupId, Collection<TopicPartitionRef> partitions);

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

    @Override
    void close();
}
