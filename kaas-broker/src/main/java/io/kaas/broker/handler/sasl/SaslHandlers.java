package io.kaas.broker.handler.sasl;

import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.ServedApi;
import java.util.List;

/** Registers SaslHandshake and SaslAuthenticate with their contracts. */
public final class SaslHandlers {
    private SaslHandlers() {
    }

    public static List<ServedApi<?, ?>> create(SaslMechanisms mechanisms, FailedAuthentications failures) {
        return List.of(
                ServedApi.of(ApiContracts.SASL_HANDSHAKE, new SaslHandshakeHandler(mechanisms, failures)),
                ServedApi.of(ApiContracts.SASL_AUTHENTICATE, new SaslAuthenticateHandler(mechanisms, failures)));
    }
}
