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
}
