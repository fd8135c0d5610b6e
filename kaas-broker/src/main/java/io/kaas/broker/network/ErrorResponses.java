package io.kaas.broker.network;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.protocol.ApiMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Optional;

/**
 * The generic error answer for a handler that failed: the API's response with only its top-level
 * {@code errorCode} set, for APIs whose response has that field in the request's version. Others
 * (Produce, Fetch, Metadata before v13…) have no honest generic answer; the caller closes the
 * connection instead.
 */
final class ErrorResponses {

    static final short UNKNOWN_SERVER_ERROR = -1;

    private ErrorResponses() {
    }

    /** A response to {@code api} carrying {@code errorCode} at top level in {@code version}, if it can. */
    static Optional<ApiMessage> topLevel(ApiMessageType api, short version, short errorCode) {
        try {
            ApiMessage response = api.newResponse();
            response.getClass().getMethod("setErrorCode", short.class).invoke(response, errorCode);
            return survivesEncoding(api, response, version, errorCode) ? Optional.of(response) : Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The field may be absent (and ignorable) in this version: encode, decode, and compare. */
    private static boolean survivesEncoding(ApiMessageType api, ApiMessage response, short version, short errorCode)
            throws ReflectiveOperationException {
        ByteBuf buf = Unpooled.buffer(response.size(version));
        try {
            response.write(buf, version);
            ApiMessage decoded = api.newResponse();
            decoded.read(buf, version);
            Object code = decoded.getClass().getMethod("errorCode").invoke(decoded);
            return code instanceof Short s && s == errorCode;
        } finally {
            buf.release();
        }
    }
}
