package io.kaas.engine.segments.internal;

import io.kaas.api.storage.PartitionKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * One partition's directory, {@code <dataDir>/<topic>/<partition>/}, and its file names.
 *
 * <p>{@code partition.json} records the topic id. A directory found with a different topic id belongs
 * to an earlier topic of the same name: it is stale and is deleted when the partition is opened.
 * Small files are replaced atomically: write a temp file, fsync it, rename, fsync the directory.
 *
 * <p>Every file or directory creation, rename, delete and directory fsync of the engine goes through this class
 * and is reported to the {@link IoHooks} (the power-cut model in the tests replays them).
 */
final class PartitionDirectory {
    static final String PARTITION_FILE = "partition.json";
    static final String MANIFEST_FILE = "manifest.json";
    static final String LOG_SUFFIX = ".log";
    static final String INDEX_SUFFIX = ".index";
    static final String TIME_INDEX_SUFFIX = ".timeindex";
    static final String CHECKPOINT_FILE = "recovery-checkpoint.json";
    static final String PRODUCER_SNAPSHOT_FILE = "producer-state.snapshot";
    static final String CLEAN_SHUTDOWN_FILE = "clean-shutdown";
    static final String CLEANER_CHECKPOINT_FILE = "cleaner-checkpoint.json";
    /** A compacted segment being written; deleted by recovery (the pass rolls back). */
    static final String CLEANED_SUFFIX = ".cleaned";
    /** A compacted segment fsynced and committed; recovery completes the swap. */
    static final String SWAP_SUFFIX = ".swap";
    private static final String TMP_SUFFIX = ".tmp";

    private final Path dir;
    private final int epoch;
    private final IoHooks hooks;

    private PartitionDirectory(Path dir, int epoch, IoHooks hooks) {
        this.dir = dir;
        this.epoch = epoch;
        this.hooks = hooks;
    }

    static Path pathOf(Path dataDir, PartitionKey key) {
        String topic = key.topic();
        if (topic.isEmpty() || topic.equals(".") || topic.equals("..") || topic.contains("/") || topic.contains("\\")) {
            throw new IllegalArgumentException("topic name cannot be used as a directory name: '" + topic + "'");
        }
        return dataDir.resolve(topic).resolve(Integer.toString(key.partition()));
    }

    /** Opens (creating if absent) the directory of {@code key}, deleting a stale one of another topic id. */
    static PartitionDirectory open(Path dataDir, PartitionKey key) throws IOException {
        return open(dataDir, key, IoHooks.NONE);
    }

    static PartitionDirectory open(Path dataDir, PartitionKey key, IoHooks hooks) throws IOException {
        Path dir = pathOf(dataDir, key);
        Optional<UUID> existing = readTopicId(dir);
        if (existing.isPresent() && !existing.get().equals(key.topicId())) {
            deleteRecursively(dir, hooks);
        }
        createDirectories(dir.getParent(), hooks);
        createDirectories(dir, hooks);
        // Both new entries durable: the topic's in the data directory, the partition's in the topic directory
        // (also after a crash that came between an earlier mkdir and its directory fsync).
        fsyncDirectory(dir.getParent().getParent(), hooks);
        fsyncDirectory(dir.getParent(), hooks);
        PartitionDirectory pd = new PartitionDirectory(dir, 0, hooks);
        if (existing.isEmpty() || !existing.get().equals(key.topicId())) {
            pd.writeAtomically(PARTITION_FILE, FlatJson.write(Map.of("topicId", key.topicId().toString())));
        }
        pd.deleteTempFiles();
        pd.finishSwaps();
        return pd;
    }

