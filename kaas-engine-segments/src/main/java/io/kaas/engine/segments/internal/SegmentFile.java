package io.kaas.engine.segments.internal;

import java.util.Optional;

/**
 * A segment file's identity from its name {@code {epoch:08x}-{base_offset:020d}.log}: the leader epoch of the
 * writer that created it and its base offset.
 */
record SegmentFile(int epoch, long baseOffset) {
    private static final int STEM_LENGTH = 8 + 1 + 20;

    String stem() {
        return String.format("%08x-%020d", epoch, baseOffset);
    }

    /** The segment (or its index, time index, compaction copy) named {@code fileName}, or empty. */
    static Optional<SegmentFile> parse(String fileName) {
        if (fileName.length() < STEM_LENGTH + 1 || fileName.charAt(8) != '-' || fileName.charAt(STEM_LENGTH) != '.') {
            return Optional.empty();
        }
        try {
            int epoch = Integer.parseUnsignedInt(fileName.substring(0, 8), 16);
            long base = Long.parseLong(fileName.substring(9, STEM_LENGTH));
            return base < 0 ? Optional.empty() : Optional.of(new SegmentFile(epoch, base));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
