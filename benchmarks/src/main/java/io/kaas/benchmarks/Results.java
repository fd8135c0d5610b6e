package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Samples per figure and system; medians, ratios against Kafka and the targets; Markdown and JSON. */
final class Results {

    /**
     * A target on the ratio of one figure between a kaas system ({@code kaas} unless named) and a Kafka one:
     * {@code ratio >= min} or {@code ratio <= max}.
     */
    record Target(String figure, String system, String against, double bound, boolean atLeast, String text) {
        Target(String figure, String against, double bound, boolean atLeast, String text) {
            this(figure, "kaas", against, bound, atLeast, text);
        }

        boolean met(double ratio) {
            return atLeast ? ratio >= bound : ratio <= bound;
        }
    }

    static final List<Target> TARGETS = withSettingTargets(List.of(
            new Target("produce 1 KiB x3p acks=all: records/s", "kafka", 1.0, true,
                    "acks=all records/s (kaas fsyncs) >= Kafka default (no fsync)"),
            new Target("produce 1 KiB x3p acks=all: records/s", "kafka-flush1", 1.5, true,
                    "acks=all records/s >= 1.5x Kafka with flush.messages=1"),
            new Target("consume 1 KiB x3p: MB/s", "kafka", 1.2, true, "consume MB/s (ConsumerPerformance) >= 1.2x Kafka"),
            new Target("consume 1 KiB x3p, assigned (no group): MB/s", "kafka", 1.2, true,
                    "consume MB/s (assigned consumer) >= 1.2x Kafka"),
            new Target("produce 1 KiB x3p acks=all: latency p99 ms", "kafka", 1.0, false,
                    "p99 produce latency (acks=all) no worse than Kafka's"),
            new Target("produce 1 KiB x3p acks=1: latency p99 ms", "kafka", 1.0, false,
                    "p99 produce latency (acks=1) no worse than Kafka's"),
            new Target(Harness.TXN_PRODUCE + ": records/s", "kafka", 1.5, true,
                    "transactional produce records/s (kaas fsyncs) >= 1.5x Kafka default (no fsync)"),
            new Target(Harness.TXN_PRODUCE + ": records/s", "kafka-flush1", 1.5, true,
                    "transactional produce records/s >= 1.5x Kafka with flush.messages=1"),
            new Target("produce 1 KiB x3p acks=all: records/s", "kaas-tls", "kafka-tls", 1.5, true,
                    "over TLS: acks=all records/s (kaas fsyncs) >= 1.5x Kafka default (no fsync)"),
            new Target("consume 1 KiB x3p: MB/s", "kaas-tls", "kafka-tls", 1.2, true,
                    "over TLS: consume MB/s (ConsumerPerformance) >= 1.2x Kafka"),
            new Target("consume 1 KiB x3p, assigned (no group): MB/s", "kaas-tls", "kafka-tls", 1.2, true,
                    "over TLS: consume MB/s (assigned consumer) >= 1.2x Kafka"),
            new Target("start-up to first Metadata ms", "kafka", 0.25, false, "start-up <= 1/4 of Kafka's"),
            new Target("RSS after 10 s idle MiB", "kafka", 1.0 / 3, false, "idle RSS <= 1/3 of Kafka's")));

    /** {@code base} and, per producer setting of the settings workload, the performance issue's targets. */
    private static List<Target> withSettingTargets(List<Target> base) {
        List<Target> all = new ArrayList<>(base);
        for (Harness.ProducerSetting setting : Harness.SETTINGS) {
            String s = setting.name();
            all.add(new Target("produce 1 KiB x3p " + s + " acks=all: records/s", "kafka", 2.0, true,
                    s + ": acks=all records/s (kaas fsyncs) >= 2x Kafka default"));
            all.add(new Target("produce 1 KiB x3p " + s + " acks=1: records/s", "kafka", 1.3, true,
                    s + ": acks=1 records/s >= 1.3x Kafka"));
            all.add(new Target("produce 1 KiB x3p " + s + " acks=all: latency p99 ms", "kafka", 0.5, false,
                    s + ": acks=all p99 latency <= 0.5x Kafka's"));
            all.add(new Target("CPU s per GB produced, " + s, "kafka", 0.35, false,
                    s + ": broker CPU s per GB produced <= 0.35x Kafka's"));
            all.add(new Target("CPU s per GB consumed, after " + s, "kafka", 0.5, false,
                    s + ": broker CPU s per GB consumed <= 0.5x Kafka's"));
        }
        return List.copyOf(all);
    }

    private final Map<String, Map<String, List<Double>>> samples = new LinkedHashMap<>();
    private final List<String> errors = new ArrayList<>();
    private final List<String> systems = new ArrayList<>();
    private final Map<String, String> descriptions = new LinkedHashMap<>();
    private String workloads = Workloads.all().toString();

    /** The workloads the run selected, named in the report. */
    void workloads(String names) {
        this.workloads = names;
    }

    void system(String label, String description) {
        if (!systems.contains(label)) {
            systems.add(label);
            descriptions.put(label, description);
        }
    }

