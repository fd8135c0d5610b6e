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
        return List.of(
                new ProduceHandler(topics),
                new FetchHandler(ctx, topics),
                new ListOffsetsHandler(topics),
                new MetadataHandler(ctx, topics),
                new CreateTopicsHandler(nodeId, topics),
                new DeleteTopicsHandler(topics),
                new DeleteRecordsHandler(topics),
                new InitProducerIdHandler(ctx.clusterStore()),
                new DescribeConfigsHandler(ctx, topics),
                new AlterConfigsHandler(topics),
                new CreatePartitionsHandler(nodeId, topics),
                new IncrementalAlterConfigsHandler(topics),
                new DescribeClusterHandler(ctx),
                new DescribeTopicPartitionsHandler(ctx, topics));
    }
}
