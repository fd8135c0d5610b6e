package io.kaas.wire.message;

import io.kaas.wire.codegen.FieldSpec;
import io.kaas.wire.codegen.MessageSpec;
import io.kaas.wire.codegen.StructSpec;
import io.kaas.wire.protocol.Records;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * Fills a message instance with random values through its setters, driven by the schema so that only the
 * fields present in the version are touched and nulls appear only where the version allows them. Works for
 * our classes and for Kafka's (which use {@link Uuid}, {@code BaseRecords}, {@code ByteBuffer} for zero-copy
 * bytes and their own collection types for map-keyed arrays).
 */
final class RandomFiller {

    private static final int[] CODE_POINTS = {'a', 'b', 'z', 'K', '0', '9', '-', '_', '.', ' ', 0xe9, 0x20ac, 0x1d11e};

    private final MessageSpec message;
    private final Map<String, StructSpec> structs;
    private final Class<?> topClass;
    private final boolean kafka;
    private final Random random;

    RandomFiller(MessageSpec message, Class<?> topClass, boolean kafka, long seed) {
        this.message = message;
        this.structs = message.structs();
        this.topClass = topClass;
        this.kafka = kafka;
        this.random = new Random(seed);
    }

    Object newMessage(short version) throws ReflectiveOperationException {
        Object instance = topClass.getConstructor().newInstance();
        fill(instance, message.fields(), version);
        return instance;
    }

    private void fill(Object target, List<FieldSpec> fields, short version) throws ReflectiveOperationException {
        for (FieldSpec f : fields) {
            if (!f.versions().contains(version)) {
                continue;
            }
            if (f.isTagged() && f.taggedVersions().contains(version) && random.nextInt(3) == 0) {
                continue;
            }
            Method setter = setter(target.getClass(), "set" + f.capitalizedName());
            setter.invoke(target, value(f, setter.getParameterTypes()[0], version));
        }
    }

    private static Method setter(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 1) {
                return m;
            }
        }
        throw new AssertionError("no setter " + name + " on " + type.getName());
    }

    @SuppressWarnings("unchecked")
    private Object value(FieldSpec f, Class<?> paramType, short version) throws ReflectiveOperationException {
        boolean nullable = f.nullableVersions().contains(version);
        if (nullable && !paramType.isPrimitive() && random.nextInt(5) == 0) {
            return null;
        }
        if (f.isArray()) {
            Collection<Object> out = paramType.isInterface()
                ? new ArrayList<>()
                : (Collection<Object>) paramType.getConstructor().newInstance();
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
                out.add(f.isStruct() ? struct(f.elementType(), version) : primitive(f.elementType(), Object.class));
            }
            return out;
        }
        if (f.isStruct()) {
            return struct(f.type(), version);
        }
        return primitive(f.type(), paramType);
    }

    private Object struct(String typeName, short version) throws ReflectiveOperationException {
        Class<?> type = Class.forName(topClass.getName() + "$" + typeName);
        Object instance = type.getConstructor().newInstance();
        fill(instance, structs.get(typeName).fields(), version);
        return instance;
    }

    private Object primitive(String type, Class<?> paramType) {
        switch (type) {
            case "bool":
                return random.nextBoolean();
            case "int8":
                return (byte) random.nextInt();
            case "int16":
                return (short) random.nextInt();
            case "uint16":
                return random.nextInt(65536);
            case "int32":
                return random.nextBoolean() ? random.nextInt() : random.nextInt(5) - 1;
            case "uint32":
                return random.nextLong() & 0xFFFFFFFFL;
            case "int64":
                return random.nextBoolean() ? random.nextLong() : (long) random.nextInt(5) - 1;
            case "float64":
                return random.nextDouble() * 1000;
            case "string":
                return string();
            case "bytes": {
                byte[] b = bytes();
                return paramType == ByteBuffer.class ? ByteBuffer.wrap(b) : b;
            }
            case "uuid":
                return kafka ? new Uuid(random.nextLong(), random.nextLong()) : new UUID(random.nextLong(), random.nextLong());
            case "records":
                return kafka ? MemoryRecords.readableRecords(ByteBuffer.wrap(bytes())) : Records.of(Unpooled.wrappedBuffer(bytes()));
            default:
                throw new AssertionError("unknown type " + type);
        }
    }

    private String string() {
        int n = random.nextInt(7);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
        }
        return b.toString();
    }

    private byte[] bytes() {
        byte[] b = new byte[random.nextInt(9)];
        random.nextBytes(b);
        return b;
    }
}
