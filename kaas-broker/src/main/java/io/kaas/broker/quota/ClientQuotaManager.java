package io.kaas.broker.quota;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quotas in force and the rate each entity accumulates, as Kafka's {@code ClientQuotaManager} with its default
 * callback: a request of user U and client id C is held to the most specific quota set, in Kafka's order
 * (U+C, U+default client, U, default user+C, default user+default client, default user, C, default client), and
 * shares its rate with every request that resolves to the same entity (a default entity's rate is kept per actual
 * name). With no quota set, {@link #throttleMs} reads one volatile field and returns.
 */
public final class ClientQuotaManager {
    private static final Logger LOG = LoggerFactory.getLogger(ClientQuotaManager.class);
    private static final String USER = "user";
    private static final String CLIENT = "client-id";
    private static final String DEFAULT = QuotaStore.DEFAULT_NAME;

    private final int samples;
    private final long windowMs;
    private final int mutationSamples;
    private final long mutationWindowMs;
    private final LongSupplier clock;
    private volatile Map<QuotaType, Map<Map<String, String>, Double>> quotas = Map.of();
    private final Map<SensorKey, RateSensor> sensors = new ConcurrentHashMap<>();
    private final Map<SensorKey, TokenBucket> buckets = new ConcurrentHashMap<>();

    /**
     * @param samples  {@code quota.window.num}
     * @param windowMs {@code quota.window.size.seconds} in ms
     */
    public ClientQuotaManager(int samples, long windowMs, LongSupplier clockMs) {
        this(samples, windowMs, 11, 1000, clockMs);
    }

    /**
     * @param mutationSamples  {@code controller.quota.window.num}
     * @param mutationWindowMs {@code controller.quota.window.size.seconds} in ms: with the samples and the quota,
     *                         the burst of a {@code controller_mutation_rate} token bucket
     */
    public ClientQuotaManager(int samples, long windowMs, int mutationSamples, long mutationWindowMs,
                              LongSupplier clockMs) {
        this.samples = samples;
        this.windowMs = windowMs;
        this.mutationSamples = mutationSamples;
        this.mutationWindowMs = mutationWindowMs;
        this.clock = clockMs;
    }

    /** Replaces the quotas in force (after a change in the store): rates go on for entities that keep a quota. */
    public void update(Map<Map<String, String>, Map<String, Double>> stored) {
        Map<QuotaType, Map<Map<String, String>, Double>> next = new EnumMap<>(QuotaType.class);
        for (QuotaType type : QuotaType.values()) {
            Map<Map<String, String>, Double> byEntity = new HashMap<>();
            stored.forEach((entity, values) -> {
                Double v = values.get(type.key());
                if (v != null && !entity.containsKey("ip")) {
                    byEntity.put(Map.copyOf(entity), v);
                }
            });
            if (!byEntity.isEmpty()) {
                next.put(type, Map.copyOf(byEntity));
            }
        }
        Map<QuotaType, Map<Map<String, String>, Double>> installed = next.isEmpty() ? Map.of() : next;
        quotas = installed;
        sensors.keySet().removeIf(k -> !installed.containsKey(k.type()));
        if (!installed.containsKey(QuotaType.CONTROLLER_MUTATION)) {
            buckets.clear();
        }
        LOG.atInfo().log("client quotas in force: {}", installed.isEmpty() ? "none" : installed);
    }

    /** Whether any quota of {@code type} is set. */
    public boolean active(QuotaType type) {
        return quotas.containsKey(type);
    }

    /**
     * Records {@code value} for the entity of {@code user} (a principal's name, null or empty for none) and
     * {@code clientId}, and answers the throttle time in ms its quota of {@code type} earns; 0 when none applies.
     */
    public long throttleMs(QuotaType type, String user, String clientId, double value) {
        Resolved quota = resolve(type, user, clientId);
        if (quota == null) {
            return 0;
        }
        long now = clock.getAsLong();
        RateSensor sensor = sensors.computeIfAbsent(quota.key(), k -> new RateSensor(samples, windowMs, now));
        return sensor.recordAndThrottleMs(value, quota.bound(), now);
    }

    /**
     * The {@code controller_mutation_rate} quota of {@code user} and {@code clientId} for one request, strict or
     * permissive ({@link MutationQuota}); {@link MutationQuota#UNBOUNDED} when none applies.
     */
    public MutationQuota mutationQuota(String user, String clientId, boolean strict) {
        Resolved quota = resolve(QuotaType.CONTROLLER_MUTATION, user, clientId);
        if (quota == null) {
            return MutationQuota.UNBOUNDED;
        }
        TokenBucket bucket = buckets.computeIfAbsent(quota.key(), k -> new TokenBucket());
        double burst = mutationSamples * (mutationWindowMs / 1000.0) * quota.bound();
        return new MutationQuota(bucket, quota.bound(), burst, strict, clock);
    }

    /** The most specific quota of {@code type} set for the request's user and client id, or null. */
    private Resolved resolve(QuotaType type, String user, String clientId) {
        Map<Map<String, String>, Double> byEntity = quotas.get(type);
        if (byEntity == null) {
            return null;
        }
        String u = user == null ? "" : user;
        String c = clientId == null ? "" : clientId;
        for (Level level : LEVELS) {
            Double bound = byEntity.get(level.entity(u, c));
            if (bound != null) {
                return new Resolved(bound, new SensorKey(type, level.tagsUser ? u : "", level.tagsClient ? c : ""));
            }
        }
        return null;
    }

    private record Resolved(double bound, SensorKey key) {
    }

    /** The entity a level names, and whether the sensor is kept per actual user / client id. */
    private record Level(String user, String client, boolean tagsUser, boolean tagsClient) {
        Map<String, String> entity(String u, String c) {
            Map<String, String> e = new HashMap<>(2);
            if (user != null) {
                e.put(USER, user.isEmpty() ? u : user);
            }
            if (client != null) {
                e.put(CLIENT, client.isEmpty() ? c : client);
            }
            return e;
        }
    }

    // "" stands for the request's own name, DEFAULT for the default entity, null for a type the level lacks.
    private static final List<Level> LEVELS = List.of(
            new Level("", "", true, true),
            new Level("", DEFAULT, true, true),
            new Level("", null, true, false),
            new Level(DEFAULT, "", true, true),
            new Level(DEFAULT, DEFAULT, true, true),
            new Level(DEFAULT, null, true, false),
            new Level(null, "", false, true),
            new Level(null, DEFAULT, false, true));

    private record SensorKey(QuotaType type, String user, String clientId) {
    }
}
