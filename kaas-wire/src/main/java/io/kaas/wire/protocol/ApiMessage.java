package io.kaas.wire.protocol;

/** The body of a request or response of one API. */
public interface ApiMessage extends Message {

    /** The API key, as in {@code io.kaas.wire.message.ApiMessageType#apiKey()}. */
    short apiKey();
}
