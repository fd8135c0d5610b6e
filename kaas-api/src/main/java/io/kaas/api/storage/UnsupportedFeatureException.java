package io.kaas.api.storage;

/** The engine does not implement a capability it was asked for: UNSUPPORTED_VERSION (35) on the wire, a clear error in the TCK. */
public class UnsupportedFeatureException extends StorageException {
    public UnsupportedFeatureException(String message) {
        super(message);
    }

    public UnsupportedFeatureException(String message, Throwable cause) {
        super(message, cause);
    }
}
