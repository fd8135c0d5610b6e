package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A Kafka Streams word count (at-least-once, classic group protocol) against kaas, output checked exactly. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WordCountStreamsIT {
    @TempDir
    Path dataDir;
    @TempDir
    Path stateDir;

    @Test
    void countsWordsFromOneTopicIntoAnother() throws Exception {
        List<String> lines = List.of("the quick brown fox", "jumps over the lazy dog", "The dog barks",
                "quick quick QUICK");
        Map<String, Long> expected = new HashMap<>();
        lines.forEach(l -> Arrays.stream(l.toLowerCase(Locale.ROOT).split("\\W+")).forEach(w -> expected.merge(w, 1L, Long::sum)));

        try (TestBroker broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().start()) {
            broker.createTopic("text-in", 3);
            broker.createTopic("counts-out", 3);
            try (KafkaProducer<String, String> producer = broker.producer()) {
                for (String line : lines) {
                    producer.send(new ProducerRecord<>("text-in", line));
                }
                producer.flush();
            }

            StreamsBuilder builder = new StreamsBuilder();
            builder.stream("text-in", Consumed.with(Serdes.String(), Serdes.String()))
                    .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
                    .groupBy((key, word) -> word, Grouped.with("by-word", Serdes.String(), Serdes.String()))
                    .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("word-counts"))
                            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                    .toStream()
                    .to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "word-count");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
            props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
            props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
            props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");

            Map<String, Long> latest = new HashMap<>();
            try (KafkaStreams streams = new KafkaStreams(builder.build(), props);
                 KafkaConsumer<String, Long> out = new KafkaConsumer<>(Map.of(
                         ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                         ConsumerConfig.GROUP_ID_CONFIG, "word-count-checker",
                         ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                         new StringDeserializer(), new LongDeserializer())) {
                streams.start();
                out.subscribe(List.of("counts-out"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (!latest.equals(expected) && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, Long> r : out.poll(Duration.ofMillis(200))) {
                        latest.put(r.key(), r.value());
                    }
                }
                assertThat(streams.state()).isIn(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
                streams.close(Duration.ofSeconds(20));
            }
            assertThat(latest).isEqualTo(expected);
        }
    }
}
