package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every entry of {@code listeners} is bound, and Metadata, DescribeCluster and FindCoordinator answer each
 * client with the address of the listener it connected on: {@code advertised.listeners} by name (port 0 is the
 * bound port), a listener without an advertised entry its own address.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ListenersIT {
    @TempDir
    Path dir;

    private TestBroker twoListeners() throws Exception {
        return TestBroker.builder(dir).noInitialRebalanceDelay()
            .config("listeners", "INTERNAL://127.0.0.1:0,EXTERNAL://127.0.0.1:0")
            .config("listener.security.protocol.map", "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT")
            .config("advertised.listeners", "EXTERNAL://localhost:0")
            .config("inter.broker.listener.name", "EXTERNAL")
            .start();
    }

    @Test
    void eachClientIsToldTheAddressOfTheListenerItConnectedOn() throws Exception {
        try (TestBroker broker = twoListeners()) {
            int internal = broker.broker.boundPort("INTERNAL");
            int external = broker.broker.boundPort("EXTERNAL");
            assertThat(internal).isNotEqualTo(external).isEqualTo(broker.port());
            // INTERNAL has no advertised entry: its own bound address.
            assertThat(clusterNodes("127.0.0.1:" + internal)).extracting(Node::host, Node::port)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("127.0.0.1", internal));
            // EXTERNAL is advertised as localhost, port 0 standing for the bound one.
            assertThat(clusterNodes("127.0.0.1:" + external)).extracting(Node::host, Node::port)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("localhost", external));
        }
    }

    @Test
    void producersAndGroupsWorkThroughTheSecondListener() throws Exception {
        try (TestBroker broker = twoListeners()) {
            KafkaClients external = KafkaClients.at("localhost:" + broker.broker.boundPort("EXTERNAL"));
            external.createTopic("t", 1);
            try (KafkaProducer<String, String> producer = external.producer()) {
                producer.send(new ProducerRecord<>("t", "k", "v")).get(20, TimeUnit.SECONDS);
            }
            TopicPartition tp = new TopicPartition("t", 0);
            // FindCoordinator answers the EXTERNAL address: the commit goes to it.
            try (KafkaConsumer<String, String> consumer = external.groupConsumer("g", Map.of())) {
                consumer.subscribe(List.of("t"));
                List<ConsumerRecord<String, String>> got = new java.util.ArrayList<>();
                for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); got.isEmpty() && System.nanoTime() < end; ) {
                    consumer.poll(Duration.ofMillis(200)).forEach(got::add);
                }
                assertThat(got).extracting(ConsumerRecord::value).containsExactly("v");
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(1)), Duration.ofSeconds(20));
            }
            // The same data through the first listener.
            try (Admin admin = broker.admin()) {
                assertThat(admin.listConsumerGroupOffsets("g").partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS))
                    .containsEntry(tp, new OffsetAndMetadata(1));
            }
        }
    }

    @Test
    void aListenerThatCannotBeBoundFailsStartUpAndFreesTheOthers() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            TestBroker.Builder b = TestBroker.builder(dir)
                .config("listeners", "A://127.0.0.1:0,B://127.0.0.1:" + taken.getLocalPort())
                .config("listener.security.protocol.map", "A:PLAINTEXT,B:PLAINTEXT");
            assertThatThrownBy(b::start).isInstanceOf(java.net.BindException.class)
                .hasMessageContaining("127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void anInterBrokerListenerThatIsNotAdvertisedFailsStartUp() {
        TestBroker.Builder b = TestBroker.builder(dir)
            .config("listeners", "A://127.0.0.1:0,B://127.0.0.1:0")
            .config("listener.security.protocol.map", "A:PLAINTEXT,B:PLAINTEXT")
            .config("inter.broker.listener.name", "C");
        assertThatThrownBy(b::start).isInstanceOf(ConfigException.class)
            .hasMessageContaining("inter.broker.listener.name");
    }

    private static List<Node> clusterNodes(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        try (Admin admin = Admin.create(p)) {
            return List.copyOf(admin.describeCluster().nodes().get(20, TimeUnit.SECONDS));
        }
    }
}
