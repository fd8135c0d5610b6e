package io.kaas.broker.quota;

import io.kaas.broker.network.ConnectionRateLimit;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's connection creation rate quotas (KIP-612), as its {@code ConnectionQuotas}: the broker-wide
 * {@code max.connection.creation.rate}, each listener's {@code listener.name.<l>.max.connection.creation.rate} (a
 * connection waits the longer of the two delays) and the {@code connection_creation_rate} of ip entities (one address, or the
 * default for every address without its own), each a rate over {@code quota.window.num} samples of
 * {@code quota.window.size.seconds}; a throttle time is at most one window. A connection refused by its address's
 * rate is not counted on it nor on the broker-wide rate. Only accepted connections take a lock here.
 */
public final class ConnectionRateQuotas implements ConnectionRateLimit {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionRateQuotas.class);
    private static final String IP = "ip";

    private final int samples;
    private final long windowMs;
    private final RateSensor broker;
    private volatile int brokerRate;
    private volatile Map<InetAddress, Integer> perIp = Map.of();
    private volatile int defaultPerIp = Integer.MAX_VALUE;
    private final Map<InetAddress, RateSensor> ipSensors = new ConcurrentHashMap<>();
    private volatile Map<String, Integer> listenerRates = Map.of();
    private volatile String protectedListener;
    private final Map<String, RateSensor> listenerSensors = new ConcurrentHashMap<>();

    /**
     * @param brokerRate {@code max.connection.creation.rate} ({@link Integer#MAX_VALUE}: none)
     */
    public ConnectionRateQuotas(int samples, long windowMs, int brokerRate, long nowMs) {
        this.samples = samples;
        this.windowMs = windowMs;
        this.broker = new RateSensor(samples, windowMs, nowMs);
        this.brokerRate = brokerRate;
    }

    /** A new {@code max.connection.creation.rate} (a dynamic broker config). */
    public void brokerRate(int rate) {
        if (rate != brokerRate) {
            LOG.atInfo().addKeyValue("rate", rate).log("Updating broker-wide max.connection.creation.rate: {}", rate);
            brokerRate = rate;
        }
    }

    /**
     * The inter-broker listener of a broker with several listeners, which the broker-wide rate does not hold (only its
     * own listener rate), as Kafka's protected listener; null for none.
     */
    public void protectListener(String listenerName) {
        protectedListener = listenerName;
    }

    /**
     * New listener rates ({@code listener.name.<l>.max.connection.creation.rate}, static or dynamic), keyed by listener
     * name; a listener left out has none. Logs each change.
     */
    public void listenerRates(Map<String, Integer> rates) {
        Map<String, Integer> old = listenerRates;
        if (rates.equals(old)) {
            return;
        }
        java.util.Set<String> names = new java.util.TreeSet<>(old.keySet());
        names.addAll(rates.keySet());
        for (String name : names) {
            Integer before = old.get(name);
            Integer after = rates.get(name);
            if (!java.util.Objects.equals(before, after)) {
                LOG.atInfo().addKeyValue("listener", name).addKeyValue("rate", after)
                        .log("Updating max.connection.creation.rate of listener {}: {} -> {}", name,
                                before == null ? "(none)" : before, after == null ? "(none)" : after);
            }
        }
        listenerRates = Map.copyOf(rates);
        listenerSensors.keySet().removeIf(l -> !rates.containsKey(l));
    }

    /** The stored quotas changed: the {@code connection_creation_rate} of every ip entity from now on. */
    public void update(Map<Map<String, String>, Map<String, Double>> stored) {
        Map<InetAddress, Integer> next = new HashMap<>();
        int nextDefault = Integer.MAX_VALUE;
        for (Map.Entry<Map<String, String>, Map<String, Double>> e : stored.entrySet()) {
            String ip = e.getKey().get(IP);
            Double rate = e.getValue().get(QuotaValidation.CONNECTION_CREATION_RATE);
            if (ip == null || rate == null || e.getKey().size() != 1) {
                continue;
            }
            if (QuotaStore.DEFAULT_NAME.equals(ip)) {
                nextDefault = rate.intValue();
                continue;
            }
            try {
                next.put(InetAddress.getByName(ip), rate.intValue());
            } catch (UnknownHostException ex) {
                LOG.atWarn().addKeyValue("ip", ip)
                        .log("connection_creation_rate of ip {} not applied: the host does not resolve", ip);
            }
        }
        if (!next.equals(perIp) || nextDefault != defaultPerIp) {
            LOG.atInfo().log("connection_creation_rate quotas in force: default {}, per ip {}",
                    nextDefault == Integer.MAX_VALUE ? "none" : nextDefault, next);
        }
        perIp = Map.copyOf(next);
        defaultPerIp = nextDefault;
        ipSensors.keySet().removeIf(a -> ipQuota(a) == Integer.MAX_VALUE);
    }

    @Override
    public long acceptDelayMs(long nowMs) {
        int rate = brokerRate;
        if (rate == Integer.MAX_VALUE) {
            return 0;
        }
        return Math.min(windowMs, broker.recordAndThrottleMs(1, rate, nowMs));
    }

    @Override
    public long acceptDelayMs(String listenerName, long nowMs) {
        long brokerDelay = listenerName.equals(protectedListener) ? 0 : acceptDelayMs(nowMs);
        Integer rate = listenerRates.get(listenerName);
        if (rate == null || rate == Integer.MAX_VALUE) {
            return brokerDelay;
        }
        RateSensor sensor = listenerSensors.computeIfAbsent(listenerName, l -> new RateSensor(samples, windowMs, nowMs));
        return Math.min(windowMs, Math.max(brokerDelay, sensor.recordAndThrottleMs(1, rate, nowMs)));
    }

    @Override
    public long ipThrottleMs(String listenerName, InetAddress address, long nowMs) {
        long throttle = ipThrottleMs(address, nowMs, !listenerName.equals(protectedListener));
        RateSensor listener = listenerSensors.get(listenerName);
        if (throttle > 0 && listener != null) {
            listener.add(-1, nowMs); // not accepted: not counted on its listener either
        }
        return throttle;
    }

    @Override
    public long ipThrottleMs(InetAddress address, long nowMs) {
        return ipThrottleMs(address, nowMs, true);
    }

    /** As {@link #ipThrottleMs(InetAddress, long)}; {@code brokerCounted}: the connection was on the broker-wide rate. */
    private long ipThrottleMs(InetAddress address, long nowMs, boolean brokerCounted) {
        int rate = ipQuota(address);
        if (rate == Integer.MAX_VALUE) {
            return 0;
        }
        RateSensor sensor = ipSensors.computeIfAbsent(address, a -> new RateSensor(samples, windowMs, nowMs));
        long throttle = Math.min(windowMs, sensor.recordAndThrottleMs(1, rate, nowMs));
        if (throttle > 0) {
            // As Kafka: a connection that is not accepted is not counted.
            sensor.add(-1, nowMs);
            if (brokerCounted && brokerRate != Integer.MAX_VALUE) {
                broker.add(-1, nowMs);
            }
        }
        return throttle;
    }

    @Override
    public int ipQuota(InetAddress address) {
        return address == null ? Integer.MAX_VALUE : perIp.getOrDefault(address, defaultPerIp);
    }
}
