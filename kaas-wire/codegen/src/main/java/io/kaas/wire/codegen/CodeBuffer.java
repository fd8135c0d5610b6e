package io.kaas.wire.codegen;

/** Accumulates Java source with brace-driven indentation. */
final class CodeBuffer {

    private final StringBuilder out = new StringBuilder();
    private int indent;

    /** Appends one line; a line ending in '{' indents the following lines, one starting with '}' dedents. */
    CodeBuffer line(String format, Object... args) {
        String text = args.length == 0 ? format : String.format(format, args);
        if (text.startsWith("}")) {
            indent--;
        }
        if (!text.isEmpty()) {
            out.append("    ".repeat(Math.max(indent, 0))).append(text);
        }
        out.append('\n');
        if (text.endsWith("{")) {
            indent++;
        }
        return this;
    }

    CodeBuffer blank() {
        out.append('\n');
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