    static Optional<UUID> readTopicId(Path dir) throws IOException {
        Path file = dir.resolve(PARTITION_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String id = FlatJson.read(Files.readString(file, StandardCharsets.UTF_8)).get("topicId");
        return Optional.ofNullable(id).map(UUID::fromString);
    }

    Path path() {
        return dir;
    }

    IoHooks hooks() {
        return hooks;
    }

    private static void createDirectories(Path d, IoHooks hooks) throws IOException {
        if (!Files.isDirectory(d)) {
            try {
                Files.createDirectory(d);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                return; // another partition of the topic created it meanwhile
            }
            hooks.created(d);
        }
    }

    /** Opens a channel, reporting the file's creation if {@code options} created it. */
    static FileChannel openChannel(Path file, IoHooks hooks, OpenOption... options) throws IOException {
        boolean existed = Files.exists(file);
        FileChannel ch = FileChannel.open(file, options);
        if (!existed) {
            hooks.created(file);
        }
        return ch;
    }

    /** Deletes {@code file} if present (not durably: the caller fsyncs the directory when it needs to). */
    static boolean deleteIfExists(Path file, IoHooks hooks) throws IOException {
        boolean deleted = Files.deleteIfExists(file);
        if (deleted) {
            hooks.deleted(file);
        }
        return deleted;
    }

    boolean deleteIfExists(Path file) throws IOException {
        return deleteIfExists(file, hooks);
    }

    /** Renames atomically, replacing {@code target} (not durably: the caller fsyncs the directory). */
    void move(Path source, Path target) throws IOException {
        Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        hooks.renamed(source, target);
    }

    /** An fsync of a file outside a running log's commit path (see {@link IoHooks#beforeSync}). */
    void sync(FileChannel channel, Path file) throws IOException {
        sync(channel, file, hooks);
    }

    static void sync(FileChannel channel, Path file, IoHooks hooks) throws IOException {
        hooks.beforeSync(file);
        channel.force(true);
        hooks.afterSync(file);
    }

    /** Fsyncs this partition's directory: every entry created, renamed or deleted so far is durable. */
    void fsync() throws IOException {
        fsyncDirectory(dir, hooks);
    }

    Path logFile(long baseOffset) {
        return dir.resolve(stem(baseOffset) + LOG_SUFFIX);
    }

    Path indexFile(long baseOffset) {
        return dir.resolve(stem(baseOffset) + INDEX_SUFFIX);
    }

    Path timeIndexFile(long baseOffset) {
        return dir.resolve(stem(baseOffset) + TIME_INDEX_SUFFIX);
    }

    /** Where the cleaner writes the compacted copy of a segment's log. */
    Path cleanedFile(long baseOffset) {
        return dir.resolve(stem(baseOffset) + LOG_SUFFIX + CLEANED_SUFFIX);
    }

    /** The compacted copy once fsynced: its existence commits the swap. */
    Path swapFile(long baseOffset) {
        return dir.resolve(stem(baseOffset) + LOG_SUFFIX + SWAP_SUFFIX);
    }

    /**
     * Replaces a segment's log by its committed compacted copy: deletes the old indexes (rebuilt from the new
     * log), renames {@code .swap} over the {@code .log} (rename(2) replaces atomically, so the old log is deleted
     * in the same step; readers holding its channel keep reading it) and fsyncs the directory. Idempotent: recovery
     * calls it for a {@code .swap} left by a crash.
     */
    void completeSwap(long baseOffset) throws IOException {
        deleteIfExists(indexFile(baseOffset));
        deleteIfExists(timeIndexFile(baseOffset));
        move(swapFile(baseOffset), logFile(baseOffset));
        fsync();
    }

    /** Recovery of an interrupted compaction: rolls back every {@code .cleaned}, completes every {@code .swap}. */
    private void finishSwaps() throws IOException {
        List<Long> swaps = new ArrayList<>();
        boolean changed = false;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(LOG_SUFFIX + CLEANED_SUFFIX)) {
                    deleteIfExists(p);
                    changed = true;
                } else if (name.endsWith(LOG_SUFFIX + SWAP_SUFFIX)) {
                    swaps.add(Long.parseLong(name.substring(9, 29)));
                }
            }
        }
        for (long base : swaps) {
            completeSwap(base);
        }
        if (changed) {
            fsync();
        }
    }

    /** The first offset the cleaner has not compacted yet (0 if it never ran). */
    long readCleanerCheckpoint() {
        try {
            String v = FlatJson.read(Files.readString(dir.resolve(CLEANER_CHECKPOINT_FILE), StandardCharsets.UTF_8))
                    .get("firstDirtyOffset");
            return v == null ? 0L : Long.parseLong(v);
        } catch (IOException | RuntimeException e) {
            return 0L; // missing or unreadable: the next pass compacts the whole log again (idempotent)
        }
    }

    void writeCleanerCheckpoint(long firstDirtyOffset) throws IOException {
        writeAtomically(CLEANER_CHECKPOINT_FILE, FlatJson.write(Map.of("firstDirtyOffset", Long.toString(firstDirtyOffset))));
    }

    /** Deletes a segment's three files (not the directory entry's fsync: the caller batches that). */
    void deleteSegmentFiles(long baseOffset) throws IOException {
        deleteIfExists(logFile(baseOffset));
        deleteIfExists(indexFile(baseOffset));
        deleteIfExists(timeIndexFile(baseOffset));
    }

    Optional<RecoveryCheckpoint> readCheckpoint() {
        try {
            return Optional.of(RecoveryCheckpoint.fromJson(Files.readString(dir.resolve(CHECKPOINT_FILE), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // unreadable: recover as if there were none (a full scan of the last segment)
        }
    }

    void writeCheckpoint(RecoveryCheckpoint checkpoint) throws IOException {
        writeAtomically(CHECKPOINT_FILE, checkpoint.toJson());
    }

    Optional<byte[]> readProducerSnapshot() throws IOException {
        try {
            return Optional.of(Files.readAllBytes(dir.resolve(PRODUCER_SNAPSHOT_FILE)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * Reads and removes the clean-shutdown marker, durably, before anything else is done to the partition:
     * a crash from now on must be recovered as a crash.
     */
    boolean consumeCleanShutdownMarker() throws IOException {
        Path marker = dir.resolve(CLEAN_SHUTDOWN_FILE);
        if (!deleteIfExists(marker)) {
            return false;
        }
        fsync();
        return true;
    }

    /** Written last on a clean close: everything else is durable and consistent. */
    void writeCleanShutdownMarker() throws IOException {
        writeAtomically(CLEAN_SHUTDOWN_FILE, "clean\n");
    }

    private String stem(long baseOffset) {
        return String.format("%08x-%020d", epoch, baseOffset);
    }

    /** Base offsets of the segment files present, ascending. */
    List<Long> segmentBaseOffsets() throws IOException {
        List<Long> bases = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(LOG_SUFFIX) && name.length() == 8 + 1 + 20 + LOG_SUFFIX.length()) {
                    bases.add(Long.parseLong(name.substring(9, 29)));
                }
            }
        }
        bases.sort(Comparator.naturalOrder());
        return bases;
    }

    Optional<Manifest> readManifest() throws IOException {
        try {
            return Optional.of(Manifest.fromJson(Files.readString(dir.resolve(MANIFEST_FILE), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt " + dir.resolve(MANIFEST_FILE) + ": " + e.getMessage(), e);
        }
    }

    void writeManifest(Manifest manifest) throws IOException {
        writeAtomically(MANIFEST_FILE, manifest.toJson());
    }

    int epoch() {
        return epoch;
    }

    void writeAtomically(String name, String content) throws IOException {
        writeAtomically(name, content.getBytes(StandardCharsets.UTF_8));
    }

    void writeAtomically(String name, byte[] content) throws IOException {
        Path target = dir.resolve(name);
        Path tmp = dir.resolve(name + TMP_SUFFIX);
        try (FileChannel ch = openChannel(tmp, hooks, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            sync(ch, tmp);
        }
        move(tmp, target);
        fsync();
    }

    private void deleteTempFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(TMP_SUFFIX)) {
                    deleteIfExists(p);
                }
            }
        }
    }

    static void fsyncDirectory(Path directory, IoHooks hooks) throws IOException {
        try (FileChannel ch = FileChannel.open(directory, StandardOpenOption.READ)) {
            ch.force(true);
            hooks.afterDirectoryForce(directory);
        } catch (IOException e) {
            // Some platforms cannot open a directory for fsync; on Linux this succeeds.
            if (!System.getProperty("os.name", "").toLowerCase().contains("win")) {
                throw e;
            }
        }
    }

    static void deleteRecursively(Path root, IoHooks hooks) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
            for (Path p : paths) {
                deleteIfExists(p, hooks);
            }
        }
        if (root.getParent() != null) {
            fsyncDirectory(root.getParent(), hooks);
        }
    }
}
