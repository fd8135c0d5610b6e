package io.kaas.benchmarks;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The workloads a run selects ({@code --workloads produce,txn-produce,...}); start-up and idle
 * footprint are measured in every run. {@code consume} and {@code consume-assigned} read back what
 * {@code produce} wrote, so they need it.
 */
record Workloads(Set<String> names) {
    /** Every workload, in the order a round runs them. */
    static final List<String> ALL = List.of("produce", "consume", "consume-assigned", "e2e", "wide", "large",
            "txn-produce", "txn-e2e", "settings");

    static Workloads all() {
        return new Workloads(new LinkedHashSet<>(ALL));
    }

    /** Parses a comma-separated list; {@code all} selects every workload. */
    static Workloads parse(String list) {
        Set<String> names = new LinkedHashSet<>();
        for (String raw : list.split(",")) {
            String n = raw.trim();
            if (n.equals("all")) {
                names.addAll(ALL);
            } else if (ALL.contains(n)) {
                names.add(n);
            } else {
                throw new IllegalArgumentException("unknown workload '" + n + "'; known: all, " + String.join(", ", ALL));
            }
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("--workloads selects nothing; known: all, " + String.join(", ", ALL));
        }
        if ((names.contains("consume") || names.contains("consume-assigned")) && !names.contains("produce")) {
            throw new IllegalArgumentException("consume and consume-assigned read what produce writes: add produce to --workloads");
        }
        return new Workloads(names);
    }

    boolean has(String name) {
        return names.contains(name);
    }

    boolean transactional() {
        return has("txn-produce") || has("txn-e2e");
    }

    @Override
    public String toString() {
        return String.join(",", names);
    }
}
