package io.kaas.wire.protocol;

/** Bytes that do not form a valid message: a bad length, an unexpected null, an overlong varint. */
public class MalformedMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message);
    }
}
