package io.kaas.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.config.ConnectionLimitsConfig;
import io.kaas.broker.config.SecurityProtocol;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.HeartbeatResponseData;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** max.connections, max.connections.per.ip (with overrides) and queued.max.requests against a real server on 127.0.0.1. */
@Timeout(60)
class ConnectionLimitsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private KafkaServer server;
    private int port;
    private final List<RawClient> clients = new ArrayList<>();

    private void start(ConnectionLimitsConfig limits, int ioThreads) throws Exception {
        NetworkSettings settings = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, 1 << 20, 2,
            ioThreads, 100, -1, -1, Duration.ofSeconds(2), Duration.ZERO);
        server = new KafkaServer(settings, limits);
        port = server.start(HandlerRegistry.of(List.of(NetworkBadInputTest.FakeHeartbeat.served()))).getPort();
    }

    private static ConnectionLimitsConfig limits(int max, int perIp, Map<String, Integer> overrides, int queued) {
        return new ConnectionLimitsConfig(max, Map.of(), perIp, overrides, queued);
    }

    private RawClient connect(String from) throws Exception {
        RawClient c = new RawClient(port, from);
        clients.add(c);
        return c;
    }

    private boolean served(RawClient c, int correlationId) throws Exception {
        return c.apiVersions((short) 3, correlationId).errorCode() == 0;
    }

    @AfterEach
    void stop() throws Exception {
        for (RawClient c : clients) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aConnectionOverThePerIpLimitIsClosedAtOnceWithOneLogLineNamingTheAddressAndTheLimit() throws Exception {
        start(limits(Integer.MAX_VALUE, 2, Map.of(), 500), 2);
        ListAppender<ILoggingEvent> log = capture(ConnectionLimitHandler.class);
        try {
            RawClient a = connect(null);
            RawClient b = connect(null);
            assertThat(served(a, 1) && served(b, 2)).isTrue();
            RawClient extra = connect(null);
            assertThat(extra.closedByServer()).as("the third connection from 127.0.0.1").isTrue();
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "Rejected connection from /127.0.0.1, address already has the configured maximum of 2 connections.");
            assertThat(server.connectionLimits().connections(InetAddress.getByName("127.0.0.1"))).isEqualTo(2);

            a.close();
            await().atMost(WAIT).until(() -> server.connectionLimits().connections() == 1);
            assertThat(served(connect(null), 3)).as("a slot of 127.0.0.1 freed").isTrue();
        } finally {
            release(ConnectionLimitHandler.class, log);
        }
    }

    @Test
    void anOverrideRaisesTheLimitOfItsAddressAndZeroRefusesEveryOtherAddress() throws Exception {
        start(limits(Integer.MAX_VALUE, 0, Map.of("127.0.0.1", 3), 500), 2);
        for (int i = 0; i < 3; i++) {
            assertThat(served(connect("127.0.0.1"), i)).as("connection %d of 127.0.0.1", i).isTrue();
        }
        assertThat(connect("127.0.0.1").closedByServer()).as("the fourth of 127.0.0.1").isTrue();
        assertThat(connect("127.0.0.2").closedByServer()).as("127.0.0.2 has the default limit, 0").isTrue();
        assertThat(server.connectionLimits().connections()).isEqualTo(3);
    }

    @Test
    void aLoweredMaxConnectionsClosesTheLeastRecentlyUsedConnectionsAndALoweredPerIpLimitClosesNone() throws Exception {
        start(limits(Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of(), 500), 2);
        List<RawClient> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RawClient c = connect(null);
            assertThat(served(c, i)).isTrue();
            four.add(c);
        }
        // the second and the fourth are used again: the first and the third are the least recently used
        assertThat(served(four.get(1), 10) && served(four.get(3), 11)).isTrue();

        // a lower per-address limit applies to new connections only, as Kafka's
        server.reconfigureConnections(limits(Integer.MAX_VALUE, 1, Map.of(), 500));
        assertThat(server.connectionLimits().connections()).isEqualTo(4);
        assertThat(served(four.get(0), 12)).as("still open").isTrue();
        assertThat(served(four.get(2), 13)).as("still open").isTrue();
        assertThat(served(four.get(1), 14) && served(four.get(3), 15)).isTrue();

        ListAppender<ILoggingEvent> log = capture(KafkaServer.class);
        try {
            server.reconfigureConnections(limits(2, Integer.MAX_VALUE, Map.of(), 500));
            assertThat(four.get(0).closedByServer()).as("least recently used").isTrue();
            assertThat(four.get(2).closedByServer()).as("second least recently used").isTrue();
            await().atMost(WAIT).until(() -> server.connectionLimits().connections() == 2);
            assertThat(served(four.get(1), 16) && served(four.get(3), 17)).as("the two most recent stay").isTrue();
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                .startsWith("max.connections 2 is below the 4 connections held: closing the 2 least recently used [");
        } finally {
            release(KafkaServer.class, log);
        }
        RawClient again = connect(null);
        again.send(ApiMessageType.API_VERSIONS, (short) 3, 40, new io.kaas.wire.message.ApiVersionsRequestData()
            .setClientSoftwareName("raw-client").setClientSoftwareVersion("1.0"));
        assertThat(again.silentFor(300)).as("a reconnect waits for a slot").isTrue();
    }

    @Test
    void aLoweredMaxConnectionsKeepsTheInterBrokerListenersConnections() throws Exception {
        NetworkSettings client = new NetworkSettings("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, 1 << 20, 2,
            2, 100, -1, -1, Duration.ofSeconds(2), Duration.ZERO);
        NetworkSettings internal = new NetworkSettings("INTERNAL", SecurityProtocol.PLAINTEXT, "127.0.0.1", 0, 1 << 20, 2,
            2, 100, -1, -1, Duration.ofSeconds(2), Duration.ZERO);
        server = new KafkaServer(List.of(new ServedListener(client, null), new ServedListener(internal, null)),
            limits(Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of(), 500));
        server.protectListener("INTERNAL");
        server.start(HandlerRegistry.of(List.of(NetworkBadInputTest.FakeHeartbeat.served())));
        RawClient broker = new RawClient(server.port("INTERNAL"), null);
        clients.add(broker);
        assertThat(served(broker, 1)).isTrue(); // the least recently used, but on the inter-broker listener
        port = server.port("PLAINTEXT");
        RawClient a = connect(null);
        RawClient b = connect(null);
        assertThat(served(a, 2) && served(b, 3)).isTrue();

        server.reconfigureConnections(limits(1, Integer.MAX_VALUE, Map.of(), 500));
        assertThat(a.closedByServer()).isTrue();
        assertThat(b.closedByServer()).isTrue();
        assertThat(served(broker, 4)).as("the inter-broker listener's connection stays").isTrue();
        await().atMost(WAIT).until(() -> server.connectionLimits().connections() == 1);
    }

    @Test
    void atMaxConnectionsANewConnectionWaitsUnreadAndIsServedInTurnOnceAnotherCloses() throws Exception {
        start(limits(2, Integer.MAX_VALUE, Map.of(), 500), 2);
        RawClient a = connect(null);
        RawClient b = connect(null);
        assertThat(served(a, 1) && served(b, 2)).isTrue();

        RawClient third = connect(null);
        third.send(ApiMessageType.API_VERSIONS, (short) 3, 30, new io.kaas.wire.message.ApiVersionsRequestData()
            .setClientSoftwareName("raw-client").setClientSoftwareVersion("1.0"));
        assertThat(third.silentFor(500)).as("the third connection waits for a slot").isTrue();
        await().atMost(WAIT).until(() -> server.connectionLimits().waiting() == 1);
        RawClient fourth = connect(null);
        fourth.send(ApiMessageType.API_VERSIONS, (short) 3, 40, new io.kaas.wire.message.ApiVersionsRequestData()
            .setClientSoftwareName("raw-client").setClientSoftwareVersion("1.0"));

        a.close();
        assertThat(third.readApiVersions((short) 3).correlationId()).as("served once a slot freed").isEqualTo(30);
        assertThat(fourth.silentFor(300)).as("the fourth still waits: it came later").isTrue();
        assertThat(server.connectionLimits().connections()).isEqualTo(2);

        b.close();
        assertThat(fourth.readApiVersions((short) 3).correlationId()).isEqualTo(40);
        assertThat(served(third, 31) && served(fourth, 41)).isTrue();
    }

    @Test
    void queuedMaxRequestsBoundsTheRequestsReadAndNotYetHandedToAHandler() throws Exception {
        start(limits(Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of(), 4), 1);
        AtomicInteger most = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                most.accumulateAndGet(server.queuedRequests(), Math::max);
                Thread.onSpinWait();
            }
        });
        sampler.start();
        try {
            RawClient a = connect(null);
            RawClient b = connect(null);
            int n = 30;
            java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < n; i++) {
                batch.write(RawClient.frame(ApiMessageType.HEARTBEAT, (short) 4, 100 + i,
                    new HeartbeatRequestData().setGroupId("g").setMemberId("m").setGenerationId(20)));
            }
            a.sendBytes(batch.toByteArray());
            b.sendBytes(batch.toByteArray());
            for (RawClient c : List.of(a, b)) {
                for (int i = 0; i < n; i++) {
                    RawClient.Response<HeartbeatResponseData> r = c.read(ApiMessageType.HEARTBEAT, (short) 4);
                    assertThat(r.correlationId()).as("in order").isEqualTo(100 + i);
                }
            }
        } finally {
            sampling.set(false);
            sampler.join(5000);
        }
        assertThat(most.get()).as("queued requests: the bound was reached, never passed").isEqualTo(4);
        // the last response is read by the client before its write completes on the broker's side
        await().atMost(WAIT).until(() -> server.queuedRequests() == 0 && server.inFlightRequests() == 0);
    }

    static ListAppender<ILoggingEvent> capture(Class<?> type) {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        ((Logger) LoggerFactory.getLogger(type)).addAppender(log);
        return log;
    }

    static void release(Class<?> type, ListAppender<ILoggingEvent> log) {
        ((Logger) LoggerFactory.getLogger(type)).detachAppender(log);
    }
}
