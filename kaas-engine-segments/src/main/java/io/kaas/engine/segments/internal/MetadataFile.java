package io.kaas.engine.segments.internal;

import java.util.Optional;

/**
 * The mutable per-partition metadata files a writer rewrites, each scoped to the writer's leader epoch by its name:
 * {@code manifest.00000002.json} is the manifest written at epoch 2. Epoch 0 keeps the names of a directory written
 * before epochs existed ({@code manifest.json}), so such a directory opens unchanged. A writer at epoch {@code E}
 * writes only files of {@code E} and reads the one of the highest epoch not above {@code E}; a file of an epoch
 * above {@code E} means another broker has taken the partition over. Temporary files of an atomic replacement
 * carry the epoch too ({@code manifest.00000002.json.tmp}).
 */
enum MetadataFile {
    MANIFEST("manifest", ".json"),
    RECOVERY_CHECKPOINT("recovery-checkpoint", ".json"),
    PRODUCER_SNAPSHOT("producer-state", ".snapshot"),
    CLEAN_SHUTDOWN("clean-shutdown", ""),
    CLEANER_CHECKPOINT("cleaner-checkpoint", ".json"),
    EPOCH_HISTORY("leader-epoch-checkpoint", "");

    static final String TMP_SUFFIX = ".tmp";

    private final String stem;
    private final String extension;

    MetadataFile(String stem, String extension) {
        this.stem = stem;
        this.extension = extension;
    }

    /** The file name of this kind at {@code epoch}. */
    String name(int epoch) {
        return epoch == 0 ? stem + extension : stem + "." + String.format("%08x", epoch) + extension;
    }

    /** A metadata file name with its epoch. */
    record Named(MetadataFile kind, int epoch, boolean temporary) {
    }

    /** The kind and epoch of {@code fileName} (a temporary file of it too), or empty if it is not a metadata file. */
    static Optional<Named> parse(String fileName) {
        boolean tmp = fileName.endsWith(TMP_SUFFIX);
        String name = tmp ? fileName.substring(0, fileName.length() - TMP_SUFFIX.length()) : fileName;
        for (MetadataFile kind : values()) {
            if (name.equals(kind.stem + kind.extension)) {
                return Optional.of(new Named(kind, 0, tmp));
            }
            String prefix = kind.stem + ".";
            if (name.startsWith(prefix) && name.endsWith(kind.extension)
                    && name.length() == prefix.length() + 8 + kind.extension.length()) {
                try {
                    int epoch = Integer.parseUnsignedInt(name.substring(prefix.length(), prefix.length() + 8), 16);
                    return Optional.of(new Named(kind, epoch, tmp));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
