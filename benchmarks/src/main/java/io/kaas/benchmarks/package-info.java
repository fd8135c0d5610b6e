/**
 * The side-by-side benchmark of kaas against Apache Kafka ({@link io.kaas.benchmarks.Harness}): both
 * brokers as separate JVMs on loopback, Kafka's own load generators as separate JVMs, several rounds,
 * medians and kaas/Kafka ratios written as Markdown and JSON.
 */
package io.kaas.benchmarks;
