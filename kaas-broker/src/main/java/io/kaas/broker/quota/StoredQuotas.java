package io.kaas.broker.quota;

import io.kaas.api.cluster.ClientQuotaEntity;
import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterStateStore;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The client quotas of the cluster-state store; a change made on any broker reaches {@link #onChange} listeners. */
public final class StoredQuotas implements QuotaStore {
    private final ClusterStateStore store;

    public StoredQuotas(ClusterStateStore store) {
        this.store = store;
    }

    @Override
    public Map<Map<String, String>, Map<String, Double>> clientQuotas() {
        Map<Map<String, String>, Map<String, Double>> out = new HashMap<>();
        store.clientQuotas().forEach((entity, values) -> out.put(entity.entries(), values));
        return out;
    }

    @Override
    public void alterClientQuotas(Map<Map<String, String>, Map<String, Optional<Double>>> changes) {
        Map<ClientQuotaEntity, Map<String, Optional<Double>>> byEntity = new LinkedHashMap<>();
        changes.forEach((entity, ops) -> byEntity.put(new ClientQuotaEntity(entity), ops));
        store.alterClientQuotas(byEntity);
    }

    @Override
    public void onChange(Runnable listener) {
        store.addListener(new ClusterListener() {
            @Override
            public void clientQuotasChanged() {
                listener.run();
            }
        });
    }
}
