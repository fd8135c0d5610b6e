package io.kaas.broker.handler.txn;

import io.kaas.broker.handler.TransactionVerifier;
import io.kaas.broker.handler.group.TxnOffsetCommitHandler;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.ServedApi;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.transaction.MarkerAppender;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Registers the transaction APIs over one coordinator: AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit,
 * EndTxn, WriteTxnMarkers, DescribeTransactions, ListTransactions and DescribeProducers. (InitProducerId, Produce and
 * FindCoordinator, which transactions share with other uses, are registered with the records and group APIs.)
 */
public final class TxnHandlers {
    private TxnHandlers() {
    }

    /**
     * @param offsets  the group coordinator's offsets (TxnOffsetCommit)
     * @param verifier the transaction coordinators, here or on other brokers (TxnOffsetCommit of a remote one)
     * @param blocking runs TxnOffsetCommit's durable writes for a remote transaction coordinator
     */
    public static List<ServedApi<?, ?>> create(TopicManager topics, TransactionCoordinator coordinator,
                                               MarkerAppender markers, OffsetManager offsets,
                                               TransactionVerifier verifier, Executor blocking) {
        return List.of(
                ServedApi.of(ApiContracts.ADD_PARTITIONS_TO_TXN, new AddPartitionsToTxnHandler(topics, coordinator)),
                ServedApi.of(ApiContracts.ADD_OFFSETS_TO_TXN, new AddOffsetsToTxnHandler(coordinator)),
                ServedApi.of(ApiContracts.TXN_OFFSET_COMMIT, new TxnOffsetCommitHandler(topics, coordinator, offsets,
                        verifier, blocking)),
                ServedApi.of(ApiContracts.END_TXN, new EndTxnHandler(coordinator)),
                ServedApi.of(ApiContracts.WRITE_TXN_MARKERS, new WriteTxnMarkersHandler(markers)),
                ServedApi.of(ApiContracts.DESCRIBE_TRANSACTIONS, new DescribeTransactionsHandler(coordinator)),
                ServedApi.of(ApiContracts.LIST_TRANSACTIONS, new ListTransactionsHandler(coordinator)),
                ServedApi.of(ApiContracts.DESCRIBE_PRODUCERS, new DescribeProducersHandler(topics)));
    }
}
