package io.kaas.plugins.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Enumeration;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Expands a plugin zip into {@code <workDir>/<zip name without .zip>/}, replacing whatever an earlier
 * start left there, so the folder always matches the zip (dropping a new zip in and restarting is
 * enough; removing the zip removes the plugin). Entries that would land outside the folder are refused.
 *
 * <p>A folder already expanded from the very same zip (same size, modification time and entries with their
 * CRC-32s from the zip's central directory, recorded in a stamp file written last) is reused as it is: the
 * RocksDB plugin is an 80 MiB zip, and expanding it at every start would cost every broker start a few
 * hundred milliseconds even when it is not selected. The entries are part of the stamp because reproducible
 * builds give every build of a plugin the same modification time, and a new build may differ from the old one
 * by one byte (its {@code plugin.requires}) at the same size.
 */
final class PluginZip {
    private PluginZip() {
    }

    /** The file, next to the expanded folder, that says which zip it was expanded from. */
    private static final String STAMP_SUFFIX = ".expanded-from";

    static Path expand(Path zip, Path workDir) throws IOException {
        String name = zip.getFileName().toString();
        Path target = workDir.resolve(name.substring(0, name.length() - ".zip".length())).toAbsolutePath().normalize();
        Path stampFile = target.resolveSibling(target.getFileName() + STAMP_SUFFIX);
        String stamp = stamp(zip);
        // Brokers started together from one installation share plugins/.work: one expands, the others wait and reuse.
        java.util.concurrent.locks.ReentrantLock inJvm = EXPANDING.computeIfAbsent(target,
                t -> new java.util.concurrent.locks.ReentrantLock());
        inJvm.lock();
        try {
            Files.createDirectories(workDir);
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(
                    target.resolveSibling(target.getFileName() + ".lock"), java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE);
                 java.nio.channels.FileLock betweenProcesses = channel.lock()) {
                if (Files.isDirectory(target) && Files.isRegularFile(stampFile)
                        && Files.readString(stampFile, StandardCharsets.UTF_8).equals(stamp)) {
                    return target;
                }
                Files.deleteIfExists(stampFile);
                deleteRecursively(target);
                Files.createDirectories(target);
                unzip(zip, target);
                Files.writeString(stampFile, stamp, StandardCharsets.UTF_8);
                return target;
            }
        } finally {
            inJvm.unlock();
        }
    }

    /** The expansions in progress in this JVM, by target folder (file locks are held per process, not per thread). */
    private static final java.util.concurrent.ConcurrentMap<Path, java.util.concurrent.locks.ReentrantLock> EXPANDING =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Identifies one version of the zip: its real path, size, modification time, and a CRC-32 over every entry's
     * name, size and CRC-32 as the central directory records them (read without inflating anything).
     */
    private static String stamp(Path zip) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(zip, BasicFileAttributes.class);
        CRC32 entries = new CRC32();
        try (ZipFile file = new ZipFile(zip.toFile())) {
            Enumeration<? extends ZipEntry> all = file.entries();
            while (all.hasMoreElements()) {
                ZipEntry e = all.nextElement();
                entries.update((e.getName() + "\0" + e.getSize() + "\0" + e.getCrc() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return zip.toRealPath() + "\n" + attrs.size() + "\n" + attrs.lastModifiedTime().toMillis() + "\n"
            + Long.toHexString(entries.getValue()) + "\n";
    }

    private static void unzip(Path zip, Path target) throws IOException {
        try (ZipFile file = new ZipFile(zip.toFile())) {
            Enumeration<? extends ZipEntry> entries = file.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                Path out = target.resolve(entry.getName()).normalize();
                if (!out.startsWith(target)) {
                    throw new IOException("zip entry '" + entry.getName() + "' points outside the plugin folder");
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                    continue;
                }
                Files.createDirectories(out.getParent());
                try (InputStream in = file.getInputStream(entry)) {
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
