package io.kaas.plugins;

/**
 * No usable backend answers to the configured name: none has it, several have it, or the one that has
 * it was built for another SPI version. The message is one line an operator can act on; the broker
 * fails start-up with it.
 */
public class BackendSelectionException extends RuntimeException {
    public BackendSelectionException(String message) {
        super(message);
    }
}
