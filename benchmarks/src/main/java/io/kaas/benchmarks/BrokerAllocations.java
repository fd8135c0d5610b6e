package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Bytes a broker process allocates on its heap over a workload, from a JFR recording started and stopped in it with
 * {@code jcmd} (the same for kaas and Kafka): {@code jdk.ThreadAllocationStatistics} at the start and the end of the
 * recording gives each thread's allocated bytes; the sum of their differences is what the workload cost. Threads that
 * start during the workload count from zero; what a thread that ends during it allocated is not counted (brokers keep
 * their threads, so this is small).
 */
final class BrokerAllocations {
    private static final String NAME = "kaas-bench-alloc";
    private static final String SETTINGS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <configuration version="2.0">
              <event name="jdk.ThreadAllocationStatistics">
                <setting name="enabled">true</setting>
                <setting name="period">everyChunk</setting>
              </event>
            </configuration>
            """;

    private final long pid;
    private final Path dir;

    private BrokerAllocations(long pid, Path dir) {
        this.pid = pid;
        this.dir = dir;
    }

    /** Starts the recording in {@code pid}; its files go under {@code dir}. */
    static BrokerAllocations start(long pid, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path settings = dir.resolve("allocations.jfc");
        Files.writeString(settings, SETTINGS);
        jcmd(pid, "JFR.start", "name=" + NAME, "settings=" + settings.toAbsolutePath());
        return new BrokerAllocations(pid, dir);
    }

    /** Stops the recording and answers the bytes allocated since {@link #start}; NaN if the recording failed. */
    double stopMiB() throws IOException, InterruptedException {
        Path file = dir.resolve("allocations.jfr").toAbsolutePath();
        jcmd(pid, "JFR.stop", "name=" + NAME, "filename=" + file);
        if (!Files.exists(file)) {
            return Double.NaN;
        }
        List<RecordedEvent> samples = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("jdk.ThreadAllocationStatistics")).toList();
        if (samples.isEmpty()) {
            return Double.NaN;
        }
        java.time.Instant first = samples.stream().map(RecordedEvent::getStartTime).min(java.util.Comparator.naturalOrder())
                .orElseThrow();
        Map<Long, List<RecordedEvent>> perThread = new HashMap<>();
        for (RecordedEvent e : samples) {
            long thread = e.getThread("thread") == null ? -1 : e.getThread("thread").getJavaThreadId();
            perThread.computeIfAbsent(thread, t -> new java.util.ArrayList<>()).add(e);
        }
        long total = 0;
        for (List<RecordedEvent> thread : perThread.values()) {
            long min = thread.stream().mapToLong(e -> e.getLong("allocated")).min().orElse(0);
            long max = thread.stream().mapToLong(e -> e.getLong("allocated")).max().orElse(0);
            if (thread.size() > 1) {
                total += max - min;
            } else if (thread.get(0).getStartTime().isAfter(first)) {
                total += max; // started during the recording: from nothing
            } // else: only sampled at the start, it ended during the recording; what it allocated since is lost
        }
        Files.deleteIfExists(file);
        return total / (1024.0 * 1024.0);
    }

    private static void jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("jcmd", Long.toString(pid)));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed: " + out.strip());
        }
    }
}
