package io.kaas.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The tarball the package phase built (system properties set by Failsafe in distribution/pom.xml). */
final class Tarball {

    private Tarball() {
    }

    /**
     * Unpacks the tarball under {@code dir} with GNU tar, as an operator would (which proves its
     * layout and file modes), and returns the installation folder, {@code dir/kaas-<version>}.
     */
    static Path unpack(Path dir) throws IOException, InterruptedException {
        Path tarball = Path.of(System.getProperty("kaas.dist.tarball"));
        assertThat(tarball).as("the tarball built by the package phase").isRegularFile();
        Path unpacked = Files.createDirectories(dir.resolve("unpacked"));
        Path tarLog = dir.resolve("tar.log");
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", unpacked.toString())
            .redirectErrorStream(true)
            .redirectOutput(tarLog.toFile())
            .start();
        if (!tar.waitFor(60, TimeUnit.SECONDS)) {
            tar.destroyForcibly();
            throw new AssertionError("tar -xzf " + tarball + " did not finish within 60 s");
        }
        assertThat(tar.exitValue()).as("tar -xzf %s: %s", tarball, Files.readString(tarLog, StandardCharsets.UTF_8))
            .isZero();
        return unpacked.resolve(System.getProperty("kaas.dist.name"));
    }
}
