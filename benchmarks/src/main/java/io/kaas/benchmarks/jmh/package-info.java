/**
 * JMH micro-benchmarks of the engine's append and read paths and the request decode / response
 * encode path. Not run in CI; run with {@code ./mvnw -pl benchmarks -am verify -Pjmh -DskipTests}.
 */
package io.kaas.benchmarks.jmh;
