/**
 * The transaction coordinator: transactional ids, their producer ids and epochs and their transactions, kept in
 * the partitions of {@code __transaction_state} ({@link io.kaas.coordinator.transaction.TransactionStateLog}),
 * with the markers written through {@link io.kaas.coordinator.transaction.MarkerWriter}.
 */
package io.kaas.coordinator.transaction;
