/**
 * The transaction APIs (KIP-98, KIP-447, KIP-664, KIP-890) over {@code io.kaas.coordinator.transaction}: one
 * handler per API; TxnOffsetCommit, a group API, lives with the group handlers.
 */
package io.kaas.broker.handler.txn;
