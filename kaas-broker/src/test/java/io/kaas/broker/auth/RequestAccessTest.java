package io.kaas.broker.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestAccessTest {
    private static final List<Check> CHECKS = List.of(Check.of(Operation.READ, ResourceType.TOPIC),
            Check.orCluster(Operation.DESCRIBE, ResourceType.GROUP));

    private static RequestAccess access(AccessGate gate) {
        return gate.forRequest("Test", CHECKS, AccessGate.anonymous(new InetSocketAddress("127.0.0.1", 1), "PLAINTEXT", "c"));
    }

    @Test
    void withoutAnAuthorizerEveryOperationATypeSupportsIsAuthorized() {
        RequestAccess access = access(AccessGate.ALLOW_ALL);
        // Kafka's full fields: topic READ WRITE CREATE DELETE ALTER DESCRIBE DESCRIBE_CONFIGS ALTER_CONFIGS,
        // cluster CREATE CLUSTER_ACTION DESCRIBE_CONFIGS ALTER_CONFIGS IDEMPOTENT_WRITE ALTER DESCRIBE, group READ DESCRIBE DELETE DESCRIBE_CONFIGS ALTER_CONFIGS.
        assertThat(access.authorizedOperations(ResourceType.TOPIC, "t")).isEqualTo(0b1101_1111_1000);
        assertThat(access.clusterAuthorizedOperations()).isEqualTo(0b1_1111_1010_0000);
        assertThat(access.authorizedOperations(ResourceType.GROUP, "g")).isEqualTo((1 << 3) | (1 << 6) | (1 << 8) | (1 << 10) | (1 << 11));
        assertThat(access.allowedOnTopic(Operation.READ, "t")).isTrue();
    }

    @Test
    void authorizedOperationsAreTheSubsetTheAuthorizerAllows() {
        RequestAccess access = access(TestGates.allowing(a -> a.operation() == Operation.READ
                || a.operation() == Operation.CREATE && a.resourceType() == ResourceType.CLUSTER));
        assertThat(access.authorizedOperations(ResourceType.TOPIC, "t")).isEqualTo(1 << Operation.READ.code());
        assertThat(access.authorizedOperations(ResourceType.GROUP, "g")).isEqualTo(1 << Operation.READ.code());
        // CREATE on the cluster alone: Kafka answers 0 without DESCRIBE on the cluster.
        assertThat(access.clusterAuthorizedOperations()).isZero();
    }

    @Test
    void theClusterBitFieldCarriesEveryAllowedOperationOnceDescribeIsAllowed() {
        RequestAccess access = access(TestGates.allowing(a -> a.resourceType() == ResourceType.CLUSTER
                && (a.operation() == Operation.DESCRIBE || a.operation() == Operation.ALTER_CONFIGS)));
        assertThat(access.clusterAuthorizedOperations())
                .isEqualTo((1 << Operation.DESCRIBE.code()) | (1 << Operation.ALTER_CONFIGS.code()));
    }

    @Test
    void eachDecisionIsAskedOncePerRequestAndBatched() {
        TestGates.Recording authorizer = TestGates.recording(a -> a.resourceName().startsWith("ok"));
        RequestAccess access = access(TestGates.allowing(authorizer));
        assertThat(access.allowedTopics(Operation.READ, List.of("ok-1", "no", "ok-2", "ok-1"))).containsExactly("ok-1", "ok-2");
        assertThat(access.allowedOnTopic(Operation.READ, "no")).isFalse();
        assertThat(access.check(Operation.READ, ResourceType.TOPIC).test("ok-2")).isTrue();
        assertThat(authorizer.asked).containsExactly(Action.onTopic(Operation.READ, "ok-1"),
                Action.onTopic(Operation.READ, "no"), Action.onTopic(Operation.READ, "ok-2"));
    }

    @Test
    void anOrClusterCheckAllowsEveryResourceWhenTheClusterAllowsIt() {
        TestGates.Recording authorizer = TestGates.recording(a -> a.resourceType() == ResourceType.CLUSTER);
        assertThat(access(TestGates.allowing(authorizer)).allowed(Operation.DESCRIBE, ResourceType.GROUP, List.of("a", "b")))
                .containsExactly("a", "b");
        assertThat(authorizer.asked).containsExactly(Action.onCluster(Operation.DESCRIBE));
        RequestAccess perGroup = access(TestGates.allowing(a -> a.resourceName().equals("a")));
        assertThat(perGroup.allowed(Operation.DESCRIBE, ResourceType.GROUP, List.of("a", "b"))).containsExactly("a");
    }

    @Test
    void aQuestionTheContractDoesNotDeclareFailsEvenWithoutAnAuthorizer() {
        assertThatThrownBy(() -> access(AccessGate.ALLOW_ALL).allowedOnTopic(Operation.WRITE, "t"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Test asked whether it may WRITE a TOPIC");
        assertThatThrownBy(() -> access(AccessGate.ALLOW_ALL).allowedOnCluster(Operation.DESCRIBE))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void allowedOnAnyAsksTheAuthorizerByResourceTypeOnceAndOnlyForADeclaredCheck() {
        java.util.List<String> byType = new java.util.concurrent.CopyOnWriteArrayList<>();
        TestGates.Recording authorizer = new TestGates.Recording(a -> false) {
            @Override
            public io.kaas.api.auth.AuthorizationResult authorizeByResourceType(
                    io.kaas.api.auth.AuthorizableRequestContext request, Operation op, ResourceType type) {
                byType.add(op + " " + type);
                return type == ResourceType.TOPIC ? io.kaas.api.auth.AuthorizationResult.ALLOWED
                        : io.kaas.api.auth.AuthorizationResult.DENIED;
            }
        };
        RequestAccess access = access(TestGates.allowing(authorizer));
        assertThat(access.allowedOnAny(Operation.READ, ResourceType.TOPIC)).isTrue();
        assertThat(access.allowedOnAny(Operation.READ, ResourceType.TOPIC)).isTrue();
        assertThat(access.allowedOnAny(Operation.DESCRIBE, ResourceType.GROUP)).isFalse();
        assertThat(byType).containsExactly("READ TOPIC", "DESCRIBE GROUP");
        assertThat(authorizer.asked).isEmpty();
        assertThatThrownBy(() -> access.allowedOnAny(Operation.WRITE, ResourceType.TOPIC))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("does not declare");
        assertThat(access(AccessGate.ALLOW_ALL).allowedOnAny(Operation.READ, ResourceType.TOPIC)).isTrue();
    }
}
