/** Configuration and versioning shared by every kind of kaas backend. */
package io.kaas.api.plugin;
