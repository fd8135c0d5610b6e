package io.kaas.broker.request;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The feature flags ApiVersions v3+ advertises, as Kafka 4.x does: each supported feature's version range and
 * the level finalized for the cluster, with the epoch of that finalization. Clients read them to choose
 * protocols: a Java 4.x producer uses transactions V2 (KIP-890) once {@code transaction.version} is finalized at
 * 2 under a non-negative epoch.
 *
 * @param epoch     {@code FinalizedFeaturesEpoch}: -1 for none; else it must never decrease (a client re-reads the
 *                  finalized levels only when it sees a higher epoch)
 * @param supported feature name to the versions this broker supports
 * @param finalized feature name to finalized level (levels above 0 only, as Kafka lists them)
 */
public record Features(long epoch, Map<String, Range> supported, Map<String, Short> finalized) {
    /** Kafka's name of the transaction protocol feature. */
    public static final String TRANSACTION_VERSION = "transaction.version";
    /** Kafka's name of the group protocol feature (1: KIP-848 consumer groups). */
    public static final String GROUP_VERSION = "group.version";

    /** A supported version range. */
    public record Range(short min, short max) {
    }

    public Features {
        supported = Map.copyOf(supported);
        finalized = Map.copyOf(finalized);
        for (Map.Entry<String, Short> e : finalized.entrySet()) {
            Range range = supported.get(e.getKey());
            if (range == null || e.getValue() < 1 || e.getValue() > range.max()) {
                throw new IllegalArgumentException("cannot finalize " + e.getKey() + " at " + e.getValue());
            }
        }
    }

    /** No feature at all (epoch -1): clients behave as against a broker without feature flags. */
    public static Features none() {
        return new Features(-1, Map.of(), Map.of());
    }

    /**
     * What this broker supports, as Kafka 4.x: {@code transaction.version} 0-2 finalized at {@code transactionVersion}
     * (1 or 2), {@code group.version} 0-1 finalized at 1, as a newly formatted Kafka 4.x cluster has them.
     *
     * @param epoch the finalization's epoch, not negative
     */
    public static Features of(short transactionVersion, long epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("a finalized features epoch is never negative: " + epoch);
        }
        Map<String, Range> supported = new LinkedHashMap<>();
        supported.put(TRANSACTION_VERSION, new Range((short) 0, (short) 2));
        supported.put(GROUP_VERSION, new Range((short) 0, (short) 1));
        Map<String, Short> levels = new LinkedHashMap<>();
        levels.put(TRANSACTION_VERSION, transactionVersion);
        levels.put(GROUP_VERSION, (short) 1);
        return new Features(epoch, supported, levels);
    }
}
