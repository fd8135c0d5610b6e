package io.kaas.broker.network;

import io.kaas.broker.config.ConfigException;
import io.kaas.broker.config.ConnectionLimitsConfig;
import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's connection counts against {@code max.connections} (broker-wide and per listener) and
 * {@code max.connections.per.ip} (with its overrides), shared by every listener, as Kafka's {@code ConnectionQuotas}.
 * A connection arriving with no slot free waits, unread, and its listener stops accepting (Kafka's acceptor blocks
 * the same way) until a slot frees; the oldest waiting connection is served first. A connection over its
 * address's limit is refused at once. Thread-safe.
 */
final class ConnectionLimits {

    /** What happens to a connection that asks for a slot. */
    enum Verdict { ADMIT, WAIT, REJECT }

    /** A connection waiting for a slot (its pipeline's head handler). */
    interface Waiter {
        String listenerName();

        InetAddress address();

        Channel channel();

        /** Called with the verdict once a slot freed (ADMIT, the slot taken) or its address is over its limit (REJECT). */
        void decided(Verdict verdict);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimits.class);

    private volatile ConnectionLimitsConfig config;
    private volatile Map<InetAddress, Integer> perIpOverrides;
    private volatile ConnectionRateLimit rates = ConnectionRateLimit.NONE;
    private final Set<Channel> rateHeldAcceptors = new LinkedHashSet<>();
    private final Map<InetAddress, Integer> perIp = new HashMap<>();
    private final Map<String, Integer> perListener = new HashMap<>();
    private final LinkedHashSet<Waiter> waiting = new LinkedHashSet<>();
    private final Set<Channel> pausedAcceptors = new LinkedHashSet<>();
    private int total;

    /**
     * @throws ConfigException naming {@code max.connections.per.ip.overrides} if one of its hosts does not resolve
     */
    ConnectionLimits(ConnectionLimitsConfig config) {
        this.config = config;
        this.perIpOverrides = resolved(config);
    }

    private static Map<InetAddress, Integer> resolved(ConnectionLimitsConfig config) {
        Map<InetAddress, Integer> overrides = new LinkedHashMap<>();
        config.perIpOverrides().forEach((host, count) -> {
            try {
                overrides.put(InetAddress.getByName(host), count);
            } catch (UnknownHostException e) {
                throw new ConfigException("max.connections.per.ip.overrides", "unknown host '" + host + "'");
            }
        });
        return Map.copyOf(overrides);
    }

    /**
     * New limits (dynamic broker configs), in force for connections arriving from now on: connections held already
     * stay (as Kafka's), waiting ones that now fit are served.
     *
     * @throws ConfigException naming {@code max.connections.per.ip.overrides} if one of its hosts does not resolve;
     *                         nothing changes then
     */
    void reconfigure(ConnectionLimitsConfig next) {
        Map<InetAddress, Integer> overrides = resolved(next);
        Decisions decided;
        synchronized (this) {
            ConnectionLimitsConfig old = config;
            if (old.equals(next)) {
                return;
            }
            config = next;
            perIpOverrides = overrides;
            LOG.atInfo().addKeyValue("maxConnections", next.maxConnections())
                .addKeyValue("maxConnectionsPerIp", next.maxConnectionsPerIp())
                .addKeyValue("maxConnectionsPerIpOverrides", next.perIpOverrides())
                .log("connection limits changed: max.connections {} -> {}, max.connections.per.ip {} -> {}, "
                        + "max.connections.per.ip.overrides {} -> {}", old.maxConnections(), next.maxConnections(),
                    old.maxConnectionsPerIp(), next.maxConnectionsPerIp(), old.perIpOverrides(), next.perIpOverrides());
            decided = admitWaiting();
        }
        decided.apply();
    }

    /** The connection creation rates new connections are held to from now on. */
    void limitRatesWith(ConnectionRateLimit limit) {
        rates = limit;
    }

    ConnectionRateLimit rates() {
        return rates;
    }

    /**
     * The broker-wide connection creation rate is exceeded: {@code acceptor} accepts nothing until
     * {@link #releaseAcceptor} (Kafka's acceptor waits the same way).
     */
    synchronized void holdAcceptor(Channel acceptor) {
        if (acceptor != null && rateHeldAcceptors.add(acceptor)) {
            acceptor.config().setAutoRead(false);
        }
    }

