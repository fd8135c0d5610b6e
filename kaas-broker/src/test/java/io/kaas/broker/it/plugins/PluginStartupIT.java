package io.kaas.broker.it.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.TestBroker;
import io.kaas.plugins.BackendSelectionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Start-up of a broker with plugins: the example plugin serves; a broken or unknown one stops start-up clearly. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PluginStartupIT {
    @TempDir
    Path dataDir;
    @TempDir
    Path pluginsDir;

    @Test
    void theExamplePluginSelectedByNameServesProduceAndConsume() throws Exception {
        TestBroker.installPlugin("kaas-example-engine", pluginsDir);
        try (TestBroker broker = start("memory")) {
            broker.createTopic("mem", 1);
            try (KafkaProducer<String, String> producer = broker.producer()) {
                for (int i = 0; i < 50; i++) {
                    producer.send(new ProducerRecord<>("mem", 0, "k" + i, "v" + i));
                }
                producer.flush();
            }
            List<ConsumerRecord<String, String>> got = EngineEndToEndIT.consumeAll(broker,
                    List.of(new TopicPartition("mem", 0)), 50);
            assertThat(got).extracting(ConsumerRecord::value).containsExactlyElementsOf(
                    java.util.stream.IntStream.range(0, 50).mapToObj(i -> "v" + i).toList());
        }
    }

    @Test
    void aBrokenPluginJarStopsStartUpWithOneLineNamingItAndTheBackendsAvailable() throws Exception {
        TestBroker.installPlugin("kaas-engine-rocksdb", pluginsDir);
        Files.write(pluginsDir.resolve("broken-engine.jar"), "not a jar".getBytes());

        assertThatThrownBy(() -> start("segments"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageStartingWith("Plugin broken-engine.jar in " + pluginsDir.toAbsolutePath() + ": cannot be loaded: ")
                .hasMessageContaining("; available: storage engines: rocksdb, segments; cluster-state stores: files")
                .hasMessageNotContaining("\n");
    }

    @Test
    void anUnknownEngineNameListsEveryEngineFoundIncludingPlugins() throws Exception {
        TestBroker.installPlugin("kaas-engine-rocksdb", pluginsDir);
        TestBroker.installPlugin("kaas-example-engine", pluginsDir);

        assertThatThrownBy(() -> start("leveldb"))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessage("No storage engine named 'leveldb' (storage.engine); available: memory, rocksdb, segments");
    }

    private TestBroker start(String engine) throws Exception {
        return TestBroker.builder(dataDir).dataDir(dataDir).pluginsDir(pluginsDir).engine(engine).start();
    }
}
