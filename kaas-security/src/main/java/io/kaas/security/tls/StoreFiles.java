package io.kaas.security.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The key store and trust store files of a listener and what they held when last read: a SHA-256 of their
 * bytes (a rewrite in the same second and of the same size is still seen). Thread-safe.
 */
final class StoreFiles {

    private final List<Path> paths;
    private final Map<Path, byte[]> seen = new HashMap<>();

    private StoreFiles(List<Path> paths) {
        this.paths = List.copyOf(paths);
        paths.forEach(p -> seen.put(p, digest(p)));
    }

    static StoreFiles of(String keyStore, String trustStore) {
        List<Path> paths = new ArrayList<>();
        for (String s : new String[] {keyStore, trustStore}) {
            if (s != null && !s.isBlank()) {
                Path p = Path.of(s.trim()).toAbsolutePath();
                if (!paths.contains(p)) {
                    paths.add(p);
                }
            }
        }
        return new StoreFiles(paths);
    }

    List<Path> paths() {
        return paths;
    }

    /** The files whose content differs from what was accepted last, with their new digests; null if none. */
    synchronized Change changed() {
        Map<Path, byte[]> now = new HashMap<>();
        List<Path> changed = new ArrayList<>();
        for (Path p : paths) {
            byte[] d = digest(p);
            now.put(p, d);
            if (!Arrays.equals(d, seen.get(p))) {
                changed.add(p);
            }
        }
        return changed.isEmpty() ? null : new Change(List.copyOf(changed), now);
    }

    /** Remembers {@code change}'s digests as the current ones. */
    synchronized void accept(Change change) {
        seen.putAll(change.digests());
    }

    /** Files that changed, and every file's digest at that check. */
    record Change(List<Path> paths, Map<Path, byte[]> digests) {
    }

    /** The file's SHA-256, or an empty array when it cannot be read (missing: a change too). */
    private static byte[] digest(Path p) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p));
        } catch (IOException e) {
            return new byte[0];
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }
}
