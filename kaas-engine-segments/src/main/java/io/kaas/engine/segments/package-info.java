/**
 * The segment engine's provider, discovered by {@link java.util.ServiceLoader} under the name
 * {@code segments}. The engine itself lives in {@code io.kaas.engine.segments.internal}.
 */
package io.kaas.engine.segments;
