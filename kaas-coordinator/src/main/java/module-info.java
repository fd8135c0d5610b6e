/**
 * The coordinators of kaas: the group coordinator (classic and KIP-848 consumer groups, committed
 * offsets) and the transaction coordinator (transactional ids, their state in {@code __transaction_state},
 * markers). They answer in the generated message classes of
 * {@code io.kaas.wire} with the error codes of {@code io.kaas.wire.protocol.Errors}, keep durable state
 * through the cluster-state store of {@code io.kaas.api}, and know nothing of the broker that hosts
 * them: it hands them a {@link io.kaas.coordinator.CoordinatorContext} and typed settings.
 */
module io.kaas.coordinator {
    requires transitive io.kaas.api;
    requires transitive io.kaas.wire;
    requires io.kaas.records;
    requires org.slf4j;

    exports io.kaas.coordinator;
    exports io.kaas.coordinator.group;
    exports io.kaas.coordinator.transaction;
}
