/**
 * Authorization of requests. {@link io.kaas.broker.auth.AccessGate} holds the configured authorizer
 * ({@code authorizer=none} allows everything); the request pipeline applies the checks an API's
 * contract requires of the whole request and hands the handler a
 * {@link io.kaas.broker.auth.RequestAccess}, which answers only the per-resource {@link
 * io.kaas.broker.auth.Check}s the contract declares and computes Kafka's authorized-operations fields
 * ({@link io.kaas.broker.auth.AuthorizedOperations}) from the authorizer.
 */
package io.kaas.broker.auth;
