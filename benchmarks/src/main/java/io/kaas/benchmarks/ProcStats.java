package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Footprint of a running broker from /proc (Linux) and jcmd. */
final class ProcStats {
    private static final double TICKS_PER_SECOND = 100.0; // getconf CLK_TCK on Linux
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total\\s+(\\d+)K,\\s+used\\s+(\\d+)K");

    private ProcStats() {
    }

    /** Resident set size in MiB. */
    static double rssMiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        throw new IOException("no VmRSS for pid " + pid);
    }

    /** User + system CPU seconds consumed so far by the process (all its threads). */
    static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // After "pid (comm) ", field 3 (state) is f[0]; utime is field 14 → f[11], stime field 15 → f[12].
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
    }

    /**
     * CPU seconds of the process so far, split by what its threads do: the JIT compilers ({@code C1/C2 CompilerThre…}),
     * the garbage collector ({@code GC Thread#…}, {@code G1 …}), and everything else (the broker's own work). JIT
     * warm-up is a large share of a short run's CPU on both brokers, so it is shown apart.
     */
    static CpuSplit cpuSplit(long pid) throws IOException {
        double jit = 0;
        double gc = 0;
        double other = 0;
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (var threads = Files.list(tasks)) {
            for (Path t : threads.toList()) {
                String name;
                String stat;
                try {
                    name = Files.readString(t.resolve("comm")).strip();
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                double seconds = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
                if (name.contains("CompilerThre")) {
                    jit += seconds;
                } else if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
                    gc += seconds;
                } else {
                    other += seconds;
                }
            }
        }
        return new CpuSplit(jit, gc, other);
    }

    /** CPU seconds by thread role; see {@link #cpuSplit}. Threads that ended are not counted. */
    record CpuSplit(double jit, double gc, double other) {
        CpuSplit minus(CpuSplit before) {
            return new CpuSplit(jit - before.jit, gc - before.gc, other - before.other);
        }
    }

    /**
     * The machine's 1-minute load average ({@code /proc/loadavg}); NaN off Linux. Taken before a broker
     * starts, it shows how busy the machine was with other work (on 2 cores, anything above about 1
     * means the broker and its load generator shared the cores with someone else).
     */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Heap in use in MiB after a full GC (the live set), from {@code jcmd}; NaN if jcmd fails. */
    static double liveHeapMiB(long pid) {
        try {
            run(List.of("jcmd", Long.toString(pid), "GC.run"));
            String out = run(List.of("jcmd", Long.toString(pid), "GC.heap_info"));
            Matcher m = HEAP_USED.matcher(out);
            return m.find() ? Long.parseLong(m.group(2)) / 1024.0 : Double.NaN;
        } catch (IOException | InterruptedException e) {
            return Double.NaN;
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