    void add(String figure, String system, double value) {
        samples.computeIfAbsent(figure, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                .add(value);
    }

    void addAll(String prefix, String system, Map<String, Double> figures) {
        figures.forEach((k, v) -> add(prefix + ": " + k, system, v));
    }

    void error(String system, int round, String what, Exception e) {
        errors.add(system + " round " + round + ", " + what + ": " + e.getMessage());
    }

    List<String> errors() {
        return errors;
    }

    double median(String figure, String system) {
        List<Double> v = samples.getOrDefault(figure, Map.of()).get(system);
        return v == null ? Double.NaN : median(v);
    }

    /** The median of {@code values}; NaN if there are none. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(values);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    String markdown(String title, String machine, Sizes sizes) {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(title).append("\n\n");
        b.append("Machine: ").append(machine).append(". Mode `").append(sizes.name()).append("`, ")
                .append(sizes.rounds()).append(" round(s); every figure is the median over rounds. ")
                .append("Brokers and load generators are separate JVMs on loopback, run one system after the other ")
                .append("within each round; each round starts each broker afresh on an empty data dir. ")
                .append("Workloads: `").append(workloads).append("`.\n\n");
        for (String s : systems) {
            b.append("- **").append(s).append("**: ").append(descriptions.get(s)).append('\n');
        }
        List<String[]> ratios = ratioColumns();
        b.append("\n| figure |");
        systems.forEach(s -> b.append(' ').append(s).append(" |"));
        ratios.forEach(r -> b.append(' ').append(r[0]).append('/').append(r[1]).append(" |"));
        b.append("\n|---|");
        systems.forEach(s -> b.append("---:|"));
        ratios.forEach(r -> b.append("---:|"));
        b.append('\n');
        for (String figure : samples.keySet()) {
            b.append("| ").append(figure).append(" |");
            for (String s : systems) {
                b.append(' ').append(fmt(median(figure, s))).append(" |");
            }
            for (String[] r : ratios) {
                b.append(' ').append(fmt(median(figure, r[0]) / median(figure, r[1]))).append(" |");
            }
            b.append('\n');
        }
        b.append("\n## Targets (kaas/Kafka ratios, same run, same machine)\n\n| target | ratio | met |\n|---|---:|:---:|\n");
        for (Target t : TARGETS) {
            double ratio = median(t.figure(), t.system()) / median(t.figure(), t.against());
            b.append("| ").append(t.text()).append(" | ").append(fmt(ratio)).append(" | ")
                    .append(Double.isNaN(ratio) ? "n/a" : t.met(ratio) ? "yes" : "**no**").append(" |\n");
        }
        if (!errors.isEmpty()) {
            b.append("\n## Failures during the run\n\n");
            errors.forEach(e -> b.append("- ").append(e.replace('\n', ' ')).append('\n'));
        }
        return b.toString();
    }

    /**
     * The ratio columns, as {numerator, denominator}: {@code kaas} against every other system (or, in a
     * run without {@code kaas}, the first kaas variant against the others), and each variant against
     * its Kafka counterpart ({@code kaas-tv1/kafka-tv1}).
     */
    List<String[]> ratioColumns() {
        List<String[]> columns = new ArrayList<>();
        String reference = systems.contains("kaas") ? "kaas"
                : systems.stream().filter(s -> s.startsWith("kaas")).findFirst().orElse(null);
        if (reference != null) {
            systems.stream().filter(s -> !s.equals(reference)).forEach(s -> columns.add(new String[] {reference, s}));
        }
        for (String s : systems) {
            String counterpart = "kafka" + s.substring("kaas".length());
            if (s.startsWith("kaas-") && systems.contains(counterpart) && !s.equals(reference)) {
                columns.add(new String[] {s, counterpart});
            }
        }
        return columns;
    }

    String json(String machine, Sizes sizes) {
        StringBuilder b = new StringBuilder("{\n");
        b.append("  \"machine\": ").append(str(machine)).append(",\n");
        b.append("  \"mode\": ").append(str(sizes.name())).append(",\n  \"rounds\": ").append(sizes.rounds()).append(",\n");
        b.append("  \"workloads\": ").append(str(workloads)).append(",\n");
        b.append("  \"systems\": {");
        int i = 0;
        for (String s : systems) {
            b.append(i++ > 0 ? ", " : "").append(str(s)).append(": ").append(str(descriptions.get(s)));
        }
        b.append("},\n  \"figures\": {\n");
        int f = 0;
        for (var e : samples.entrySet()) {
            b.append(f++ > 0 ? ",\n" : "").append("    ").append(str(e.getKey())).append(": {");
            int j = 0;
            for (String s : systems) {
                List<Double> v = e.getValue().getOrDefault(s, List.of());
                b.append(j++ > 0 ? ", " : "").append(str(s)).append(": {\"median\": ").append(num(median(e.getKey(), s)))
                        .append(", \"samples\": [");
                for (int k = 0; k < v.size(); k++) {
                    b.append(k > 0 ? ", " : "").append(num(v.get(k)));
                }
                b.append("]}");
            }
            b.append('}');
        }
        b.append("\n  },\n  \"targets\": [\n");
        for (int t = 0; t < TARGETS.size(); t++) {
            Target target = TARGETS.get(t);
            double ratio = median(target.figure(), "kaas") / median(target.figure(), target.against());
            b.append(t > 0 ? ",\n" : "").append("    {\"target\": ").append(str(target.text())).append(", \"ratio\": ")
                    .append(num(ratio)).append(", \"met\": ").append(Double.isNaN(ratio) ? "null" : target.met(ratio))
                    .append('}');
        }
        b.append("\n  ],\n  \"errors\": [");
        for (int e = 0; e < errors.size(); e++) {
            b.append(e > 0 ? ", " : "").append(str(errors.get(e)));
        }
        return b.append("]\n}\n").toString();
    }

    void write(Path dir, String baseName, String title, String machine, Sizes sizes) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(baseName + ".md"), markdown(title, machine, sizes));
        Files.writeString(dir.resolve(baseName + ".json"), json(machine, sizes));
    }

    private static String fmt(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static String str(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