    /** The rate's wait is over: {@code acceptor} accepts again, unless it waits for a connection slot too. */
    void releaseAcceptor(Channel acceptor) {
        boolean resume;
        synchronized (this) {
            resume = acceptor != null && rateHeldAcceptors.remove(acceptor) && !pausedAcceptors.contains(acceptor);
        }
        if (resume) {
            acceptor.config().setAutoRead(true);
        }
    }

    /** No limits (Kafka's defaults). */
    static ConnectionLimits unlimited() {
        return new ConnectionLimits(ConnectionLimitsConfig.unlimited());
    }

    ConnectionLimitsConfig config() {
        return config;
    }

    /** The limit of connections at once from {@code address}. */
    int maxConnections(InetAddress address) {
        return perIpOverrides.getOrDefault(address, config.maxConnectionsPerIp());
    }

    /**
     * A new connection asks for a slot. ADMIT: the slot is taken (give it back with {@link #release}); WAIT: it is
     * queued, its listener's acceptor paused, and {@link Waiter#decided} is called later; REJECT: its address has
     * its maximum already.
     */
    Verdict arrive(Waiter waiter) {
        synchronized (this) {
            if (slotFree(waiter.listenerName())) {
                return take(waiter);
            }
            waiting.add(waiter);
            Channel acceptor = waiter.channel().parent();
            if (acceptor != null) {
                if (pausedAcceptors.add(acceptor)) {
                    LOG.atInfo().addKeyValue("listener", waiter.listenerName()).addKeyValue("connections", total)
                        .log("listener {} stops accepting until a connection closes: max.connections reached "
                            + "(broker-wide {}, listener {})", waiter.listenerName(), config.maxConnections(),
                            config.maxConnections(waiter.listenerName()));
                }
                acceptor.config().setAutoRead(false);
            }
            return Verdict.WAIT;
        }
    }

    /** A waiting connection closed before it got a slot. */
    void abandon(Waiter waiter) {
        Decisions decided;
        synchronized (this) {
            waiting.remove(waiter);
            decided = admitWaiting();
        }
        decided.apply();
    }

    /** An admitted connection closed: its slot frees, and the oldest waiting connections that now fit are decided. */
    void release(String listenerName, InetAddress address) {
        Decisions decided;
        synchronized (this) {
            total--;
            perListener.merge(listenerName, -1, Integer::sum);
            if (address != null) {
                perIp.computeIfPresent(address, (a, n) -> n == 1 ? null : n - 1);
            }
            decided = admitWaiting();
        }
        decided.apply();
    }

    /** Connections holding a slot, every listener. */
    synchronized int connections() {
        return total;
    }

    /** Connections waiting for a slot. */
    synchronized int waiting() {
        return waiting.size();
    }

    /** Connections holding a slot from {@code address}. */
    synchronized int connections(InetAddress address) {
        return perIp.getOrDefault(address, 0);
    }

    /** What a freed slot decided, applied outside the lock: verdicts to hand out, acceptors to resume. */
    private record Decisions(List<Map.Entry<Waiter, Verdict>> verdicts, List<Channel> resumed) {
        void apply() {
            resumed.forEach(a -> a.config().setAutoRead(true));
            verdicts.forEach(d -> d.getKey().decided(d.getValue()));
        }
    }

    private Decisions admitWaiting() {
        List<Map.Entry<Waiter, Verdict>> out = new ArrayList<>();
        for (Iterator<Waiter> it = waiting.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (total >= config.maxConnections()) {
                break;
            }
            if (slotFree(w.listenerName())) {
                it.remove();
                out.add(Map.entry(w, take(w)));
            }
        }
        List<Channel> resumed = new ArrayList<>();
        if (waiting.isEmpty()) {
            pausedAcceptors.stream().filter(a -> !rateHeldAcceptors.contains(a)).forEach(resumed::add);
            pausedAcceptors.clear();
        }
        return new Decisions(out, resumed);
    }

    private boolean slotFree(String listenerName) {
        return total < config.maxConnections()
            && perListener.getOrDefault(listenerName, 0) < config.maxConnections(listenerName);
    }

    private Verdict take(Waiter waiter) {
        InetAddress address = waiter.address();
        if (address != null && perIp.getOrDefault(address, 0) >= maxConnections(address)) {
            return Verdict.REJECT;
        }
        total++;
        perListener.merge(waiter.listenerName(), 1, Integer::sum);
        if (address != null) {
            perIp.merge(address, 1, Integer::sum);
        }
        return Verdict.ADMIT;
    }
}
