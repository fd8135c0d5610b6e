package io.kaas.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WorkloadsTest {

    @Test
    void aListSelectsExactlyItsWorkloads() {
        Workloads w = Workloads.parse("txn-produce, txn-e2e");
        assertThat(w.names()).containsExactly("txn-produce", "txn-e2e");
        assertThat(w.has("produce")).isFalse();
        assertThat(w.transactional()).isTrue();
        assertThat(Workloads.parse("produce,large").transactional()).isFalse();
    }

    @Test
    void allAndTheDefaultSelectEveryWorkloadIncludingTheTransactionalOnes() {
        assertThat(Workloads.parse("all").names()).containsExactlyElementsOf(Workloads.ALL);
        assertThat(Workloads.all().names()).contains("txn-produce", "txn-e2e", "produce", "wide");
    }

    @Test
    void anUnknownNameIsRefusedWithTheKnownOnes() {
        assertThatThrownBy(() -> Workloads.parse("produce,txn"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown workload 'txn'")
                .hasMessageContaining("txn-produce");
        assertThatThrownBy(() -> Workloads.parse(" , ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void consumingWithoutProducingIsRefused() {
        assertThatThrownBy(() -> Workloads.parse("consume")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("add produce");
        assertThatThrownBy(() -> Workloads.parse("consume-assigned,e2e")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Workloads.parse("produce,consume").has("consume")).isTrue();
    }
}
