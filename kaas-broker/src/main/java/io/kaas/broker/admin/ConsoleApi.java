package io.kaas.broker.admin;

/** The console's JSON API, served under {@code /api/v1/} of the admin endpoint. Called off the event loop. */
public interface ConsoleApi {

    /** The answer to {@code request}, whose path starts with {@code /api/v1}. Never null. */
    Answer handle(AdminRequest request);
}
