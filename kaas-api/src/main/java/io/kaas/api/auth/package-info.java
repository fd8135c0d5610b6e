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
 *
 * <p>An authorizer may also manage Kafka's ACLs ({@link io.kaas.api.auth.Authorizer#managesAcls()}):
 * {@link io.kaas.api.auth.AclBinding}s of a {@link io.kaas.api.auth.ResourcePattern} and an
 * {@link io.kaas.api.auth.AccessControlEntry}, selected by {@link io.kaas.api.auth.AclBindingFilter}s with
 * Kafka's matching rules, created and deleted through CreateAcls and DeleteAcls and listed by DescribeAcls, and
 * kept durably in the {@link io.kaas.api.auth.AclStore} its context hands it. Without one, the broker answers
 * those APIs SECURITY_DISABLED, as Kafka without an authorizer.
 */
package io.kaas.api.auth;
