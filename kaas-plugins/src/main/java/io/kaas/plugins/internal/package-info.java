/** The backend sources of the plugin host. Not exported. */
package io.kaas.plugins.internal;
