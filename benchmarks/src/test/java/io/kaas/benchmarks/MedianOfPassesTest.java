package io.kaas.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MedianOfPassesTest {

    @Test
    void eachFigureIsTheMedianOfItsPasses() throws Exception {
        Iterator<Map<String, Double>> passes = List.of(
                Map.of("MB/s", 300.0, "records/s", 3.0),
                Map.of("MB/s", 500.0, "records/s", 1.0),
                Map.of("MB/s", 450.0, "records/s", 2.0)).iterator();
        assertThat(Harness.medianOf(3, passes::next)).containsEntry("MB/s", 450.0).containsEntry("records/s", 2.0);
    }

    @Test
    void anEvenNumberOfSamplesAveragesTheMiddleTwo() {
        assertThat(Results.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(Results.median(List.of())).isNaN();
    }
}
