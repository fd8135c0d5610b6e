package io.kaas.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MutationQuotaTest {
    private final AtomicLong now = new AtomicLong(5_000_000);
    // quota.window.* as Kafka's defaults; controller.quota.window.num=10 of 1 s: a burst of 10 x the quota.
    private final ClientQuotaManager manager = new ClientQuotaManager(11, 1000, 10, 1000, now::get);

    @Test
    void strictAcceptsUntilTheBucketIsBelowZeroThenRefusesWithTheTimeToRefill() {
        manager.update(Map.of(Map.of("client-id", "app"), Map.of("controller_mutation_rate", 2.0)));
        MutationQuota first = manager.mutationQuota("", "app", true);
        assertThat(first.tryCharge(15)).isTrue();
        assertThat(first.tryCharge(10)).as("20 tokens minus 15 is still above zero").isTrue();
        assertThat(first.tryCharge(1)).as("-5 tokens: refused").isFalse();
        assertThat(first.throttleTimeMs()).isEqualTo(2_500);
        now.addAndGet(1_000);
        assertThat(first.throttleTimeMs()).as("less the time since it was measured").isEqualTo(1_500);

        MutationQuota second = manager.mutationQuota("", "app", true);
        assertThat(second.tryCharge(1)).isFalse();
        assertThat(second.throttleTimeMs()).isEqualTo(1_500);
        now.addAndGet(1_500);
        MutationQuota third = manager.mutationQuota("", "app", true);
        assertThat(third.tryCharge(4)).as("refilled to zero").isTrue();
        assertThat(third.throttleTimeMs()).as("a request that empties the bucket is not throttled itself").isZero();
    }

    @Test
    void permissiveAcceptsEverythingAndThrottlesOnceBelowZero() {
        manager.update(Map.of(Map.of("user", QuotaStore.DEFAULT_NAME), Map.of("controller_mutation_rate", 1.0)));
        MutationQuota quota = manager.mutationQuota("alice", "x", false);
        assertThat(quota.tryCharge(10)).isTrue();
        assertThat(quota.throttleTimeMs()).isZero();
        assertThat(quota.tryCharge(3)).isTrue();
        assertThat(quota.throttleTimeMs()).isEqualTo(3_000);
        assertThat(manager.mutationQuota("bob", "x", false).tryCharge(10))
                .as("under a default entity each user has a bucket of its own").isTrue();
    }

    @Test
    void theBucketRefillsNoHigherThanItsBurstAndNothingAppliesWithoutAQuota() {
        assertThat(manager.mutationQuota("u", "app", true)).isSameAs(MutationQuota.UNBOUNDED);
        manager.update(Map.of(Map.of("client-id", "app"), Map.of("controller_mutation_rate", 1.0)));
        now.addAndGet(3_600_000);
        MutationQuota quota = manager.mutationQuota("", "app", true);
        assertThat(quota.tryCharge(11)).isTrue();
        assertThat(quota.tryCharge(1)).as("a burst of 10, not an hour's worth").isFalse();
        assertThat(quota.throttleTimeMs()).isEqualTo(1_000);
        manager.update(Map.of());
        assertThat(manager.mutationQuota("", "app", true).tryCharge(1000)).isTrue();
    }
}
