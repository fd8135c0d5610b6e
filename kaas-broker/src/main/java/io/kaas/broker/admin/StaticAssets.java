package io.kaas.broker.admin;

import java.util.Optional;

/** The console's pages and assets, served under {@code /console/} of the admin endpoint. */
public interface StaticAssets {

    /**
     * The asset at {@code path} (the request path, starting with {@code /console}), or empty when there is none
     * (answered 404).
     */
    Optional<Answer> get(String path);
}
