package io.kaas.broker.handler;

import io.kaas.broker.quota.ClientQuotaManager;
import io.kaas.broker.quota.MutationQuota;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.PartitionMutations;
import io.kaas.broker.topic.TopicException;
import io.kaas.wire.protocol.Errors;

/**
 * The {@code controller_mutation_rate} quota (KIP-599) of CreateTopics, CreatePartitions and DeleteTopics, as
 * Kafka's controller applies it: strict from the version whose clients know THROTTLING_QUOTA_EXCEEDED (a topic met
 * with an empty bucket is refused with it), permissive before (the request is only throttled).
 */
final class ControllerMutations {
    /** Kafka's message for THROTTLING_QUOTA_EXCEEDED. */
    static final String EXCEEDED = "The throttling quota has been exceeded.";

    private final ClientQuotaManager quotas;

    ControllerMutations(ClientQuotaManager quotas) {
        this.quotas = quotas;
    }

    /** The request's quota: strict from {@code strictSinceVersion}. */
    MutationQuota quotaFor(RequestContext context, int strictSinceVersion) {
        if (quotas == null) {
            return MutationQuota.UNBOUNDED;
        }
        String user = context.principal() == null ? "" : context.principal().name();
        return quotas.mutationQuota(user, context.clientId(), context.apiVersion() >= strictSinceVersion);
    }

    /** Charges a topic's partitions to {@code quota}; a refusal is THROTTLING_QUOTA_EXCEEDED for that topic. */
    static PartitionMutations charging(MutationQuota quota) {
        if (quota == MutationQuota.UNBOUNDED) {
            return PartitionMutations.NONE;
        }
        return partitions -> {
            if (!quota.tryCharge(partitions)) {
                throw new TopicException(Errors.THROTTLING_QUOTA_EXCEEDED, EXCEEDED);
            }
        };
    }
}
