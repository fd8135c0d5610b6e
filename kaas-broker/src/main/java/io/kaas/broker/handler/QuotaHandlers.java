package io.kaas.broker.handler;

import io.kaas.broker.quota.QuotaStore;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.ServedApi;
import java.util.List;

/** Registers DescribeClientQuotas and AlterClientQuotas with their contracts. */
public final class QuotaHandlers {
    private QuotaHandlers() {
    }

    public static List<ServedApi<?, ?>> create(QuotaStore store) {
        return List.of(
                ServedApi.of(ApiContracts.DESCRIBE_CLIENT_QUOTAS, new DescribeClientQuotasHandler(store)),
                ServedApi.of(ApiContracts.ALTER_CLIENT_QUOTAS, new AlterClientQuotasHandler(store)));
    }
}
