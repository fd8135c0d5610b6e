package io.kaas.engine.segments.internal;

import io.kaas.api.storage.FencedLeaderEpochException;
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
    /** The epoch-0 names (a directory written before epochs existed, or by a broker alone). */
    static final String MANIFEST_FILE = MetadataFile.MANIFEST.name(0);
    static final String LOG_SUFFIX = ".log";
    static final String INDEX_SUFFIX = ".index";
    static final String TIME_INDEX_SUFFIX = ".timeindex";
    static final String CHECKPOINT_FILE = MetadataFile.RECOVERY_CHECKPOINT.name(0);
    static final String PRODUCER_SNAPSHOT_FILE = MetadataFile.PRODUCER_SNAPSHOT.name(0);
    static final String CLEAN_SHUTDOWN_FILE = MetadataFile.CLEAN_SHUTDOWN.name(0);
    static final String CLEANER_CHECKPOINT_FILE = MetadataFile.CLEANER_CHECKPOINT.name(0);
    /** A compacted segment being written; deleted by recovery (the pass rolls back). */
    static final String CLEANED_SUFFIX = ".cleaned";
    /** A compacted segment fsynced and committed; recovery completes the swap. */
    static final String SWAP_SUFFIX = ".swap";
    private static final String TMP_SUFFIX = MetadataFile.TMP_SUFFIX;

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
        return open(dataDir, key, 0, IoHooks.NONE);
    }

    static PartitionDirectory open(Path dataDir, PartitionKey key, IoHooks hooks) throws IOException {
        return open(dataDir, key, 0, hooks);
    }

    /**
     * Opens the directory of {@code key} for its writer at {@code epoch}: refuses, before changing anything, if a
     * file of a higher epoch is there (another broker took the partition over); then as {@link #open(Path,
     * PartitionKey)}. Only this epoch's temporary files are deleted and only this epoch's compaction leftovers
     * finished: those of earlier epochs may belong to a fenced writer still running.
     *
     * @throws FencedLeaderEpochException if the directory holds a file of an epoch above {@code epoch}
     */
    static PartitionDirectory open(Path dataDir, PartitionKey key, int epoch, IoHooks hooks) throws IOException {
        Path dir = pathOf(dataDir, key);
        Optional<UUID> existing = readTopicId(dir);
        if (existing.isPresent() && !existing.get().equals(key.topicId())) {
            deleteRecursively(dir, hooks);
        } else if (existing.isPresent()) {
            refuseHigherEpochs(dir, key, epoch);
        }
        createDirectories(dir.getParent(), hooks);
        createDirectories(dir, hooks);
        // Both new entries durable: the topic's in the data directory, the partition's in the topic directory
        // (also after a crash that came between an earlier mkdir and its directory fsync).
        fsyncDirectory(dir.getParent().getParent(), hooks);
        fsyncDirectory(dir.getParent(), hooks);
        PartitionDirectory pd = new PartitionDirectory(dir, epoch, hooks);
        if (existing.isEmpty() || !existing.get().equals(key.topicId())) {
            pd.writeAtomically(PARTITION_FILE, FlatJson.write(Map.of("topicId", key.topicId().toString())));
        }
        pd.deleteTempFiles();
        pd.finishSwaps();
        return pd;
    }

    /** The highest epoch any file of {@code dir} carries in its name (-1 for none). */
    static int highestEpoch(Path dir) throws IOException {
        int highest = -1;
        if (!Files.isDirectory(dir)) {
            return highest;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                highest = Math.max(highest, epochOf(p.getFileName().toString()));
            }
        }
        return highest;
    }

    /** The epoch a file name carries (a segment file's, a metadata file's, their temporary files'), or -1. */
    private static int epochOf(String name) {
        Optional<SegmentFile> seg = SegmentFile.parse(name);
        if (seg.isPresent()) {
            return seg.get().epoch();
        }
        return MetadataFile.parse(name).map(MetadataFile.Named::epoch).orElse(-1);
    }

    private static void refuseHigherEpochs(Path dir, PartitionKey key, int epoch) throws IOException {
        int highest = highestEpoch(dir);
        if (highest > epoch) {
            throw new FencedLeaderEpochException("partition " + key + " has been written at leader epoch " + highest
                    + ", above the epoch " + epoch + " it is opened with: another broker has taken it over");
        }
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

    Path logFile(SegmentFile seg) {
        return dir.resolve(seg.stem() + LOG_SUFFIX);
    }

    Path indexFile(SegmentFile seg) {
        return dir.resolve(seg.stem() + INDEX_SUFFIX);
    }

    Path timeIndexFile(SegmentFile seg) {
        return dir.resolve(seg.stem() + TIME_INDEX_SUFFIX);
    }

    /** Where the cleaner writes the compacted copy of a segment's log. */
    Path cleanedFile(SegmentFile seg) {
        return dir.resolve(seg.stem() + LOG_SUFFIX + CLEANED_SUFFIX);
    }

    /** The compacted copy once fsynced: its existence commits the swap. */
    Path swapFile(SegmentFile seg) {
        return dir.resolve(seg.stem() + LOG_SUFFIX + SWAP_SUFFIX);
    }

    /** A segment file of this directory's writer (its epoch) at {@code baseOffset}. */
    SegmentFile ownSegment(long baseOffset) {
        return new SegmentFile(epoch, baseOffset);
    }

    /**
     * Replaces a segment's log by its committed compacted copy: deletes the old indexes (rebuilt from the new
     * log), renames {@code .swap} over the {@code .log} (rename(2) replaces atomically, so the old log is deleted
     * in the same step; readers holding its channel keep reading it) and fsyncs the directory. Idempotent: recovery
     * calls it for a {@code .swap} left by a crash.
     */
    void completeSwap(SegmentFile seg) throws IOException {
        deleteIfExists(indexFile(seg));
        deleteIfExists(timeIndexFile(seg));
        move(swapFile(seg), logFile(seg));
        fsync();
    }

    /**
     * Recovery of an interrupted compaction: rolls back every {@code .cleaned}, completes every {@code .swap} (a
     * committed copy holds the same offsets as the segment it replaces). A writer of a later epoch than this one's
     * may be running: the leftovers of a higher epoch are not touched. Those of earlier epochs are: their writers are
     * fenced (an uncommitted copy is dropped; a committed one holds the segment's offsets and is swapped in).
     */
    private void finishSwaps() throws IOException {
        List<SegmentFile> swaps = new ArrayList<>();
        boolean changed = false;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                Optional<SegmentFile> seg = SegmentFile.parse(name);
                if (seg.isEmpty() || seg.get().epoch() > epoch) {
                    continue;
                }
                if (name.endsWith(LOG_SUFFIX + CLEANED_SUFFIX)) {
                    deleteIfExists(p);
                    changed = true;
                } else if (name.endsWith(LOG_SUFFIX + SWAP_SUFFIX)) {
                    swaps.add(seg.get());
                }
            }
        }
        for (SegmentFile seg : swaps) {
            completeSwap(seg);
        }
        if (changed) {
            fsync();
        }
    }

    /** The first offset the cleaner has not compacted yet (0 if it never ran). */
    long readCleanerCheckpoint() {
        try {
            Optional<Path> file = latest(MetadataFile.CLEANER_CHECKPOINT);
            if (file.isEmpty()) {
                return 0L;
            }
            String v = FlatJson.read(Files.readString(file.get(), StandardCharsets.UTF_8)).get("firstDirtyOffset");
            return v == null ? 0L : Long.parseLong(v);
        } catch (IOException | RuntimeException e) {
            return 0L; // missing or unreadable: the next pass compacts the whole log again (idempotent)
        }
    }

    void writeCleanerCheckpoint(long firstDirtyOffset) throws IOException {
        writeAtomically(MetadataFile.CLEANER_CHECKPOINT.name(epoch), FlatJson.write(Map.of("firstDirtyOffset", Long.toString(firstDirtyOffset))));
    }

    /** Deletes a segment's three files (not the directory entry's fsync: the caller batches that). */
    void deleteSegmentFiles(SegmentFile seg) throws IOException {
        deleteIfExists(logFile(seg));
        deleteIfExists(indexFile(seg));
        deleteIfExists(timeIndexFile(seg));
    }

    /** This epoch's recovery checkpoint (it describes a segment of this epoch). */
    Optional<RecoveryCheckpoint> readCheckpoint() {
        return readCheckpoint(epoch);
    }

    /** The recovery checkpoint the writer of {@code writerEpoch} wrote: it describes a segment of that epoch. */
    Optional<RecoveryCheckpoint> readCheckpoint(int writerEpoch) {
        try {
            return Optional.of(RecoveryCheckpoint.fromJson(Files.readString(
                    dir.resolve(MetadataFile.RECOVERY_CHECKPOINT.name(writerEpoch)), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // unreadable: recover as if there were none (a full scan of the last segment)
        }
    }

    void writeCheckpoint(RecoveryCheckpoint checkpoint) throws IOException {
        writeAtomically(MetadataFile.RECOVERY_CHECKPOINT.name(epoch), checkpoint.toJson());
    }

    /** The producer snapshots of this epoch and earlier ones, as (epoch, bytes), the highest epoch first. */
    List<Map.Entry<Integer, byte[]>> readProducerSnapshots() throws IOException {
        List<Map.Entry<Integer, byte[]>> found = new ArrayList<>();
        for (int e : epochsOf(MetadataFile.PRODUCER_SNAPSHOT)) {
            try {
                found.add(Map.entry(e, Files.readAllBytes(dir.resolve(MetadataFile.PRODUCER_SNAPSHOT.name(e)))));
            } catch (NoSuchFileException gone) {
                // deleted meanwhile by a later writer
            }
        }
        return found;
    }

    /** This epoch's producer snapshot. */
    Optional<byte[]> readProducerSnapshot() throws IOException {
        try {
            return Optional.of(Files.readAllBytes(dir.resolve(MetadataFile.PRODUCER_SNAPSHOT.name(epoch))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    void writeProducerSnapshot(byte[] snapshot) throws IOException {
        writeAtomically(MetadataFile.PRODUCER_SNAPSHOT.name(epoch), snapshot);
    }

    /** The epoch history of the highest epoch not above this one, or {@link EpochHistory#EMPTY} if none. */
    EpochHistory readEpochHistory() throws IOException {
        Optional<Path> file = latest(MetadataFile.EPOCH_HISTORY);
        if (file.isEmpty()) {
            return EpochHistory.EMPTY;
        }
        try {
            return EpochHistory.decode(Files.readString(file.get(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt " + file.get() + ": " + e.getMessage(), e);
        }
    }

    /** Writes this epoch's history durably (before any file of the epoch is created). */
    void writeEpochHistory(EpochHistory history) throws IOException {
        writeAtomically(MetadataFile.EPOCH_HISTORY.name(epoch), history.encode());
    }

    /** The file of {@code kind} of the highest epoch not above this one. */
    private Optional<Path> latest(MetadataFile kind) throws IOException {
        List<Integer> epochs = epochsOf(kind);
        return epochs.isEmpty() ? Optional.empty() : Optional.of(dir.resolve(kind.name(epochs.get(0))));
    }

    /** The epochs not above this one for which a file of {@code kind} exists, highest first. */
    private List<Integer> epochsOf(MetadataFile kind) throws IOException {
        List<Integer> epochs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                MetadataFile.parse(p.getFileName().toString())
                        .filter(n -> n.kind() == kind && !n.temporary() && n.epoch() <= epoch)
                        .ifPresent(n -> epochs.add(n.epoch()));
            }
        }
        epochs.sort(Comparator.reverseOrder());
        return epochs;
    }

    /**
     * What earlier epochs left that this epoch's writer no longer needs once its own metadata files are written: their
     * metadata files (and temporary files), and their segment files that do not count under {@code history} (a fenced
     * writer's late roll).
     */
    List<Path> supersededFiles(EpochHistory history) throws IOException {
        List<Path> old = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                MetadataFile.parse(p.getFileName().toString()).filter(n -> n.epoch() < epoch).ifPresent(n -> old.add(p));
            }
        }
        for (SegmentFile f : segmentFiles()) {
            if (f.epoch() < epoch && !history.counts(f.epoch(), f.baseOffset())) {
                old.add(logFile(f));
                old.add(indexFile(f));
                old.add(timeIndexFile(f));
            }
        }
        return old;
    }

    /**
     * Reads and removes the clean-shutdown marker, durably, before anything else is done to the partition:
     * a crash from now on must be recovered as a crash.
     */
    boolean consumeCleanShutdownMarker() throws IOException {
        Path marker = dir.resolve(MetadataFile.CLEAN_SHUTDOWN.name(epoch));
        if (!deleteIfExists(marker)) {
            return false;
        }
        fsync();
        return true;
    }

    /** Written last on a clean close: everything else is durable and consistent. */
    void writeCleanShutdownMarker() throws IOException {
        writeAtomically(MetadataFile.CLEAN_SHUTDOWN.name(epoch), "clean\n");
    }

    /** The segment files present of this epoch and earlier ones, by base offset then epoch. */
    List<SegmentFile> segmentFiles() throws IOException {
        List<SegmentFile> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(LOG_SUFFIX) && name.length() == 8 + 1 + 20 + LOG_SUFFIX.length()) {
                    SegmentFile.parse(name).filter(f -> f.epoch() <= epoch).ifPresent(found::add);
                }
            }
        }
        found.sort(Comparator.comparingLong(SegmentFile::baseOffset).thenComparingInt(SegmentFile::epoch));
        return found;
    }

    /** The manifest of the highest epoch not above this one. */
    Optional<Manifest> readManifest() throws IOException {
        Optional<Path> file = latest(MetadataFile.MANIFEST);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Manifest.fromJson(Files.readString(file.get(), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt " + file.get() + ": " + e.getMessage(), e);
        }
    }

    void writeManifest(Manifest manifest) throws IOException {
        writeAtomically(MetadataFile.MANIFEST.name(epoch), manifest.toJson());
    }

    int epoch() {
        return epoch;
    }

    void writeAtomically(String name, String content) throws IOException {
        writeAtomically(name, content.getBytes(StandardCharsets.UTF_8));
    }

    void writeAtomically(String name, byte[] content) throws IOException {
        Path target = dir.resolve(name);
        Path tmp = dir.resolve(tempName(name));
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

    /**
     * The temporary file of an atomic replacement of {@code name}: a metadata file's name carries its epoch already;
     * any other file's ({@code partition.json}) gets this epoch, so two writers never share one.
     */
    private String tempName(String name) {
        if (epoch == 0 || MetadataFile.parse(name).isPresent()) {
            return name + TMP_SUFFIX;
        }
        return name + "." + String.format("%08x", epoch) + TMP_SUFFIX;
    }

    /** Deletes the temporary files this epoch's writer left (those of other epochs may be a running writer's). */
    private void deleteTempFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(TMP_SUFFIX) && tempEpoch(name) == epoch) {
                    deleteIfExists(p);
                }
            }
        }
    }

    private static int tempEpoch(String name) {
        Optional<MetadataFile.Named> meta = MetadataFile.parse(name);
        if (meta.isPresent()) {
            return meta.get().epoch();
        }
        String stem = name.substring(0, name.length() - TMP_SUFFIX.length());
        int dot = stem.lastIndexOf('.');
        if (dot >= 0 && stem.length() - dot - 1 == 8) {
            try {
                return Integer.parseUnsignedInt(stem.substring(dot + 1), 16);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
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
