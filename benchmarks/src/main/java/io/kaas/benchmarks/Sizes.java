package io.kaas.benchmarks;

/**
 * How much each workload does. {@link #full()} is the committed run (moderate, for a 2-core machine:
 * a few minutes per system); {@link #smoke()} only proves the harness still works end to end.
 */
record Sizes(String name, int rounds, int recordsSmall, int wideRecords, int widePartitions, int largeRecords,
             int e2eMessages, int idleSeconds, int e2eRecordSize, int consumePasses, int recordsSettings) {

    /** ProducerPerformance's {@code --transaction-duration-ms} in the transactional produce workload. */
    static final int TRANSACTION_MILLIS = 100;

    /**
     * 500,000 records per produce run (several seconds even for kaas, so JIT warm-up of the broker and
     * the load generator is not most of it), and each consume workload read three times per round,
     * its median pass reported: a 1 GB read takes two seconds, and one pass per round was a cold read
     * rounded to ConsumerPerformance's milliseconds. The transactional end-to-end run commits one
     * transaction per record, as many as the plain end-to-end run sends (about 10 s on Kafka). The
     * producer-settings workload writes 1,000,000 records per setting and acks, as a user's plain
     * ProducerPerformance run does.
     */
    static Sizes full() {
        return new Sizes("full", 3, 500_000, 100_000, 1000, 10_000, 2_000, 10, 1024, 3, 1_000_000);
    }

    static Sizes smoke() {
        return new Sizes("smoke", 1, 2_000, 2_000, 50, 200, 50, 1, 1024, 1, 2_000);
    }

    Sizes withRounds(int n) {
        return new Sizes(name, n, recordsSmall, wideRecords, widePartitions, largeRecords, e2eMessages, idleSeconds,
                e2eRecordSize, consumePasses, recordsSettings);
    }
}
