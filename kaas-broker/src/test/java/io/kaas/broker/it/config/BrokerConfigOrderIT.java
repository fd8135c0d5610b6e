package io.kaas.broker.it.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.KafkaWire;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DescribeConfigs lists a broker's configs in Kafka 4.4's order, which clients that read the answers by position
 * rely on (kafkajs's createTopics test asks for default.replication.factor and num.partitions and takes the first
 * answer as the replication factor). The expected orders are what a single-node Kafka 4.4.0 answered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BrokerConfigOrderIT {
    @TempDir
    Path dir;

    private static List<String> describe(TestBroker broker, List<String> keys) throws Exception {
        DescribeConfigsRequestData request = new DescribeConfigsRequestData().setResources(List.of(
                new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType((byte) 4).setResourceName("1")
                        .setConfigurationKeys(keys)));
        DescribeConfigsResponseData response = (DescribeConfigsResponseData) KafkaWire.send(broker.port(), "order",
                ApiKeys.DESCRIBE_CONFIGS, (short) 4, request).data();
        return response.results().get(0).configs().stream().map(DescribeConfigsResponseData.DescribeConfigsResourceResult::name)
                .toList();
    }

    @Test
    void namedBrokerConfigsComeInKafkasOrderWhateverTheRequestsOrder() throws Exception {
        try (TestBroker broker = TestBroker.start(dir)) {
            assertThat(describe(broker, List.of("num.partitions", "default.replication.factor")))
                    .containsExactly("default.replication.factor", "num.partitions");
            assertThat(describe(broker, List.of("default.replication.factor", "num.partitions")))
                    .containsExactly("default.replication.factor", "num.partitions");
            // the first keys of Kafka 4.4's full listing, in its order
            assertThat(describe(broker, List.of("log.flush.interval.ms", "log.flush.interval.messages",
                    "offsets.topic.num.partitions", "log.cleaner.min.compaction.lag.ms")))
                    .containsExactly("log.cleaner.min.compaction.lag.ms", "offsets.topic.num.partitions",
                            "log.flush.interval.messages", "log.flush.interval.ms");
        }
    }
}
