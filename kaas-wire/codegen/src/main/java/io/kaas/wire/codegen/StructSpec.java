package io.kaas.wire.codegen;

import java.util.List;

/** A named struct: the message itself, an inline struct, or a common struct. */
public record StructSpec(String name, Versions versions, List<FieldSpec> fields) {
}
