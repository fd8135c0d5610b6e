package io.kaas.broker.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rocksdb engine reports through the broker's EngineStats: WAL syncs, group commits and partition opens. */
class RocksDbEngineMetricsIT {
    @TempDir
    Path dir;

    private static String scrape(TestBroker broker) throws Exception {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + broker.broker.adminPort()
                + "/metrics").toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }

    @Test
    void walSyncsGroupCommitsAndPartitionOpensShowInMetrics() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).engine(TestBroker.ROCKSDB).start()) {
            String before = scrape(broker);
            double syncsBefore = MetricsIT.sample(before, "kaas_log_flush_seconds_count", Map.of()).orElse(0);
            broker.createTopic("rocks", 1);
            try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("rocks", 0, "k" + i, "v" + i)).get(20, TimeUnit.SECONDS);
                }
            }
            String scrape = scrape(broker);
            assertThat(scrape).contains("kaas_storage_engine_info{name=\"rocksdb\"}");
            double syncs = MetricsIT.value(scrape, "kaas_log_flush_seconds_count", Map.of());
            assertThat(syncs - syncsBefore).as("one WAL sync at least per acknowledged produce").isGreaterThanOrEqualTo(20);
            assertThat(MetricsIT.value(scrape, "kaas_log_flush_seconds_sum", Map.of())).isPositive();
            assertThat(MetricsIT.value(scrape, "kaas_log_group_commit_batches_sum", Map.of()))
                    .isGreaterThanOrEqualTo(20);
            assertThat(scrape).contains("kaas_log_flush_seconds_bucket{");
            assertThat(MetricsIT.value(scrape, "kaas_log_recovery_seconds", Map.of("topic", "rocks", "partition", "0")))
                    .isGreaterThanOrEqualTo(0);
        }
    }
}
