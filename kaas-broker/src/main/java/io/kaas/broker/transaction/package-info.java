/**
 * The broker's side of the transaction coordinator ({@code io.kaas.coordinator.transaction}): where transaction
 * state is kept ({@link io.kaas.broker.transaction.TransactionStateTopic}, the internal topic
 * {@code __transaction_state}) and how markers reach data partitions ({@link io.kaas.broker.transaction.MarkerAppender},
 * used by the WriteTxnMarkers handler and, in process, by {@link io.kaas.broker.transaction.LocalMarkerWriter}).
 */
package io.kaas.broker.transaction;
