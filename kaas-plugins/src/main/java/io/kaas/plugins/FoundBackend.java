package io.kaas.plugins;

/**
 * A backend the catalog found, as reported at start-up.
 *
 * @param kind    what it is, e.g. {@code storage engine} or {@code cluster-state store}
 * @param name    the name that selects it in config
 * @param version the backend's own version ({@code unknown} if it does not say)
 * @param origin  where it came from: a module name, or a jar or directory location
 */
public record FoundBackend(String kind, String name, String version, String origin) {
}
