package io.kaas.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.config.ConnectionLimitsConfig;
import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The slot accounting of {@link ConnectionLimits}: broker-wide and per-listener limits, waiting in arrival order. */
class ConnectionLimitsUnitTest {

    private static final class FakeWaiter implements ConnectionLimits.Waiter {
        final String listener;
        final InetAddress address;
        final Channel channel = new EmbeddedChannel();
        final List<ConnectionLimits.Verdict> verdicts = new ArrayList<>();

        FakeWaiter(String listener, String address) throws Exception {
            this.listener = listener;
            this.address = InetAddress.getByName(address);
        }

        @Override
        public String listenerName() {
            return listener;
        }

        @Override
        public InetAddress address() {
            return address;
        }

        @Override
        public Channel channel() {
            return channel;
        }

        @Override
        public void decided(ConnectionLimits.Verdict verdict) {
            verdicts.add(verdict);
        }
    }

    @Test
    void aListenerAtItsOwnLimitWaitsWhileAnotherListenerIsStillServedUpToTheBrokerWideLimit() throws Exception {
        ConnectionLimits limits = new ConnectionLimits(new ConnectionLimitsConfig(3, Map.of("INTERNAL", 1),
            Integer.MAX_VALUE, Map.of(), 500));
        FakeWaiter i1 = new FakeWaiter("INTERNAL", "127.0.0.1");
        FakeWaiter i2 = new FakeWaiter("INTERNAL", "127.0.0.1");
        FakeWaiter p1 = new FakeWaiter("PLAINTEXT", "127.0.0.1");
        FakeWaiter p2 = new FakeWaiter("PLAINTEXT", "127.0.0.1");
        FakeWaiter p3 = new FakeWaiter("PLAINTEXT", "127.0.0.1");
        assertThat(limits.arrive(i1)).isEqualTo(ConnectionLimits.Verdict.ADMIT);
        assertThat(limits.arrive(i2)).as("INTERNAL holds its 1").isEqualTo(ConnectionLimits.Verdict.WAIT);
        assertThat(limits.arrive(p1)).isEqualTo(ConnectionLimits.Verdict.ADMIT);
        assertThat(limits.arrive(p2)).isEqualTo(ConnectionLimits.Verdict.ADMIT);
        assertThat(limits.arrive(p3)).as("the broker holds its 3").isEqualTo(ConnectionLimits.Verdict.WAIT);
        assertThat(limits.waiting()).isEqualTo(2);

        limits.release("PLAINTEXT", p1.address);
        assertThat(i2.verdicts).as("INTERNAL is still at its limit").isEmpty();
        assertThat(p3.verdicts).containsExactly(ConnectionLimits.Verdict.ADMIT);

        limits.release("INTERNAL", i1.address);
        assertThat(i2.verdicts).containsExactly(ConnectionLimits.Verdict.ADMIT);
        assertThat(limits.connections()).isEqualTo(3);
        assertThat(limits.waiting()).isZero();
    }

    @Test
    void aWaitingConnectionOverItsAddressLimitIsRefusedWhenItsTurnComesAndAnAbandonedOneNeverServed() throws Exception {
        ConnectionLimits limits = new ConnectionLimits(new ConnectionLimitsConfig(1, Map.of(), 1,
            Map.of("127.0.0.2", 5), 500));
        FakeWaiter a = new FakeWaiter("PLAINTEXT", "127.0.0.1");
        FakeWaiter gone = new FakeWaiter("PLAINTEXT", "127.0.0.2");
        FakeWaiter b = new FakeWaiter("PLAINTEXT", "127.0.0.2");
        assertThat(limits.arrive(a)).isEqualTo(ConnectionLimits.Verdict.ADMIT);
        assertThat(limits.arrive(gone)).isEqualTo(ConnectionLimits.Verdict.WAIT);
        assertThat(limits.arrive(b)).isEqualTo(ConnectionLimits.Verdict.WAIT);
        limits.abandon(gone);
        limits.release("PLAINTEXT", a.address);
        assertThat(gone.verdicts).isEmpty();
        assertThat(b.verdicts).containsExactly(ConnectionLimits.Verdict.ADMIT);
        assertThat(limits.maxConnections(b.address)).as("its override").isEqualTo(5);
        assertThat(limits.maxConnections(a.address)).isEqualTo(1);
        assertThat(limits.connections(b.address)).isEqualTo(1);
        assertThat(limits.connections(a.address)).isZero();
    }

    @Test
    void anUnknownOverrideHostRefusesToStartNamingTheKey() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ConnectionLimits(new ConnectionLimitsConfig(1,
                Map.of(), 1, Map.of("no-such-host.invalid", 5), 500)))
            .isInstanceOf(io.kaas.broker.config.ConfigException.class)
            .hasMessageContaining("max.connections.per.ip.overrides");
    }
}
