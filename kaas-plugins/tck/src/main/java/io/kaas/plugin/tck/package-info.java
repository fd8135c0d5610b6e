/**
 * Contract tests for kaas backends. A backend proves itself by extending the abstract TCK class for
 * its SPI in its own test sources:
 *
 * <pre>{@code
 * class MyEngineTckTest extends StorageEngineTck {
 *     @Override protected StorageEngineProvider provider() { return new MyEngineProvider(); }
 *     @Override protected boolean supports(EngineCapability c) { return c != EngineCapability.FILE_SLICES; }
 * }
 * }</pre>
 *
 * A capability an engine declares unsupported is still tested: the engine must refuse it with
 * {@link io.kaas.api.storage.UnsupportedFeatureException}, never silently get it wrong.
 */
package io.kaas.plugin.tck;
