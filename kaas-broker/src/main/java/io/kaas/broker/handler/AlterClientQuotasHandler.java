package io.kaas.broker.handler;

import io.kaas.broker.quota.QuotaStore;
import io.kaas.broker.quota.QuotaValidation;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.AlterClientQuotasRequestData;
import io.kaas.wire.message.AlterClientQuotasResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AlterClientQuotas v0-1 ({@code kafka-configs --entity-type users|clients --alter}): validates each entry as
 * Kafka's controller does (an error per entity, INVALID_REQUEST with Kafka's message), then stores the valid
 * entries' changes in one atomic change, unless {@code validate_only}. ALTER_CONFIGS on the cluster is checked by
 * the pipeline (its contract).
 */
public final class AlterClientQuotasHandler
        implements ApiHandler<AlterClientQuotasRequestData, AlterClientQuotasResponseData> {
    private static final Logger LOG = LoggerFactory.getLogger(AlterClientQuotasHandler.class);

    private final QuotaStore store;

    public AlterClientQuotasHandler(QuotaStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<AlterClientQuotasResponseData> handle(RequestContext context,
                                                                    AlterClientQuotasRequestData request) {
        List<AlterClientQuotasResponseData.EntryData> results = new ArrayList<>();
        Map<Map<String, String>, Map<String, Optional<Double>>> changes = new LinkedHashMap<>();
        Map<Map<String, String>, String> failed = new HashMap<>();
        for (AlterClientQuotasRequestData.EntryData entry : request.entries()) {
            Map<String, String> entity = new HashMap<>();
            String error = null;
            for (AlterClientQuotasRequestData.EntityData e : entry.entity()) {
                if (entity.containsKey(e.entityType())) {
                    error = "Invalid client quota entity, duplicate entity entry " + e.entityType();
                }
                entity.put(e.entityType(), e.entityName());
            }
            if (error == null) {
                error = QuotaValidation.invalidEntity(entity);
            }
            Map<String, Optional<Double>> ops = new LinkedHashMap<>();
            for (AlterClientQuotasRequestData.OpData op : entry.ops()) {
                if (error != null) {
                    break;
                }
                if (ops.containsKey(op.key())) {
                    // Kafka records "Duplicate quota key ..." and then answers this for the entity.
                    error = "Ignoring duplicate entity " + describe(entity);
                } else if (op.remove()) {
                    ops.put(op.key(), Optional.empty());
                } else {
                    error = QuotaValidation.invalidValue(entity, op.key(), op.value());
                    ops.put(op.key(), Optional.of(op.value()));
                }
            }
            Map<String, String> stored = stored(entity);
            if (error == null && (changes.containsKey(stored) || failed.containsKey(stored))) {
                error = "Ignoring duplicate entity " + describe(entity);
                changes.remove(stored);
            }
            if (error != null) {
                failed.put(stored, error);
                LOG.atInfo().setMessage("AlterClientQuotas from {} ({}, client {}) refused for {}: {}")
                        .addArgument(context.clientAddress()).addArgument(context.principal())
                        .addArgument(context.clientId()).addArgument(describe(entity)).addArgument(error).log();
            } else {
                changes.put(stored, ops);
            }
            results.add(new AlterClientQuotasResponseData.EntryData()
                    .setErrorCode(error == null ? Errors.NONE : Errors.INVALID_REQUEST).setErrorMessage(error)
                    .setEntity(responseEntity(entry)));
        }
        // An entity refused later (a duplicate) changes nothing: its earlier result is answered as refused too.
        for (int i = 0; i < results.size(); i++) {
            Map<String, String> stored = stored(requestEntity(request.entries().get(i)));
            String error = failed.get(stored);
            if (error != null && results.get(i).errorCode() == Errors.NONE) {
                results.get(i).setErrorCode(Errors.INVALID_REQUEST).setErrorMessage(error);
            }
        }
        if (!request.validateOnly() && !changes.isEmpty()) {
            store.alterClientQuotas(changes);
            LOG.atInfo().setMessage("client quotas altered by {} (client {}, {}): {}").addArgument(context.principal())
                    .addArgument(context.clientId()).addArgument(context.clientAddress()).addArgument(changes).log();
        }
        return CompletableFuture.completedFuture(new AlterClientQuotasResponseData().setThrottleTimeMs(0)
                .setEntries(results));
    }

    private static Map<String, String> requestEntity(AlterClientQuotasRequestData.EntryData entry) {
        Map<String, String> entity = new HashMap<>();
        entry.entity().forEach(e -> entity.put(e.entityType(), e.entityName()));
        return entity;
    }

    /** The entity as stored: the default named {@link QuotaStore#DEFAULT_NAME}. */
    private static Map<String, String> stored(Map<String, String> entity) {
        Map<String, String> stored = new HashMap<>();
        entity.forEach((type, name) -> stored.put(type, name == null ? QuotaStore.DEFAULT_NAME : name));
        return Map.copyOf(stored);
    }

    /** As Kafka's {@code ClientQuotaEntity.toString}. */
    private static String describe(Map<String, String> entity) {
        return "ClientQuotaEntity(entries=" + entity + ")";
    }

    private static List<AlterClientQuotasResponseData.EntityData> responseEntity(
            AlterClientQuotasRequestData.EntryData entry) {
        List<AlterClientQuotasResponseData.EntityData> out = new ArrayList<>();
        entry.entity().forEach(e -> out.add(new AlterClientQuotasResponseData.EntityData()
                .setEntityType(e.entityType()).setEntityName(e.entityName())));
        return out;
    }
}
