package io.kaas.broker.fuzz;

import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.ApiSpec;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.LoggerFactory;

/**
 * The fuzz suite: hostile and malformed input against one in-process broker on 127.0.0.1, shared by every property.
 * <ul>
 *   <li>frames: random bytes, negative and over-long size prefixes, truncated frames, random bodies;</li>
 *   <li>every request schema and version the broker advertises (its ApiVersions table, encoded from Kafka's request
 *       schemas with random field values), truncated or byte-mutated;</li>
 *   <li>every served API and version gets well-formed random requests (once each in order, then at random, alone
 *       or pipelined on one connection).</li>
 * </ul>
 * Invariants, checked per exchange or after each property: each request is answered or its connection closed, never
 * left hanging (every read is bounded); a well-formed request is answered, in order, and its connection stays usable;
 * no exception escapes a handler (no "request failed in its handler" or other ERROR line from kaas); the broker keeps
 * serving other connections (a well-behaved one is answered every 20 ms all along, a new one after each property);
 * the records stored before the run read back identical; Netty's leak detector, at PARANOID for the suite, reports
 * no leak ("LEAK:" lines).
 *
 * <p>Bounded for CI: {@code -Dkaas.fuzz.tries=N} sets the tries of every property (default {@value FuzzTries#DEFAULT});
 * run longer on demand, e.g. {@code ./mvnw -B -o -pl kaas-broker -am verify -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=BrokerFuzzIT -Dkaas.fuzz.tries=20000}. A failure prints the
 * seed; {@code -Djqwik.seeds.whenfixed=...} or the property's {@code seed} attribute replays it.
 */
@AddLifecycleHook(FuzzTries.class)
class BrokerFuzzIT {

    private static final String KEPT_TOPIC = "fuzz-keep";
    private static final int KEPT_RECORDS = 60;
    private static final int TIMEOUT_MS = 20_000;
    private static final int MAX_FRAME = 1 << 20;

    /** One API version the broker advertises and Kafka's schemas describe. */
    record ApiVersion(short apiKey, short version) {
        @Override
        public String toString() {
            return org.apache.kafka.common.message.ApiMessageType.fromApiKey(apiKey).name() + " v" + version;
        }
    }

