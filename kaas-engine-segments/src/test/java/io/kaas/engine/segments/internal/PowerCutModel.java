package io.kaas.engine.segments.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A power-cut model over {@link IoHooks}: what a power cut now would leave of a data directory, on a file system
 * that keeps nothing it was not told to keep.
 *
 * <ul>
 *   <li>Each file or directory the engine creates is a node (an inode). A file's durable content is a snapshot of
 *       its bytes taken when an fsync began whose return has been reported (a file never fsynced is empty).</li>
 *   <li>Each directory has live entries (name → node, following every create, rename and delete) and durable
 *       entries: the live ones as of its last fsync. A cut keeps exactly the durable entries: a file created or
 *       renamed into place since vanishes, a name renamed or deleted away since comes back with its node's
 *       durable content (a rename over an existing name reverts to the old file).</li>
 *   <li>The root (the data directory) is durable as it is; it starts empty.</li>
 * </ul>
 *
 * {@link #image} takes a cut as a map of relative paths to contents (null for a directory); with
 * {@link #captureEveryEvent} one is taken after every create, rename, delete, fsync and directory fsync.
 * {@link #mismatches} compares the model's live view with the disk: a create, rename or delete the engine did
 * without reporting it shows there.
 */
final class PowerCutModel implements IoHooks {
    private static final class Node {
        final boolean directory;
        Path livePath;
        byte[] durable = new byte[0];
        long durableSeq;
        final Map<String, Node> live = new HashMap<>();
        Map<String, Node> durableEntries = new HashMap<>();

        Node(boolean directory, Path livePath) {
            this.directory = directory;
            this.livePath = livePath;
        }
    }

    private record Pending(Node node, long seq, byte[] content) {
    }

    private final Path root;
    private final Map<Path, Node> byPath = new HashMap<>();
    private final Map<String, Pending> pending = new HashMap<>();
    private final List<String> untracked = new ArrayList<>();
    private final List<Map<String, byte[]>> captured = new ArrayList<>();
    private long seq;
    private boolean capture;
    private int directoryFsyncs;

    PowerCutModel(Path root) {
        this.root = root;
        byPath.put(root, new Node(true, root));
    }

    // ---- hooks ----

    @Override
    public void beforeForce(Path file) throws IOException {
        snapshot(file);
    }

    @Override
    public void afterForce(Path file) {
        commit(file);
    }

    @Override
    public void beforeSync(Path file) {
        try {
            snapshot(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterSync(Path file) {
        commit(file);
    }

    private synchronized void snapshot(Path file) throws IOException {
        Node n = byPath.get(file);
        if (n == null) {
            untracked.add("fsync of a file the model never saw created: " + file);
            return;
        }
        pending.put(Thread.currentThread().getId() + "|" + file, new Pending(n, ++seq, Files.readAllBytes(file)));
    }

    private synchronized void commit(Path file) {
        Pending p = pending.remove(Thread.currentThread().getId() + "|" + file);
        if (p != null && p.seq() > p.node().durableSeq) {
            p.node().durable = p.content();
            p.node().durableSeq = p.seq();
        }
        event();
    }

    @Override
    public synchronized void created(Path path) {
        Node parent = byPath.get(path.getParent());
        if (parent == null) {
            untracked.add("created in an unknown directory: " + path);
            return;
        }
        Node n = new Node(Files.isDirectory(path), path);
        Node old = byPath.put(path, n);
        if (old != null) {
            old.livePath = null;
        }
        parent.live.put(name(path), n);
        event();
    }

    @Override
    public synchronized void renamed(Path source, Path target) {
        Node n = byPath.remove(source);
        Node from = byPath.get(source.getParent());
        Node to = byPath.get(target.getParent());
        if (n == null || from == null || to == null || n.directory) {
            untracked.add("rename the model cannot follow: " + source + " -> " + target);
            return;
        }
        from.live.remove(name(source));
        Node old = byPath.put(target, n);
        if (old != null) {
            old.livePath = null;
        }
        to.live.put(name(target), n);
        n.livePath = target;
        event();
    }

    @Override
    public synchronized void deleted(Path path) {
        Node n = byPath.remove(path);
        Node parent = byPath.get(path.getParent());
        if (n == null || parent == null) {
            untracked.add("delete of an entry the model never saw created: " + path);
            return;
        }
        parent.live.remove(name(path));
        n.livePath = null;
        event();
    }

    @Override
    public synchronized void afterDirectoryForce(Path directory) {
        Node n = byPath.get(directory);
        if (n == null || !n.directory) {
            untracked.add("fsync of an unknown directory: " + directory);
            return;
        }
        n.durableEntries = new HashMap<>(n.live);
        directoryFsyncs++;
        event();
    }

    private void event() {
        if (capture) {
            captured.add(image(null));
        }
    }

    // ---- cuts ----

    /** From now on (until {@link #takeCaptured}), takes a cut after every reported event. */
    synchronized void captureEveryEvent(boolean on) {
        capture = on;
    }

    synchronized List<Map<String, byte[]>> takeCaptured() {
        List<Map<String, byte[]>> out = new ArrayList<>(captured);
        captured.clear();
        return out;
    }

    synchronized int directoryFsyncs() {
        return directoryFsyncs;
    }

    /**
     * The data directory as a cut now would leave it: relative path to content (null for a directory). With
     * {@code garbage}, a segment log whose node is still live keeps part of its unsynced tail, half of it garbage.
     */
    synchronized Map<String, byte[]> image(Random garbage) {
        Map<String, byte[]> out = new TreeMap<>();
        collect(byPath.get(root), "", garbage, out);
        return out;
    }

    private void collect(Node dir, String prefix, Random garbage, Map<String, byte[]> out) {
        for (Map.Entry<String, Node> e : dir.durableEntries.entrySet()) {
            String rel = prefix + e.getKey();
            Node n = e.getValue();
            if (n.directory) {
                out.put(rel, null);
                collect(n, rel + "/", garbage, out);
                continue;
            }
            byte[] content = n.durable;
            if (garbage != null && rel.endsWith(PartitionDirectory.LOG_SUFFIX) && n.livePath != null) {
                byte[] live = readQuietly(n.livePath);
                if (live.length > content.length) {
                    int durable = content.length;
                    int extra = 1 + garbage.nextInt(live.length - durable);
                    content = Arrays.copyOf(live, durable + extra);
                    System.arraycopy(n.durable, 0, content, 0, durable);
                    for (int i = durable + extra / 2; i < content.length; i++) {
                        content[i] = (byte) garbage.nextInt(); // a torn tail: part written, part garbage
                    }
                }
            }
            out.put(rel, content);
        }
    }

    private static byte[] readQuietly(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            return new byte[0]; // deleted meanwhile
        }
    }

    /** Writes a cut to {@code target} (created). */
    static Path materialize(Map<String, byte[]> image, Path target) throws IOException {
        Files.createDirectories(target);
        for (Map.Entry<String, byte[]> e : image.entrySet()) {
            Path p = target.resolve(e.getKey());
            if (e.getValue() == null) {
                Files.createDirectories(p);
            } else {
                Files.createDirectories(p.getParent());
                Files.write(p, e.getValue());
            }
        }
        return target;
    }

    // ---- self-checks ----

    /** Events the model could not follow (an operation not reported through the hooks). */
    synchronized List<String> untracked() {
        return List.copyOf(untracked);
    }

    /** Differences between the model's live entries and the disk (each is an unreported create or delete). */
    List<String> mismatches() {
        // a committer thread may be between a file operation and its hook: give it up to 200 ms to report it
        AtomicReference<List<String>> last = new AtomicReference<>(List.of());
        try {
            Awaitility.await("the model to match the disk").atMost(Duration.ofMillis(200))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).pollInSameThread()
                    .until(() -> {
                        last.set(compareWithDisk());
                        return last.get().isEmpty();
                    });
        } catch (ConditionTimeoutException stillDifferent) {
            // the caller asserts on what is left
        }
        return last.get();
    }

    private synchronized List<String> compareWithDisk() throws IOException {
        Map<Path, Boolean> disk = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.forEach(p -> disk.put(p, Files.isDirectory(p)));
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<Path, Boolean> e : disk.entrySet()) {
            Node n = byPath.get(e.getKey());
            if (n == null) {
                out.add("on disk, never reported created: " + e.getKey());
            } else if (n.directory != e.getValue()) {
                out.add("type differs: " + e.getKey());
            }
        }
        for (Path p : byPath.keySet()) {
            if (!disk.containsKey(p)) {
                out.add("reported, not on disk: " + p);
            }
        }
        return out;
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }
}
