package io.kaas.broker.handler.sasl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** KIP-368's session lifetime, as Kafka's SaslServerAuthenticator computes it. */
class SessionLifetimeTest {

    private static final long NOW = 1_000_000L;

    @Test
    void unboundedWithoutMaxReauthOrCredentialExpiry() {
        assertThat(SaslAuthenticateHandler.sessionLifetimeMs(0, null, NOW)).isEqualTo(-1);
    }

    @Test
    void theLeastOfMaxReauthAndTheCredentialsRemainingLife() {
        assertThat(SaslAuthenticateHandler.sessionLifetimeMs(5000, null, NOW)).isEqualTo(5000);
        assertThat(SaslAuthenticateHandler.sessionLifetimeMs(0, NOW + 9000, NOW)).isEqualTo(9000);
        assertThat(SaslAuthenticateHandler.sessionLifetimeMs(5000, NOW + 9000, NOW)).isEqualTo(5000);
        assertThat(SaslAuthenticateHandler.sessionLifetimeMs(5000, NOW + 2000, NOW)).isEqualTo(2000);
        assertThat(SaslAuthenticateHandler.sessionLifetimeMs(5000, NOW - 2000, NOW)).isZero();
        assertThat(SaslAuthenticateHandler.sessionLifetimeMs(5000, "not a long", NOW)).isEqualTo(5000);
    }
}
