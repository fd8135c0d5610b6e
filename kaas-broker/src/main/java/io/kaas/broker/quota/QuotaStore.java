package io.kaas.broker.quota;

import java.util.Map;
import java.util.Optional;

/**
 * Where the broker keeps client quotas. An entity is a map of entity type ({@code user}, {@code client-id},
 * {@code ip}) to name, {@link #DEFAULT_NAME} naming the type's default entity.
 */
public interface QuotaStore {
    /** The name that stands for a type's default entity (Kafka's {@code <default>}). */
    String DEFAULT_NAME = "<default>";

    /** Every stored quota: entity -> (quota key -> value). */
    Map<Map<String, String>, Map<String, Double>> clientQuotas();

    /** Applies the changes atomically: a key mapped to a value sets it, to empty removes it. */
    void alterClientQuotas(Map<Map<String, String>, Map<String, Optional<Double>>> changes);

    /** Calls {@code listener} after the stored quotas changed (here or, for a shared store, on another broker). */
    void onChange(Runnable listener);
}
