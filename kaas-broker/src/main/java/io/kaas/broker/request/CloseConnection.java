package io.kaas.broker.request;

/**
 * A handler's answer that is no response but the close of the client's connection, where Kafka's protocol says so
 * (e.g. a failed Produce with {@code acks=0}, which has no response to carry the error). A handler's future fails
 * with it; the network layer closes the connection once every earlier response is written and logs one INFO line
 * with the reason. Not an error of the handler.
 */
public final class CloseConnection extends RuntimeException {

    public CloseConnection(String reason) {
        super(reason, null, false, false);
    }
}
