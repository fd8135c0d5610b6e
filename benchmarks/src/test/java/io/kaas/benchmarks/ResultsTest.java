package io.kaas.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResultsTest {

    private static Results withSystems(String... labels) {
        Results r = new Results();
        for (String l : labels) {
            r.system(l, l + " described");
        }
        return r;
    }

    private static List<String> columns(Results r) {
        return r.ratioColumns().stream().map(c -> c[0] + "/" + c[1]).toList();
    }

    @Test
    void kaasIsComparedWithEveryOtherSystemAndEachVariantWithItsKafkaCounterpart() {
        assertThat(columns(withSystems("kaas", "kafka", "kafka-flush1")))
                .containsExactly("kaas/kafka", "kaas/kafka-flush1");
        assertThat(columns(withSystems("kaas", "kaas-tv1", "kafka", "kafka-tv1")))
                .containsExactly("kaas/kaas-tv1", "kaas/kafka", "kaas/kafka-tv1", "kaas-tv1/kafka-tv1");
        assertThat(columns(withSystems("kaas-tv1", "kafka-tv1"))).containsExactly("kaas-tv1/kafka-tv1");
        assertThat(columns(withSystems("kafka", "kafka-flush1"))).isEmpty();
    }

    @Test
    void theTableShowsMediansAndTheirRatioAndTheTransactionalTarget() {
        Results r = withSystems("kaas", "kafka");
        for (double v : new double[] {60_000, 90_000, 70_000}) {
            r.add(Harness.TXN_PRODUCE + ": records/s", "kaas", v);
        }
        for (double v : new double[] {40_000, 50_000, 30_000}) {
            r.add(Harness.TXN_PRODUCE + ": records/s", "kafka", v);
        }
        String md = r.markdown("t", "m", Sizes.smoke());
        assertThat(md).contains("| " + Harness.TXN_PRODUCE + ": records/s | 70000 | 40000 | 1.75 |")
                .contains("| transactional produce records/s (kaas fsyncs) >= 1.5x Kafka default (no fsync) | 1.75 | yes |")
                .contains("| transactional produce records/s >= 1.5x Kafka with flush.messages=1 | n/a | n/a |");
    }

    @Test
    void theTlsTargetsCompareKaasTlsWithKafkaTls() {
        Results r = withSystems("kaas-tls", "kafka-tls");
        assertThat(columns(r)).containsExactly("kaas-tls/kafka-tls");
        r.add("consume 1 KiB x3p: MB/s", "kaas-tls", 300);
        r.add("consume 1 KiB x3p: MB/s", "kafka-tls", 200);
        r.add("produce 1 KiB x3p acks=all: records/s", "kaas-tls", 40_000);
        r.add("produce 1 KiB x3p acks=all: records/s", "kafka-tls", 32_000);
        String md = r.markdown("t", "m", Sizes.smoke());
        assertThat(md).contains("| over TLS: consume MB/s (ConsumerPerformance) >= 1.2x Kafka | 1.50 | yes |")
                .contains("| over TLS: acks=all records/s (kaas fsyncs) >= 1.5x Kafka default (no fsync) | 1.25 | **no** |")
                .contains("| consume MB/s (ConsumerPerformance) >= 1.2x Kafka | n/a | n/a |");
    }
}
