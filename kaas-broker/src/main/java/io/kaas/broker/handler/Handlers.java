package io.kaas.broker.handler;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.quota.ClientQuotaManager;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.ServedApi;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.transaction.VerificationGuards;
import io.kaas.coordinator.group.GroupConfigs;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.transaction.ProducerIds;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Registers every topic, produce/fetch and admin handler with its contract; the registry adds ApiVersions. */
public final class Handlers {
    private Handlers() {
    }

    public static List<ServedApi<?, ?>> create(BrokerContext ctx, TopicManager topics, ProducerIds producerIds,
                                               TransactionCoordinator transactions, VerificationGuards guards,
                                               GroupCoordinator groups) {
        return create(ctx, topics, producerIds, transactions, localVerifier(transactions), guards, groups, null);
    }

    /**
     * As above, Produce verifying transactional batches through {@code verifier} (a coordinator elsewhere, say), and
     * topic creations and deletions held to the {@code controller_mutation_rate} of {@code quotas} (null: none).
     */
    public static List<ServedApi<?, ?>> create(BrokerContext ctx, TopicManager topics, ProducerIds producerIds,
                                               TransactionCoordinator transactions, TransactionVerifier verifier,
                                               VerificationGuards guards, GroupCoordinator groups,
                                               ClientQuotaManager quotas) {
        int nodeId = ctx.nodeId();
        GroupConfigs groupConfigs = groups.groupConfigs();
        return List.of(
                ServedApi.of(ApiContracts.PRODUCE, new ProduceHandler(topics, verifier, guards,
                        ctx.config().implicitAddRetry())),
                ServedApi.of(ApiContracts.FETCH, new FetchHandler(ctx, topics)),
                ServedApi.of(ApiContracts.LIST_OFFSETS, new ListOffsetsHandler(topics)),
                ServedApi.of(ApiContracts.OFFSET_FOR_LEADER_EPOCH, new OffsetForLeaderEpochHandler(topics)),
                ServedApi.of(ApiContracts.METADATA, new MetadataHandler(ctx, topics)),
                ServedApi.of(ApiContracts.CREATE_TOPICS, new CreateTopicsHandler(nodeId, topics, quotas)),
                ServedApi.of(ApiContracts.DELETE_TOPICS, new DeleteTopicsHandler(topics, quotas)),
                ServedApi.of(ApiContracts.DELETE_RECORDS, new DeleteRecordsHandler(topics)),
                ServedApi.of(ApiContracts.INIT_PRODUCER_ID, new InitProducerIdHandler(producerIds, transactions)),
                ServedApi.of(ApiContracts.DESCRIBE_CONFIGS, new DescribeConfigsHandler(ctx, topics, groupConfigs)),
                ServedApi.of(ApiContracts.ALTER_CONFIGS, new AlterConfigsHandler(topics, groupConfigs, ctx.clusterStore(),
                        nodeId, ctx::listenerTlsProblem, threadCounts(ctx))),
                ServedApi.of(ApiContracts.CREATE_PARTITIONS, new CreatePartitionsHandler(nodeId, topics, quotas)),
                ServedApi.of(ApiContracts.INCREMENTAL_ALTER_CONFIGS, new IncrementalAlterConfigsHandler(topics, groupConfigs,
                        ctx.clusterStore(), nodeId, ctx::listenerTlsProblem, threadCounts(ctx))),
                ServedApi.of(ApiContracts.LIST_CONFIG_RESOURCES, new ListConfigResourcesHandler(nodeId, topics, groupConfigs)),
                ServedApi.of(ApiContracts.DESCRIBE_CLUSTER, new DescribeClusterHandler(ctx)),
                ServedApi.of(ApiContracts.DESCRIBE_USER_SCRAM_CREDENTIALS,
                        new DescribeUserScramCredentialsHandler(ctx.clusterStore())),
                ServedApi.of(ApiContracts.ALTER_USER_SCRAM_CREDENTIALS,
                        new AlterUserScramCredentialsHandler(ctx.clusterStore())),
                ServedApi.of(ApiContracts.DESCRIBE_TOPIC_PARTITIONS, new DescribeTopicPartitionsHandler(ctx, topics)),
                ServedApi.of(ApiContracts.ALTER_PARTITION_REASSIGNMENTS,
                        new AlterPartitionReassignmentsHandler(ctx, topics)),
                ServedApi.of(ApiContracts.LIST_PARTITION_REASSIGNMENTS, new ListPartitionReassignmentsHandler(ctx, topics)),
                ServedApi.of(ApiContracts.ELECT_LEADERS, new ElectLeadersHandler(ctx, topics)),
                ServedApi.of(ApiContracts.DESCRIBE_LOG_DIRS, new DescribeLogDirsHandler(ctx, topics)));
    }

    /**
     * Kafka's checks of a dynamic change against what this broker runs with: the thread counts, then the listeners'
     * connection quotas.
     */
    private static java.util.function.BiFunction<Map<String, String>, Map<String, String>, String> threadCounts(
            BrokerContext ctx) {
        return (before, after) -> {
            String threads = io.kaas.broker.config.DynamicThreadCounts.problem(ctx.config(), before, after);
            return threads != null ? threads
                    : io.kaas.broker.config.ListenerQuotaChecks.problem(ctx.config(), before, after);
        };
    }

    /** Produce's view of this broker's coordinator: verification, and the completion a retried implicit add waits for. */
    public static TransactionVerifier localVerifier(TransactionCoordinator transactions) {
        return new TransactionVerifier() {
            @Override
            public CompletableFuture<Map<TopicPartitionRef, Short>> addPartitions(String transactionalId, long producerId,
                    short producerEpoch, Collection<TopicPartitionRef> partitions, boolean verifyOnly) {
                return transactions.addPartitions(transactionalId, producerId, producerEpoch, partitions, verifyOnly);
            }

            @Override
            public CompletableFuture<Void> completion(String transactionalId) {
                return transactions.completion(transactionalId);
            }
        };
    }
}
