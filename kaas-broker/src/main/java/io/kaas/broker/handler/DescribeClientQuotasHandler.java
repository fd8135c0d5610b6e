package io.kaas.broker.handler;

import io.kaas.broker.quota.QuotaStore;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.DescribeClientQuotasRequestData;
import io.kaas.wire.message.DescribeClientQuotasRequestData.ComponentData;
import io.kaas.wire.message.DescribeClientQuotasResponseData;
import io.kaas.wire.message.DescribeClientQuotasResponseData.EntityData;
import io.kaas.wire.message.DescribeClientQuotasResponseData.EntryData;
import io.kaas.wire.message.DescribeClientQuotasResponseData.ValueData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DescribeClientQuotas v0-1: the stored quotas of every entity the filter matches, as Kafka's
 * {@code ClientQuotasImage.describe}: each component matches its type's exact name, default or any specified
 * name; a strict filter matches only entities of exactly its types. The filter is validated as Kafka does
 * (INVALID_REQUEST, UNSUPPORTED_VERSION with its messages). DESCRIBE_CONFIGS on the cluster is checked by the
 * pipeline (its contract).
 */
public final class DescribeClientQuotasHandler
        implements ApiHandler<DescribeClientQuotasRequestData, DescribeClientQuotasResponseData> {
    private static final Logger LOG = LoggerFactory.getLogger(DescribeClientQuotasHandler.class);
    private static final byte MATCH_EXACT = 0;
    private static final byte MATCH_DEFAULT = 1;
    private static final byte MATCH_SPECIFIED = 2;
    private static final Set<String> ENTITY_TYPES = Set.of("user", "client-id", "ip");

    private final QuotaStore store;

    public DescribeClientQuotasHandler(QuotaStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<DescribeClientQuotasResponseData> handle(RequestContext context,
                                                                       DescribeClientQuotasRequestData request) {
        DescribeClientQuotasResponseData response = new DescribeClientQuotasResponseData().setThrottleTimeMs(0);
        String invalid = invalidFilter(request);
        if (invalid != null) {
            short code = invalid.startsWith("Unsupported entity type") ? Errors.UNSUPPORTED_VERSION : Errors.INVALID_REQUEST;
            LOG.atInfo().setMessage("DescribeClientQuotas from {} ({}) refused: {}").addArgument(context.clientAddress())
                    .addArgument(context.principal()).addArgument(invalid).log();
            return CompletableFuture.completedFuture(response.setErrorCode(code).setErrorMessage(invalid).setEntries(null));
        }
        List<EntryData> entries = new ArrayList<>();
        store.clientQuotas().forEach((entity, values) -> {
            if (matches(request, entity)) {
                List<EntityData> names = new ArrayList<>();
                new TreeMap<>(entity).forEach((type, name) -> names.add(new EntityData().setEntityType(type)
                        .setEntityName(QuotaStore.DEFAULT_NAME.equals(name) ? null : name)));
                List<ValueData> quotas = new ArrayList<>();
                new TreeMap<>(values).forEach((key, value) -> quotas.add(new ValueData().setKey(key).setValue(value)));
                entries.add(new EntryData().setEntity(names).setValues(quotas));
            }
        });
        return CompletableFuture.completedFuture(response.setErrorCode(Errors.NONE).setErrorMessage(null)
                .setEntries(entries));
    }

    private static boolean matches(DescribeClientQuotasRequestData request, Map<String, String> entity) {
        if (request.strict() && entity.size() != request.components().size()) {
            return false;
        }
        for (ComponentData c : request.components()) {
            String name = entity.get(c.entityType());
            if (name == null) {
                return false;
            }
            boolean isDefault = QuotaStore.DEFAULT_NAME.equals(name);
            boolean ok = switch (c.matchType()) {
                case MATCH_EXACT -> !isDefault && name.equals(c.match());
                case MATCH_DEFAULT -> isDefault;
                default -> !isDefault;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Kafka's message for a filter it refuses, or null. */
    static String invalidFilter(DescribeClientQuotasRequestData request) {
        Set<String> seen = new HashSet<>();
        for (ComponentData c : request.components()) {
            if (c.entityType().isEmpty()) {
                return "Invalid empty entity type.";
            }
            if (!seen.add(c.entityType())) {
                return "Entity type " + c.entityType() + " cannot appear more than once in the filter.";
            }
            if (!ENTITY_TYPES.contains(c.entityType())) {
                return "Unsupported entity type " + c.entityType();
            }
            switch (c.matchType()) {
                case MATCH_EXACT -> {
                    if (c.match() == null) {
                        return "Request specified MATCH_TYPE_EXACT, but set match string to null.";
                    }
                }
                case MATCH_DEFAULT -> {
                    if (c.match() != null) {
                        return "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.";
                    }
                }
                case MATCH_SPECIFIED -> {
                    if (c.match() != null) {
                        return "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.";
                    }
                }
                default -> {
                    return "Unknown match type " + c.matchType();
                }
            }
        }
        if (seen.contains("ip") && (seen.contains("user") || seen.contains("client-id"))) {
            return "Invalid entity filter component combination. IP filter component should not be used with "
                    + "user or clientId filter component.";
        }
        return null;
    }
}
