/**
 * The plugin host's API for the broker: {@link io.kaas.plugins.BackendCatalog} discovers every backend
 * once at start-up and selects one per kind by the name given in config.
 */
package io.kaas.plugins;
