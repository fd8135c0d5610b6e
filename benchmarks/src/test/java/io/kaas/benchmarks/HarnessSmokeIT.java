package io.kaas.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end in its smoke size (one tiny round against kaas and Kafka, seconds each), so
 * it cannot rot. It asserts only that figures came out, never how fast anything was.
 */
class HarnessSmokeIT {

    @TempDir
    Path work;

    @Test
    // About a minute per broker; a broker that cannot run a workload costs up to the client's 60 s
    // max.block.ms for each (the transactional ones on a broker without a transaction coordinator).
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void oneTinyRoundAgainstBothBrokersProducesEveryReport() throws Exception {
        Path home = Path.of(System.getProperty("kaas.home", "../distribution/target/kaas-0.1.0-SNAPSHOT"));
        assumeTrue(Files.isRegularFile(home.resolve("bin/kaas-server-start.sh")),
                "no built distribution at " + home + "; build the distribution module first");
        String classpath = Harness.classpath();
        Harness harness = new Harness(Sizes.smoke(), List.of(new KaasUnderTest(home.toAbsolutePath(), "segments"),
                new KafkaUnderTest(false, classpath)), work, classpath);

        Results results = harness.run();

        Path out = Path.of("target", "smoke-results");
        results.write(out, "smoke", "kaas vs Apache Kafka (smoke)", Harness.machine(), Sizes.smoke());
        for (String system : List.of("kaas", "kafka")) {
            assertCameOut(results, "start-up to first Metadata ms", system);
            assertCameOut(results, "RSS after 10 s idle MiB", system);
            assertCameOut(results, "produce 1 KiB x3p acks=all: records/s", system);
            assertCameOut(results, "produce 1 KiB x3p acks=1: records/s", system);
            assertCameOut(results, "consume 1 KiB x3p, assigned (no group): MB/s", system);
            assertCameOut(results, "produce 16 KiB x3p acks=all: records/s", system);
            assertThat(results.median("transaction.version finalized", system)).as(system).isEqualTo(2.0);
            assertCameOut(results, "end-to-end 1 KiB one transaction each, read_committed: latency p99 ms", system);
            assertCameOut(results, Harness.TXN_PRODUCE + ": records/s", system);
            for (Harness.ProducerSetting setting : Harness.SETTINGS) {
                assertCameOut(results, "produce 1 KiB x3p " + setting.name() + " acks=all: records/s", system);
                assertCameOut(results, "CPU s per GB produced, " + setting.name() + ": other threads", system);
                assertCameOut(results, "heap MB allocated per MB produced, " + setting.name(), system);
            }
        }
        assertThat(Files.readString(out.resolve("smoke.md"))).contains("| figure |", "kaas/kafka");
        assertThat(Files.readString(out.resolve("smoke.json"))).contains("\"figures\"", "\"targets\"");
    }

    /** A figure the run recorded: a real positive number (a workload that failed leaves NaN, which isPositive accepts). */
    private static void assertCameOut(Results results, String figure, String system) {
        assertThat(results.median(figure, system)).as(system + ": " + figure).isNotNaN().isPositive();
    }
}
