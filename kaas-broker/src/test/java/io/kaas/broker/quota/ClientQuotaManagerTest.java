package io.kaas.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClientQuotaManagerTest {
    private static final String D = QuotaStore.DEFAULT_NAME;
    private final AtomicLong now = new AtomicLong();
    private final ClientQuotaManager manager = new ClientQuotaManager(11, 1000, now::get);

    private static Map<String, String> entity(String user, String client) {
        Map<String, String> e = new HashMap<>();
        if (user != null) {
            e.put("user", user);
        }
        if (client != null) {
            e.put("client-id", client);
        }
        return e;
    }

    @Test
    void noQuotaNoThrottle() {
        assertThat(manager.active(QuotaType.PRODUCE)).isFalse();
        assertThat(manager.throttleMs(QuotaType.PRODUCE, "u", "c", 1e12)).isZero();
    }

    @Test
    void theMostSpecificEntityWinsInKafkasOrder() {
        Map<Map<String, String>, Map<String, Double>> stored = new HashMap<>();
        stored.put(entity(null, D), Map.of("producer_byte_rate", 8.0));
        stored.put(entity(null, "c"), Map.of("producer_byte_rate", 7.0));
        stored.put(entity(D, null), Map.of("producer_byte_rate", 6.0));
        stored.put(entity(D, D), Map.of("producer_byte_rate", 5.0));
        stored.put(entity(D, "c"), Map.of("producer_byte_rate", 4.0));
        stored.put(entity("u", null), Map.of("producer_byte_rate", 3.0));
        stored.put(entity("u", D), Map.of("producer_byte_rate", 2.0));
        stored.put(entity("u", "c"), Map.of("producer_byte_rate", 1.0));
        double[] expected = {1, 2, 3, 4, 5, 6, 7, 8};
        @SuppressWarnings("unchecked")
        Map<String, String>[] order = new Map[] {entity("u", "c"), entity("u", D), entity("u", null),
            entity(D, "c"), entity(D, D), entity(D, null), entity(null, "c"), entity(null, D)};
        for (int i = 0; i < order.length; i++) {
            manager.update(stored);
            assertThat(boundFor("u", "c")).as("with %s the most specific", order[i]).isEqualTo(expected[i]);
            stored.remove(order[i]);
        }
        manager.update(stored);
        assertThat(manager.active(QuotaType.PRODUCE)).isFalse();
    }

    /** Finds the bound in force for (user, client) by the value that starts throttling, on fresh windows. */
    private double boundFor(String user, String client) {
        for (double bound = 1; bound <= 8; bound++) {
            now.addAndGet(100_000);
            // 10 s of exactly `bound` per second passes; a little more is throttled only under that bound.
            long under = manager.throttleMs(QuotaType.PRODUCE, user, client, bound * 10);
            if (under == 0 && manager.throttleMs(QuotaType.PRODUCE, user, client, 0.5) > 0) {
                return bound;
            }
        }
        return -1;
    }

    @Test
    void aDefaultEntityKeepsOneRatePerName() {
        manager.update(Map.of(entity(null, D), Map.of("producer_byte_rate", 100.0)));
        assertThat(manager.throttleMs(QuotaType.PRODUCE, "u", "a", 1000)).isZero();
        assertThat(manager.throttleMs(QuotaType.PRODUCE, "u", "a", 100)).isPositive();
        assertThat(manager.throttleMs(QuotaType.PRODUCE, "u", "b", 1000)).as("client b has its own rate").isZero();
    }

    @Test
    void aNamedClientIdQuotaIsSharedByEveryUser() {
        manager.update(Map.of(entity(null, "c"), Map.of("producer_byte_rate", 100.0)));
        assertThat(manager.throttleMs(QuotaType.PRODUCE, "alice", "c", 1000)).isZero();
        assertThat(manager.throttleMs(QuotaType.PRODUCE, "bob", "c", 100)).isPositive();
        assertThat(manager.throttleMs(QuotaType.PRODUCE, "bob", "d", 1e9)).as("no quota for d").isZero();
        assertThat(manager.throttleMs(QuotaType.FETCH, "bob", "c", 1e9)).as("no fetch quota").isZero();
    }
}
