package io.kaas.benchmarks;

/**
 * How much each workload does. {@link #full()} is the committed run (moderate, for a 2-core machine:
 * a few minutes per system); {@link #smoke()} only proves the harness still works end to end.
 */
record Sizes(String name, int rounds, int recordsSmall, int wideRecords, int widePartitions, int largeRecords,
             int e2eMessages, int idleSeconds, int e2eRecordSize) {

    static Sizes full() {
        return new Sizes("full", 3, 200_000, 100_000, 1000, 10_000, 2_000, 10, 1024);
    }

    static Sizes smoke() {
        return new Sizes("smoke", 1, 2_000, 2_000, 50, 200, 50, 1, 1024);
    }
}
