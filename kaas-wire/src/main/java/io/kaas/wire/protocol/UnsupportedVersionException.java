package io.kaas.wire.protocol;

/** A version or API key that this codec cannot handle, or a value that cannot be expressed in a version. */
public class UnsupportedVersionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnsupportedVersionException(String message) {
        super(message);
    }
}
