package io.kaas.plugins.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Expanding plugin zips into {@code .work/}, and when an earlier expansion is reused. */
class PluginZipTest {
    @TempDir
    Path dir;

    /** A zip of one stored (uncompressed) entry, so two contents of one length give zips of one size. */
    private Path zip(Path out, String properties) throws IOException {
        byte[] bytes = properties.getBytes(StandardCharsets.ISO_8859_1);
        ZipEntry entry = new ZipEntry("plugin.properties");
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(bytes.length);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        entry.setCrc(crc.getValue());
        entry.setTime(0);
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            zip.putNextEntry(entry);
            zip.write(bytes);
            zip.closeEntry();
        }
        Files.setLastModifiedTime(out, FileTime.fromMillis(1_764_374_400_000L));
        return out;
    }

    @Test
    void aRebuiltZipOfTheSameSizeAndTimeIsExpandedAgain() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path zip = plugins.resolve("engine-1.0.zip");
        Path work = plugins.resolve(".work");
        zip(zip, "plugin.id=engine\nplugin.requires=^3.0.0\n");
        Path expanded = PluginZip.expand(zip, work);
        assertThat(Files.readString(expanded.resolve("plugin.properties"))).contains("^3.0.0");
        long size = Files.size(zip);

        // a reproducible build of the next version: same name, size and time, one byte different
        zip(zip, "plugin.id=engine\nplugin.requires=^4.0.0\n");
        assertThat(Files.size(zip)).isEqualTo(size);
        assertThat(Files.readString(PluginZip.expand(zip, work).resolve("plugin.properties"))).contains("^4.0.0");
    }

    @Test
    void theSameZipIsNotExpandedTwice() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path zip = zip(plugins.resolve("engine-1.0.zip"), "plugin.id=engine\n");
        Path work = plugins.resolve(".work");
        Path expanded = PluginZip.expand(zip, work);
        Path marker = Files.writeString(expanded.resolve("marker"), "kept");
        assertThat(PluginZip.expand(zip, work)).isEqualTo(expanded);
        assertThat(marker).exists();
    }

    @Test
    void brokersExpandingOneZipTogetherEachGetTheWholeFolder() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path zip = zip(plugins.resolve("store-1.0.zip"), "plugin.id=store\nplugin.version=1.0\n");
        Path work = plugins.resolve(".work");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<String>> seen = new java.util.ArrayList<>();
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            for (int i = 0; i < 8; i++) {
                seen.add(pool.submit(() -> {
                    start.await();
                    return Files.readString(PluginZip.expand(zip, work).resolve("plugin.properties"));
                }));
            }
            start.countDown();
            for (java.util.concurrent.Future<String> f : seen) {
                assertThat(f.get(30, java.util.concurrent.TimeUnit.SECONDS)).contains("plugin.id=store");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
