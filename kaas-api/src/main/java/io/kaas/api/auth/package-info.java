/**
 * The authorization SPI, with Kafka's semantics. An {@link io.kaas.api.auth.AuthorizerProvider} is
 * selected by name through {@code authorizer}; the default, {@code none}, means no authorizer at all:
 * the broker allows every request without calling anything, as Kafka does without
 * {@code authorizer.class.name}.
 *
 * <p>The broker asks an {@link io.kaas.api.auth.Authorizer} whether a principal may perform
 * {@link io.kaas.api.auth.Action}s ({@link io.kaas.api.auth.Operation} on a
 * {@link io.kaas.api.auth.ResourceType} named so) and answers a denial with Kafka's error:
 * {@code TOPIC_AUTHORIZATION_FAILED} (29) for a topic, {@code GROUP_AUTHORIZATION_FAILED} (30) for a
 * group, {@code CLUSTER_AUTHORIZATION_FAILED} (31) for the cluster and
 * {@code TRANSACTIONAL_ID_AUTHORIZATION_FAILED} (53) for a transactional id.
 */
package io.kaas.api.auth;