    private static Path dir;
    private static TestBroker broker;
    private static int port;
    private static List<ApiVersion> served;
    private static List<String> kept;
    private static ListAppender<ILoggingEvent> log;
    private static ResourceLeakDetector.Level leakLevel;
    private static int correlation;
    private static Thread watcher;
    private static volatile boolean stopping;
    private static final List<String> watcherFailures = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeContainer
    static void startBroker() throws Exception {
        leakLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        log = new ListAppender<>();
        log.start();
        root().addAppender(log);
        dir = Files.createTempDirectory("kaas-fuzz");
        broker = TestBroker.start(dir, Map.of("socket.request.max.bytes", String.valueOf(MAX_FRAME),
            "group.initial.rebalance.delay.ms", "0", "num.partitions", "2"));
        port = broker.port();
        broker.createTopic(KEPT_TOPIC, 2);
        broker.createTopic(RandomRequests.TARGET_TOPIC, 2);
        try (org.apache.kafka.clients.admin.Admin admin = broker.admin()) {
            org.apache.kafka.common.Uuid id = admin.describeTopics(List.of(RandomRequests.TARGET_TOPIC)).allTopicNames()
                .get(20, TimeUnit.SECONDS).get(RandomRequests.TARGET_TOPIC).topicId();
            RandomRequests.knownTopicIds(List.of(new java.util.UUID(id.getMostSignificantBits(), id.getLeastSignificantBits())));
        }
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = 0; i < KEPT_RECORDS; i++) {
                producer.send(new ProducerRecord<>(KEPT_TOPIC, i % 2, "k" + i, "value-" + i)).get(20, TimeUnit.SECONDS);
            }
        }
        kept = readKept();
        assertThat(kept).hasSize(KEPT_RECORDS);
        served = servedVersions();
        assertThat(served).as("the ApiVersions table").hasSizeGreaterThan(100);
        watcher = new Thread(BrokerFuzzIT::watch, "fuzz-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * While the properties run: one well-behaved connection asks ApiVersions every 20 ms and must be answered within
     * a few seconds each time; what goes wrong is kept for {@link #brokerIsIntact}.
     */
    private static void watch() {
        int id = 0;
        try (RawClient c = new RawClient(port)) {
            while (!Thread.currentThread().isInterrupted()) {
                long began = System.nanoTime();
                if (c.apiVersions((short) 3, ++id).errorCode() != 0) {
                    watcherFailures.add("ApiVersions answered an error");
                }
                long ms = (System.nanoTime() - began) / 1_000_000;
                if (ms > 5000) {
                    watcherFailures.add("ApiVersions took " + ms + " ms");
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            if (!stopping) {
                watcherFailures.add("the watching connection failed: " + e);
            }
        }
    }

    @AfterContainer
    static void stopBroker() throws IOException {
        stopping = true;
        if (watcher != null) {
            watcher.interrupt();
        }
        try {
            if (broker != null) {
                broker.close();
            }
        } finally {
            root().detachAppender(log);
            ResourceLeakDetector.setLevel(leakLevel);
            if (dir != null) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** After every property: the broker serves, the kept records are intact, nothing logged an error or a leak. */
    @AfterProperty
    void brokerIsIntact() throws Exception {
        try (RawClient c = new RawClient(port)) {
            assertThat(c.apiVersions((short) 3, 1).errorCode()).as("a new connection is served").isZero();
        }
        assertThat(watcherFailures).as("the connection served all along").isEmpty();
        assertThat(watcher.isAlive()).as("the watching connection").isTrue();
        assertThat(readKept()).as("the records stored before the run").isEqualTo(kept);
        provokeLeakReports();
        List<String> bad = new ArrayList<>();
        for (ILoggingEvent e : List.copyOf(log.list)) {
            boolean kaasError = e.getLevel().isGreaterOrEqual(Level.ERROR) && e.getLoggerName().startsWith("io.kaas");
            boolean leak = e.getFormattedMessage() != null && e.getFormattedMessage().contains("LEAK:");
            if (kaasError || leak) {
                bad.add(e.getLoggerName() + " " + e.getFormattedMessage() + (e.getThrowableProxy() == null ? ""
                    : " " + e.getThrowableProxy().getClassName() + ": " + e.getThrowableProxy().getMessage())
                    + " " + e.getKeyValuePairs());
            }
        }
        log.list.clear();
        assertThat(bad).as("errors and leaks logged").isEmpty();
    }

    // ---- (a) the frame decoder ----

    @Property
    void framesOfAnyShapeAreAnsweredOrClosedNeverLeftHanging(@ForAll Random random, @ForAll @IntRange(min = 0, max = 5) int shape)
            throws IOException {
        switch (shape) {
            case 0 -> { // any bytes at all, then EOF
                byte[] bytes = new byte[random.nextInt(3000)];
                random.nextBytes(bytes);
                assertThat(Exchange.halfClosed(port, bytes, TIMEOUT_MS).closed()).isTrue();
            }
            case 1 -> { // a negative size
                int size = random.nextBoolean() ? -1 : Integer.MIN_VALUE + random.nextInt(1 << 30);
                assertThat(Exchange.withPing(port, frameWithSize(size, random, 16), TIMEOUT_MS).closed()).isTrue();
            }
            case 2 -> { // a size over socket.request.max.bytes
                int size = MAX_FRAME + 1 + random.nextInt(Integer.MAX_VALUE - MAX_FRAME - 1);
                assertThat(Exchange.withPing(port, frameWithSize(size, random, 64), TIMEOUT_MS).closed()).isTrue();
            }
            case 3 -> { // a frame cut short, then EOF
                int size = 8 + random.nextInt(MAX_FRAME - 8);
                byte[] bytes = frameWithSize(size, random, Math.min(size - 1, 2000));
                assertThat(Exchange.halfClosed(port, bytes, TIMEOUT_MS).closed()).isTrue();
            }
            case 4 -> { // a whole frame of random bytes: its connection is closed, or it happened to be a request
                byte[] body = new byte[random.nextInt(300)];
                random.nextBytes(body);
                Exchange.Outcome o = Exchange.withPing(port, ByteBuffer.allocate(4 + body.length).putInt(body.length)
                    .put(body).array(), TIMEOUT_MS);
                assertThat(o.pinged() || o.closed()).isTrue();
                if (body.length < 8) {
                    assertThat(o.closed()).as("a frame too short for a request header").isTrue();
                }
            }
            default -> { // a valid request header of a served API over a random body
                ApiVersion av = served.get(random.nextInt(served.size()));
                byte[] body = new byte[8 + random.nextInt(200)];
                random.nextBytes(body);
                ByteBuffer.wrap(body).putShort(av.apiKey()).putShort(av.version()).putInt(42);
                Exchange.Outcome o = Exchange.withPing(port, ByteBuffer.allocate(4 + body.length).putInt(body.length)
                    .put(body).array(), TIMEOUT_MS);
                assertThat(o.pinged() || o.closed()).as(av.toString()).isTrue();
            }
        }
    }

    private static byte[] frameWithSize(int size, Random random, int bodyBytes) {
        byte[] body = new byte[Math.max(0, bodyBytes)];
        random.nextBytes(body);
        return ByteBuffer.allocate(4 + body.length).putInt(size).put(body).array();
    }

    // ---- (b) every schema and version, truncated or mutated ----

    @Property
    void truncatedOrMutatedRequestsOfEveryVersionAreAnsweredOrClosed(@ForAll("served") ApiVersion av, @ForAll Random random,
                                                                    @ForAll @IntRange(min = 0, max = 2) int how) throws IOException {
        int id = nextCorrelationId();
        byte[] frame = new RandomRequests(random).frame(av.apiKey(), av.version(), id);
        int bodyLength = frame.length - 4;
        switch (how) {
            case 0 -> { // the body cut short, the size prefix telling the truth
                int keep = 8 + random.nextInt(Math.max(1, bodyLength - 8));
                byte[] cut = new byte[4 + keep];
                System.arraycopy(frame, 0, cut, 0, cut.length);
                ByteBuffer.wrap(cut).putInt(keep);
                assertAnsweredOrClosed(av, Exchange.withPing(port, cut, TIMEOUT_MS), id);
            }
            case 1 -> { // a few bytes after the request header's fixed part changed
                int flips = 1 + random.nextInt(4);
                for (int i = 0; i < flips && bodyLength > 8; i++) {
                    int at = 4 + 8 + random.nextInt(bodyLength - 8);
                    frame[at] = random.nextInt(3) == 0 ? (byte) 0xff : (byte) random.nextInt(256);
                }
                assertAnsweredOrClosed(av, Exchange.withPing(port, frame, TIMEOUT_MS), id);
            }
            default -> { // the frame cut short, then EOF
                byte[] cut = new byte[4 + random.nextInt(Math.max(1, bodyLength))];
                System.arraycopy(frame, 0, cut, 0, cut.length);
                assertThat(Exchange.halfClosed(port, cut, TIMEOUT_MS).closed()).as(av.toString()).isTrue();
            }
        }
    }

    // ---- (c) every handler, well-formed random requests ----

    @Example
    void everyServedVersionAnswersAWellFormedRandomRequest() throws IOException {
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        for (ApiVersion av : served) {
            wellFormed(av, random, "seed " + seed);
        }
    }

    @Property
    void wellFormedRandomRequestsAreAnsweredAndLeaveTheConnectionUsable(@ForAll("served") ApiVersion av, @ForAll Random random)
            throws IOException {
        wellFormed(av, random, "");
    }

    @Property
    void pipelinedWellFormedRequestsAreAnsweredInOrder(@ForAll("pipelines") List<ApiVersion> pipeline, @ForAll Random random)
            throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        List<Integer> ids = new ArrayList<>();
        for (ApiVersion av : pipeline) {
            int id = nextCorrelationId();
            ids.add(id);
            bytes.writeBytes(new RandomRequests(random).frame(av.apiKey(), av.version(), id));
        }
        Exchange.Outcome o = Exchange.withPing(port, bytes.toByteArray(), TIMEOUT_MS);
        // Answered in request order; only a Produce may go unanswered (acks=0), and close the connection if it failed.
        List<Integer> expected = new ArrayList<>();
        int answeredIndex = 0;
        for (int i = 0; i < pipeline.size(); i++) {
            boolean answered = answeredIndex < o.answered().size() && o.answered().get(answeredIndex).equals(ids.get(i));
            if (answered) {
                answeredIndex++;
                continue;
            }
            assertThat(pipeline.get(i).apiKey()).as("%s unanswered in %s (answers %s to %s)", pipeline.get(i), pipeline,
                o.answered(), ids).isZero();
            if (o.closed() && answeredIndex == o.answered().size()) {
                return; // a failed acks=0 Produce closed the connection: nothing after it is answered
            }
        }
        assertThat(answeredIndex).as("every answer matched a request, in order").isEqualTo(o.answered().size());
        assertThat(o.pinged() || o.closed()).isTrue();
    }

    @Provide
    Arbitrary<List<ApiVersion>> pipelines() {
        return Arbitraries.of(served).list().ofMinSize(2).ofMaxSize(6);
    }

    private void wellFormed(ApiVersion av, Random random, String note) throws IOException {
        int id = nextCorrelationId();
        Exchange.Outcome o = Exchange.withPing(port, new RandomRequests(random).frame(av.apiKey(), av.version(), id), TIMEOUT_MS);
        if (av.apiKey() == 0 && o.answered().isEmpty()) {
            // Produce with acks=0 has no response; when it fails, Kafka closes the connection instead.
            assertThat(o.pinged() || o.closed()).as("%s %s", av, note).isTrue();
            return;
        }
        assertThat(o.pinged()).as("%s %s: answered and the connection still usable", av, note).isTrue();
        assertThat(o.answered()).as("%s %s", av, note).containsExactly(id);
    }

    private static void assertAnsweredOrClosed(ApiVersion av, Exchange.Outcome o, int id) {
        assertThat(o.pinged() || o.closed()).as(av.toString()).isTrue();
        assertThat(o.answered()).as("%s: nothing but the request's own answer", av).isSubsetOf(id);
    }

    @Provide
    Arbitrary<ApiVersion> served() {
        return Arbitraries.of(served);
    }

    // ---- helpers ----

    private static synchronized int nextCorrelationId() {
        return ++correlation;
    }

    /**
     * The versions the broker advertises and serves: a version advertised only for a client's feature detection
     * (SaslHandshake v0 for librdkafka, below its contract's served minimum) closes the connection by design.
     */
    private static List<ApiVersion> servedVersions() throws IOException {
        Map<Short, Short> servedFrom = new HashMap<>();
        for (java.lang.reflect.Field f : ApiContracts.class.getFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == ApiSpec.class) {
                try {
                    ApiSpec<?, ?> spec = (ApiSpec<?, ?>) f.get(null);
                    servedFrom.put(spec.api().apiKey(), spec.minVersion());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        List<ApiVersion> out = new ArrayList<>();
        try (RawClient c = new RawClient(port)) {
            c.apiVersions((short) 3, 1).apiKeys().forEach(k -> {
                for (short v = (short) Math.max(k.minVersion(), servedFrom.getOrDefault(k.apiKey(), k.minVersion()));
                     v <= k.maxVersion(); v++) {
                    if (RandomRequests.hasSchema(k.apiKey(), v)) {
                        out.add(new ApiVersion(k.apiKey(), v));
                    }
                }
            });
        }
        return List.copyOf(out);
    }

    private static List<String> readKept() {
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = broker.consumer()) {
            for (int p = 0; p < 2; p++) {
                for (ConsumerRecord<String, String> r : KafkaClients.readAll(consumer, new TopicPartition(KEPT_TOPIC, p),
                        Duration.ofSeconds(20))) {
                    out.add(p + "/" + r.offset() + "/" + r.key() + "=" + r.value());
                }
            }
        }
        return out;
    }

    /** Collects garbage, then allocates so the detector (PARANOID: at every allocation) reports what leaked. */
    private static void provokeLeakReports() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
            for (int j = 0; j < 50; j++) {
                PooledByteBufAllocator.DEFAULT.buffer(64).release();
                UnpooledByteBufAllocator.DEFAULT.buffer(64).release();
            }
        }
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }
}
