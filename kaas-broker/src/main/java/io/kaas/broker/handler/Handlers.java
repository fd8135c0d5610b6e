package io.kaas.broker.handler;

import io.kaas.broker.BrokerContext;
import io.kaas.broker.topic.TopicManager;
import java.util.List;

/** Creates every topic, produce/fetch and admin handler; the registry adds ApiVersions. */
public final class Handlers {
    private Handlers() {
    }

    public static List<ApiHandler<?, ?>> create(BrokerContext ctx, TopicManager topics) {
        int nodeId = ctx.nodeId();
        AccessGate gate = ctx.accessGate();
        return List.of(
                new ProduceHandler(topics, gate),
                new FetchHandler(ctx, topics),
                new ListOffsetsHandler(topics, gate),
                new MetadataHandler(ctx, topics),
                new CreateTopicsHandler(nodeId, topics, gate),
                new DeleteTopicsHandler(topics, gate),
                new DeleteRecordsHandler(topics, gate),
                new InitProducerIdHandler(ctx.clusterStore()),
                new DescribeConfigsHandler(ctx, topics),
                new AlterConfigsHandler(topics, gate),
                new CreatePartitionsHandler(nodeId, topics, gate),
                new IncrementalAlterConfigsHandler(topics, gate),
                new DescribeClusterHandler(ctx),
                new DescribeTopicPartitionsHandler(ctx, topics));
    }
}
