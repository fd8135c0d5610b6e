package io.kaas.wire.codegen;

/** Java spelling of schema types, defaults and default checks. */
final class Types {

    static final String ACC = "io.kaas.wire.protocol.ByteBufAccessors";

    private Types() {
    }

    static String scalar(String type) {
        return switch (type) {
            case "bool" -> "boolean";
            case "int8" -> "byte";
            case "int16" -> "short";
            case "uint16", "int32" -> "int";
            case "uint32", "int64" -> "long";
            case "float64" -> "double";
            case "string" -> "String";
            case "bytes" -> "byte[]";
            case "uuid" -> "java.util.UUID";
            case "records" -> "io.kaas.wire.protocol.Records";
            default -> type;
        };
    }

    static String boxed(String type) {
        return switch (scalar(type)) {
            case "boolean" -> "Boolean";
            case "byte" -> "Byte";
            case "short" -> "Short";
            case "int" -> "Integer";
            case "long" -> "Long";
            case "double" -> "Double";
            default -> scalar(type);
        };
    }

    static String javaType(FieldSpec f) {
        return f.isArray() ? "java.util.List<" + boxed(f.elementType()) + ">" : scalar(f.type());
    }

    /** Fixed encoded width of a primitive, or -1 for variable-size types. */
    static int fixedSize(String type) {
        return switch (type) {
            case "bool", "int8" -> 1;
            case "int16", "uint16" -> 2;
            case "int32", "uint32" -> 4;
            case "int64", "float64" -> 8;
            case "uuid" -> 16;
            default -> -1;
        };
    }

    static boolean isNullDefault(FieldSpec f) {
        return "null".equals(f.defaultValue());
    }

    /** The Java expression of the field's schema default. */
    static String defaultValue(FieldSpec f) {
        String d = f.defaultValue();
        if (f.isArray()) {
            return isNullDefault(f) ? "null" : "new java.util.ArrayList<>(0)";
        }
        if (f.isStruct()) {
            return isNullDefault(f) ? "null" : "new " + f.type() + "()";
        }
        switch (f.type()) {
            case "bool":
                return d == null ? "false" : String.valueOf(Boolean.parseBoolean(d.trim()));
            case "int8":
                return "(byte) " + integer(d, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "int16":
                return "(short) " + integer(d, Short.MIN_VALUE, Short.MAX_VALUE);
            case "uint16":
                return String.valueOf(integer(d, 0, 65535));
            case "int32":
                return String.valueOf(integer(d, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case "uint32":
                return integer(d, 0, 0xFFFFFFFFL) + "L";
            case "int64":
                return integer(d, Long.MIN_VALUE, Long.MAX_VALUE) + "L";
            case "float64":
                return d == null ? "0.0d" : Double.parseDouble(d.trim()) + "d";
            case "string":
                if (isNullDefault(f)) {
                    return "null";
                }
                return d == null ? "\"\"" : quote(d);
            case "bytes":
                return isNullDefault(f) ? "null" : ACC + ".EMPTY_BYTES";
            case "uuid":
                return ACC + ".ZERO_UUID";
            case "records":
                return "null";
            default:
                throw new IllegalArgumentException("unknown type " + f.type());
        }
    }

    /** A Java expression that is true when {@code v} differs from the schema default. */
    static String nonDefault(FieldSpec f, String v) {
        if (f.isArray()) {
            return isNullDefault(f) ? v + " != null" : "(" + v + " == null || !" + v + ".isEmpty())";
        }
        if (f.isStruct()) {
            return isNullDefault(f) ? v + " != null" : "!" + defaultValue(f) + ".equals(" + v + ")";
        }
        switch (f.type()) {
            case "float64":
                return "Double.compare(" + v + ", " + defaultValue(f) + ") != 0";
            case "string":
                return isNullDefault(f) ? v + " != null" : "!" + defaultValue(f) + ".equals(" + v + ")";
            case "bytes":
                return isNullDefault(f) ? v + " != null" : "(" + v + " == null || " + v + ".length != 0)";
            case "uuid":
                return "!" + ACC + ".ZERO_UUID.equals(" + v + ")";
            case "records":
                return v + " != null";
            default:
                return v + " != " + defaultValue(f);
        }
    }

    private static long integer(String d, long min, long max) {
        if (d == null) {
            return 0;
        }
        String s = d.trim();
        boolean negative = s.startsWith("-");
        String digits = negative ? s.substring(1) : s;
        long value = digits.startsWith("0x") || digits.startsWith("0X")
            ? Long.parseUnsignedLong(digits.substring(2), 16)
            : Long.parseLong(digits);
        value = negative ? -value : value;
        if (value < min || value > max) {
            throw new IllegalArgumentException("default " + d + " out of range");
        }
        return value;
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
