package io.kaas.broker.quota;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Client quotas kept in memory: until the cluster-state store keeps them, they last as long as the broker. */
public final class MemoryQuotaStore implements QuotaStore {
    private final Map<Map<String, String>, Map<String, Double>> quotas = new HashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    @Override
    public synchronized Map<Map<String, String>, Map<String, Double>> clientQuotas() {
        Map<Map<String, String>, Map<String, Double>> copy = new HashMap<>();
        quotas.forEach((e, v) -> copy.put(e, Map.copyOf(v)));
        return copy;
    }

    @Override
    public void alterClientQuotas(Map<Map<String, String>, Map<String, Optional<Double>>> changes) {
        synchronized (this) {
            changes.forEach((entity, ops) -> {
                Map<String, Double> values = quotas.computeIfAbsent(Map.copyOf(entity), e -> new HashMap<>());
                ops.forEach((key, value) -> {
                    if (value.isPresent()) {
                        values.put(key, value.get());
                    } else {
                        values.remove(key);
                    }
                });
                if (values.isEmpty()) {
                    quotas.remove(entity);
                }
            });
        }
        listeners.forEach(Runnable::run);
    }

    @Override
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }
}
