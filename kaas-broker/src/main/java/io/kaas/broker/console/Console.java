package io.kaas.broker.console;

import io.kaas.broker.admin.ConsoleApi;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.interbroker.BrokerClient;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.plugins.FoundBackend;
import io.kaas.security.scram.ScramCredentialLookup;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The console's JSON API of one broker, assembled: its router (what the admin endpoint serves under
 * {@code /api/v1}) and its charts sampler (on a daemon thread of its own, stopped by {@link #close()}).
 */
public final class Console implements AutoCloseable {

    /**
     * How the console reaches the broker: its handlers, the listener its requests appear to come from, and the
     * inter-broker client it reaches the other brokers with (null: none).
     */
    public record Pipeline(HandlerRegistry registry, String listenerName, String securityProtocol,
                           BrokerClient interBroker) {
    }

    /** What the overview shows that no Kafka API answers. */
    public record Facts(int nodeId, String version, long startedMs, FoundBackend engine, FoundBackend store,
                        String authorizer, List<FoundBackend> found, Path logDir, ClusterView cluster) {
    }

    private final ConsoleRouter router;
    private final ChartsSampler charts;
    private final ScheduledExecutorService sampler;

    private Console(ConsoleRouter router, ChartsSampler charts, ScheduledExecutorService sampler) {
        this.router = router;
        this.charts = charts;
        this.sampler = sampler;
    }

    /**
     * The console of a started broker.
     *
     * @param pipeline     the broker's request pipeline
     * @param requireLogin whether callers must sign in (an authorizer is configured)
     * @param credentials  the stored SCRAM credentials the sign-in is checked against
     * @param facts        the broker's own facts for the overview
     * @param meters       the broker's meters (the charts)
     * @param groups       the group coordinator and
     * @param topics       the topics, for each group's lag history
     */
    public static Console start(Pipeline pipeline, boolean requireLogin, ScramCredentialLookup credentials, Facts facts,
                                MeterRegistry meters, GroupCoordinator groups, TopicManager topics) {
        KafkaRequests kafka = new KafkaRequests(pipeline.registry(), pipeline.listenerName(), pipeline.securityProtocol());
        Forwarder forwarder = new Forwarder(facts.cluster(), pipeline.interBroker(), Forwarder.TIMEOUT_MS);
        ClusterReads reads = new ClusterReads(kafka, forwarder);
        ChartsSampler charts = new ChartsSampler(meters, new GroupLag(groups, topics));
        TopicsResource topicsResource = new TopicsResource(reads);
        GroupsResource groupsResource = new GroupsResource(reads, charts);
        ConsoleRouter router = new ConsoleRouter(new BasicScramAuthenticator(requireLogin, credentials),
            new OverviewResource(reads, facts), charts, topicsResource,
            new MessagesResource(reads, topicsResource), groupsResource,
            new TopicActions(reads, topicsResource), new ProduceAction(kafka, forwarder, topicsResource),
            new ResetOffsetsAction(reads, topicsResource, groupsResource));
        // A thread of its own: a slow sample never delays the coordinators' timers on the broker's scheduler.
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kaas-console-sampler");
            t.setDaemon(true);
            return t;
        });
        charts.start(sampler);
        return new Console(router, charts, sampler);
    }

    /** What the admin endpoint serves under {@code /api/v1}. */
    public ConsoleApi api() {
        return router;
    }

    @Override
    public void close() {
        charts.close();
        sampler.shutdownNow();
    }
}
