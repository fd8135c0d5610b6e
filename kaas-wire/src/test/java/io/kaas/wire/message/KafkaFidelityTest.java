package io.kaas.wire.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.kaas.wire.codegen.CodeGenerator;
import io.kaas.wire.codegen.MessageSpec;
import io.kaas.wire.protocol.Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.Readable;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The generated codec against Kafka's own, byte for byte, for every request, response and header schema in the
 * kafka-clients jar and every valid version: random instances encoded by one side are decoded and re-encoded by
 * the other and must come out identical.
 */
class KafkaFidelityTest {

    static final Path SCHEMAS = Path.of("target/schemas/common/message");
    static final int SEEDS = 20;

    record Case(MessageSpec spec, short version) {
        String name() {
            return spec.className() + " v" + version;
        }
    }

    static List<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        for (MessageSpec spec : CodeGenerator.load(SCHEMAS)) {
            for (int v = spec.validVersions().lowest(); v <= spec.validVersions().highest(); v++) {
                cases.add(new Case(spec, (short) v));
            }
        }
        return cases;
    }

    /**
     * Every request, response and header schema of the jar is generated and checked, none skipped: the count of
     * such files (read as text, not through the generator's parser) is the count of specs the cases come from, and
     * each API's highest version is that of Kafka's own registry (its unstable latest version included).
     */
    @Test
    void everyApiSchemaOfTheKafkaClientsJarIsCovered() throws IOException {
        Pattern apiOrHeader = Pattern.compile("\"type\"\\s*:\\s*\"(request|response|header)\"");
        long files;
        try (Stream<Path> all = Files.list(SCHEMAS)) {
            files = all.filter(p -> p.toString().endsWith(".json")).filter(p -> {
                try {
                    return apiOrHeader.matcher(Files.readString(p)).find();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).count();
        }
        List<MessageSpec> specs = CodeGenerator.load(SCHEMAS);
        assertThat(specs).hasSize((int) files);
        List<Case> cases = cases();
        for (org.apache.kafka.common.message.ApiMessageType k : org.apache.kafka.common.message.ApiMessageType.values()) {
            if (k.highestSupportedVersion(true) < k.lowestSupportedVersion()) {
                continue; // removed APIs (validVersions "none")
            }
            assertThat(cases.stream().filter(c -> c.spec().isApi() && c.spec().apiKey() == k.apiKey()
                    && c.spec().type().equals("request")).mapToInt(Case::version).max().orElse(-1))
                .as("%s: the highest version checked", k.name).isEqualTo(k.highestSupportedVersion(true));
        }
    }

    @TestFactory
    Stream<DynamicTest> everySchemaAndVersionRoundTripsByteForByteWithKafka() throws IOException {
        List<Case> cases = cases();
        System.out.printf("KafkaFidelityTest: %d schema x version cases, %d seeds each, both directions%n",
            cases.size(), SEEDS);
        assertThat(cases).hasSizeGreaterThan(500);
        return cases.stream().map(c -> dynamicTest(c.name(), () -> check(c)));
    }

    private static void check(Case c) throws Exception {
        Class<?> ours = Class.forName("io.kaas.wire.message." + c.spec().className());
        Class<?> theirs = Class.forName("org.apache.kafka.common.message." + c.spec().className());
        for (int i = 0; i < SEEDS; i++) {
            long seed = c.spec().name().hashCode() * 31L + c.version() * 1009L + i;
            oursThenKafka(c, ours, theirs, seed);
            kafkaThenOurs(c, ours, theirs, seed);
        }
    }

    private static void oursThenKafka(Case c, Class<?> ours, Class<?> theirs, long seed) throws Exception {
        Message original = (Message) new RandomFiller(c.spec(), ours, false, seed).newMessage(c.version());
        byte[] a = oursWrite(original, c.version());
        Object decoded = kafkaRead(theirs, a, c.version());
        byte[] b = kafkaWrite((org.apache.kafka.common.protocol.Message) decoded, c.version());
        assertThat(hex(b)).as("%s seed %d: Kafka's re-encoding of our bytes of %s", c.name(), seed, original)
            .isEqualTo(hex(a));
        assertThat(oursRead(ours, a, c.version())).as("%s seed %d: our decoding of our bytes", c.name(), seed)
            .isEqualTo(original);
    }

    private static void kafkaThenOurs(Case c, Class<?> ours, Class<?> theirs, long seed) throws Exception {
        Object original = new RandomFiller(c.spec(), theirs, true, seed).newMessage(c.version());
        byte[] a = kafkaWrite((org.apache.kafka.common.protocol.Message) original, c.version());
        Message decoded = oursRead(ours, a, c.version());
        byte[] b = oursWrite(decoded, c.version());
        assertThat(hex(b)).as("%s seed %d: our re-encoding of Kafka's bytes of %s", c.name(), seed, original)
            .isEqualTo(hex(a));
    }

    static byte[] oursWrite(Message message, short version) {
        ByteBuf buf = Unpooled.buffer();
        try {
            message.write(buf, version);
            assertThat(buf.readableBytes()).as("size(%d) of %s", version, message).isEqualTo(message.size(version));
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    static Message oursRead(Class<?> type, byte[] bytes, short version) throws ReflectiveOperationException {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        Message m = (Message) type.getConstructor(ByteBuf.class, short.class).newInstance(buf, version);
        assertThat(buf.readableBytes()).as("bytes left after reading %s", type.getSimpleName()).isZero();
        return m;
    }

    static byte[] kafkaWrite(org.apache.kafka.common.protocol.Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = message.size(cache, version);
        ByteBuffer buffer = ByteBuffer.allocate(size);
        message.write(new ByteBufferAccessor(buffer), cache, version);
        assertThat(buffer.remaining()).isZero();
        return buffer.array();
    }

    static Object kafkaRead(Class<?> type, byte[] bytes, short version) throws ReflectiveOperationException {
        ByteBufferAccessor accessor = new ByteBufferAccessor(ByteBuffer.wrap(bytes));
        Object m = type.getConstructor(Readable.class, short.class).newInstance(accessor, version);
        assertThat(accessor.remaining()).as("bytes left after Kafka read %s", type.getSimpleName()).isZero();
        return m;
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
