package io.kaas.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.AbstractEventExecutorGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners' network threads ({@code num.network.threads}), {@code kaas-network-N}: an event-loop group whose size
 * changes at run time, as Kafka's processors. Netty's groups have a fixed size, so each thread is an event-loop group
 * of its own and this group hands new connections to them in turn ({@link #next()}). A grown group starts its new
 * threads at once and gives them the next connections; a shrunk one, as Kafka's removed processors, closes the
 * connections of the threads it removes (their clients reconnect, to the threads that stay) and stops those threads.
 */
final class NetworkThreads extends AbstractEventExecutorGroup implements EventLoopGroup {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkThreads.class);

    private record Processor(int id, EventLoopGroup group, EventLoop loop) {
    }

    private final Transport transport;
    private final AtomicInteger turn = new AtomicInteger();
    private final List<Processor> stopping = new ArrayList<>(); // guarded by this
    private final Promise<Void> terminated = GlobalEventExecutor.INSTANCE.newPromise();
    private volatile List<Processor> processors = List.of();
    private volatile boolean shuttingDown;

    NetworkThreads(Transport transport, int threads) {
        this.transport = transport;
        synchronized (this) {
            grow(threads);
        }
    }

    /** The threads running the listeners' connections now. */
    int size() {
        return processors.size();
    }

    /**
     * Resizes to {@code threads}, logging {@code num.network.threads old -> new}; on a shrink, {@code beforeStop} is
     * told the removed threads' loops (to close their connections), and then they stop (Netty closes what is left on
     * them). New connections go to the remaining threads only.
     *
     * @throws IllegalArgumentException if {@code threads} is below 1; nothing changes then
     */
    synchronized void resize(int threads, java.util.function.Consumer<Set<EventLoop>> beforeStop) {
        if (threads < 1) {
            throw new IllegalArgumentException("num.network.threads must be at least 1, got " + threads);
        }
        int old = processors.size();
        if (shuttingDown || threads == old) {
            return;
        }
        if (threads > old) {
            grow(threads - old);
        } else {
            List<Processor> kept = List.copyOf(processors.subList(0, threads));
            List<Processor> removed = List.copyOf(processors.subList(threads, old));
            processors = kept;
            Set<EventLoop> loops = new java.util.HashSet<>();
            removed.forEach(p -> loops.add(p.loop()));
            beforeStop.accept(loops);
            for (Processor p : removed) {
                stopping.add(p);
                // Netty closes every channel still registered on a loop that stops (their close listeners run first)
                p.group().shutdownGracefully(0, 2, TimeUnit.SECONDS).addListener(f -> {
                    synchronized (NetworkThreads.this) {
                        stopping.remove(p);
                    }
                });
            }
        }
        LOG.atInfo().addKeyValue("numNetworkThreads", threads)
                .log("Network threads resized: num.network.threads {} -> {}", old, threads);
    }

    private void grow(int count) {
        List<Processor> next = new ArrayList<>(processors);
        for (int i = 0; i < count; i++) {
            int id = freeId(next);
            EventLoopGroup group = transport.newGroup(1, r -> {
                Thread t = new FastThreadLocalThread(r, "kaas-network-" + id);
                t.setDaemon(true);
                return t;
            });
            EventLoop loop = group.next();
            loop.execute(() -> { }); // Netty starts a loop's thread at its first task: start it now
            next.add(new Processor(id, group, loop));
        }
        processors = List.copyOf(next);
    }

    private int freeId(List<Processor> current) {
        int id = 0;
        while (true) {
            int candidate = id;
            if (current.stream().noneMatch(p -> p.id() == candidate)
                    && stopping.stream().noneMatch(p -> p.id() == candidate)) {
                return id;
            }
            id++;
        }
    }

    @Override
    public EventLoop next() {
        List<Processor> p = processors;
        return p.get(Math.floorMod(turn.getAndIncrement(), p.size())).loop();
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        List<EventExecutor> loops = new ArrayList<>();
        processors.forEach(p -> loops.add(p.loop()));
        return loops.iterator();
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return next().register(channel);
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        return next().register(promise);
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        return next().register(channel, promise);
    }

    @Override
    public boolean isShuttingDown() {
        return shuttingDown;
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        List<EventLoopGroup> all = new ArrayList<>();
        synchronized (this) {
            if (!shuttingDown) {
                shuttingDown = true;
                processors.forEach(p -> all.add(p.group()));
                stopping.forEach(p -> all.add(p.group()));
            }
        }
        if (!all.isEmpty()) {
            AtomicInteger left = new AtomicInteger(all.size());
            for (EventLoopGroup g : all) {
                g.shutdownGracefully(quietPeriod, timeout, unit).addListener(f -> {
                    if (left.decrementAndGet() == 0) {
                        terminated.trySuccess(null);
                    }
                });
            }
        }
        return terminated;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminated;
    }

    @Deprecated
    @Override
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    @Override
    public boolean isShutdown() {
        return terminated.isDone();
    }

    @Override
    public boolean isTerminated() {
        return terminated.isDone();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }
}
