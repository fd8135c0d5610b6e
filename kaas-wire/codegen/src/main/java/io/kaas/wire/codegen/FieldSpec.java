package io.kaas.wire.codegen;

import java.util.List;

/**
 * One field of a schema struct.
 *
 * @param name                the schema name (UpperCamel)
 * @param type                the schema type, e.g. {@code int32}, {@code []string}, {@code []TopicData}
 * @param versions            versions in which the field exists
 * @param nullableVersions    versions in which the field may be null
 * @param taggedVersions      versions in which the field is a tagged field
 * @param tag                 the tag, or -1 when the field is never tagged
 * @param flexibleVersions    a per-field override of the message's flexible versions, or null
 * @param defaultValue        the schema default as written, or null when absent
 * @param ignorable           whether a non-default value may be dropped in versions without the field
 * @param fields              the inline struct definition (for struct or struct-array types), or null
 */
public record FieldSpec(String name, String type, Versions versions, Versions nullableVersions,
                        Versions taggedVersions, int tag, Versions flexibleVersions, String defaultValue,
                        boolean ignorable, List<FieldSpec> fields) {

    public static final List<String> PRIMITIVES = List.of(
        "bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "string", "bytes", "uuid", "records");

    public boolean isArray() {
        return type.startsWith("[]");
    }

    /** The element type for arrays, the type itself otherwise. */
    public String elementType() {
        return isArray() ? type.substring(2) : type;
    }

    public boolean isStruct() {
        return !PRIMITIVES.contains(elementType());
    }

    public boolean isTagged() {
        return tag >= 0;
    }

    /** UpperCamel, as used after {@code set}; schemas spell a few names lowerCamel ("timeoutMs"). */
    public String capitalizedName() {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    public String camelName() {
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }
}
