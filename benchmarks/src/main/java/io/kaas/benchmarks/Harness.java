package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Runs the same workloads against kaas and Apache Kafka, several rounds, and writes the medians and
 * kaas/Kafka ratios to {@code <out>/<date>.md} and {@code .json}.
 *
 * <pre>
 * java -cp &lt;benchmarks runtime classpath&gt; io.kaas.benchmarks.Harness
 *     --kaas-home distribution/target/kaas-0.1.0-SNAPSHOT [--out benchmarks/results] [--mode full|smoke]
 *     [--rounds N] [--systems kaas,kaas-rocksdb,kaas-tv1,kaas-tls,kafka,kafka-flush1,kafka-tv1,kafka-tls] [--work DIR]
 *     [--workloads all|produce,consume,consume-assigned,e2e,wide,large,txn-produce,txn-e2e,settings] [--name BASENAME]
 * </pre>
 */
public final class Harness {
    static final String KIB_TOPIC = "bench-1k";
    static final String E2E_TOPIC = "bench-e2e";
    static final String WIDE_TOPIC = "bench-wide";
    static final String LARGE_TOPIC = "bench-16k";
    static final String TXN_TOPIC = "bench-txn";
    /** The producer settings users run, each with a topic of its own: Kafka's default batch, and a larger one. */
    static final List<ProducerSetting> SETTINGS = List.of(
            new ProducerSetting("batch.size=16384", "bench-b16k", List.of("batch.size=16384")),
            new ProducerSetting("batch.size=65536 linger.ms=5", "bench-b64k", List.of("batch.size=65536", "linger.ms=5")));

    /** One producer setting of the settings workload: its name in the figures, its topic, its producer properties. */
    record ProducerSetting(String name, String topic, List<String> props) {
    }
    static final String TXN_E2E_TOPIC = "bench-txn-e2e";
    /** The transactional produce workload's name (the prefix of its figures and of its target's). */
    static final String TXN_PRODUCE = "produce 1 KiB x3p transactional " + Sizes.TRANSACTION_MILLIS + " ms";

    private final Sizes sizes;
    private final Workloads workloads;
    private final List<BrokerUnderTest> systems;
    private final Path work;
    private final String classpath;
    private final Results results = new Results();

    Harness(Sizes sizes, List<BrokerUnderTest> systems, Path work, String classpath) {
        this(sizes, Workloads.all(), systems, work, classpath);
    }

    Harness(Sizes sizes, Workloads workloads, List<BrokerUnderTest> systems, Path work, String classpath) {
        this.sizes = sizes;
        this.workloads = workloads;
        results.workloads(workloads.toString());
        this.systems = systems;
        this.work = work;
        this.classpath = classpath;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        Sizes base = "smoke".equals(opts.get("mode")) ? Sizes.smoke() : Sizes.full();
        Sizes sizes = opts.containsKey("rounds") ? base.withRounds(Integer.parseInt(opts.get("rounds"))) : base;
        Path kaasHome = Path.of(opts.getOrDefault("kaas-home", "distribution/target/kaas-0.1.0-SNAPSHOT"));
        Path out = Path.of(opts.getOrDefault("out", "benchmarks/results"));
        Path work = Path.of(opts.getOrDefault("work", Files.createTempDirectory("kaas-bench").toString()));
        String classpath = classpath();
        List<BrokerUnderTest> systems = new ArrayList<>();
        String systemList = opts.getOrDefault("systems", "kaas,kafka,kafka-flush1");
        // One set of certificates for every TLS system of the run: kaas and Kafka serve the same ones.
        TlsMaterial tls = systemList.contains("-tls") ? TlsMaterial.create(work.resolve("tls")) : null;
        for (String s : systemList.split(",")) {
            systems.add(switch (s.trim()) {
                case "kaas" -> new KaasUnderTest(kaasHome.toAbsolutePath(), "segments");
                case "kaas-rocksdb" -> new KaasUnderTest(kaasHome.toAbsolutePath(), "rocksdb");
                case "kafka" -> new KafkaUnderTest(false, classpath);
                case "kafka-flush1" -> new KafkaUnderTest(true, classpath);
                case "kaas-tv1" -> new KaasUnderTest(kaasHome.toAbsolutePath(), "segments", 1);
                case "kafka-tv1" -> new KafkaUnderTest(false, 1, classpath);
                case "kaas-tls" -> new KaasUnderTest(kaasHome.toAbsolutePath(), "segments", 0, tls);
                case "kafka-tls" -> new KafkaUnderTest(false, 0, classpath, tls);
                default -> throw new IllegalArgumentException("unknown system '" + s
                        + "'; known: kaas, kaas-rocksdb, kaas-tv1, kaas-tls, kafka, kafka-flush1, kafka-tv1, kafka-tls");
            });
        }
        Workloads workloads = opts.containsKey("workloads") ? Workloads.parse(opts.get("workloads")) : Workloads.all();
        Harness h = new Harness(sizes, workloads, systems, work, classpath);
        Results r = h.run();
        String name = opts.getOrDefault("name",
                sizes.name().equals("full") ? LocalDate.now().toString() : LocalDate.now() + "-" + sizes.name());
        r.write(out, name, "kaas vs Apache Kafka " + kafkaVersion() + " — " + LocalDate.now(), machine(), sizes);
        System.out.println(r.markdown("kaas vs Apache Kafka", machine(), sizes));
        System.out.println("Results written to " + out.resolve(name + ".md") + " and .json");
    }

    /** Every round runs every system once, in turn. */
    Results run() throws IOException, InterruptedException {
        for (BrokerUnderTest s : systems) {
            results.system(s.label(), s.describe());
        }
        for (int round = 1; round <= sizes.rounds(); round++) {
            for (BrokerUnderTest s : systems) {
                Path dir = Files.createDirectories(work.resolve("round-" + round).resolve(s.label()));
                System.out.printf("== round %d/%d: %s%n", round, sizes.rounds(), s.label());
                settleDisk();
                try {
                    runOne(s, round, dir);
                } catch (IOException e) {
                    results.error(s.label(), round, "start", e);
                    System.out.println("   failed: " + e.getMessage());
                }
                deleteData(dir.resolve("data"));
            }
        }
        return results;
    }

    private void runOne(BrokerUnderTest system, int round, Path dir) throws IOException, InterruptedException {
        double load = ProcStats.loadAverage();
        BrokerUnderTest.Running b = system.start(dir);
        String label = system.label();
        results.add("machine load average (1 min) before start", label, load);
        long pid = b.process().pid();
        try {
            results.add("start-up to first Metadata ms", label, b.startupMillis());
            double cpuAtReady = ProcStats.cpuSeconds(pid);
            long idleUntil = b.firstMetadataNanos() + TimeUnit.SECONDS.toNanos(sizes.idleSeconds());
            TimeUnit.NANOSECONDS.sleep(Math.max(0, idleUntil - System.nanoTime()));
            // Named for the full run's 10 s (Results.TARGETS refers to it); the smoke idles 1 s.
            results.add("RSS after 10 s idle MiB", label, ProcStats.rssMiB(pid));
            results.add("CPU s while idle after start-up", label, ProcStats.cpuSeconds(pid) - cpuAtReady);
            createTopics(b.bootstrap());
            LoadTools tools = new LoadTools(classpath, dir, system.tls());
            if (system.tls() != null) {
                // A TLS run measures what the issue asks over SSL: acks=all / acks=1 produce and consume.
                runTls(system, round, b, tools);
                return;
            }
            int n = sizes.recordsSmall();
            if (workloads.has("produce")) {
                double cpu0 = ProcStats.cpuSeconds(pid);
                step(label, round, "produce 1 KiB x3p acks=all", () -> tools.produce(b.bootstrap(), KIB_TOPIC, n, 1024, "all"));
                step(label, round, "produce 1 KiB x3p acks=1", () -> tools.produce(b.bootstrap(), KIB_TOPIC, n, 1024, "1"));
                double cpu1 = ProcStats.cpuSeconds(pid);
                results.add("CPU s per GB produced", label, (cpu1 - cpu0) / (2.0 * n * 1024 / 1e9));
            }
            if (workloads.has("consume") || workloads.has("consume-assigned")) {
                int passes = sizes.consumePasses();
                double cpu1 = ProcStats.cpuSeconds(pid);
                int consumedPasses = workloads.has("consume") && step(label, round, "consume 1 KiB x3p",
                        () -> medianOf(passes, () -> tools.consume(b.bootstrap(), KIB_TOPIC, 2 * n))) ? passes : 0;
                consumedPasses += workloads.has("consume-assigned") && step(label, round, "consume 1 KiB x3p, assigned (no group)",
                        () -> medianOf(passes, () -> tools.consumeAssigned(b.bootstrap(), KIB_TOPIC, 2 * n))) ? passes : 0;
                double cpu2 = ProcStats.cpuSeconds(pid);
                // Every pass reads the whole topic once; a failed workload (no group support) reads nothing counted.
                results.add("CPU s per GB consumed", label, (cpu2 - cpu1) / (Math.max(1, consumedPasses) * 2.0 * n * 1024 / 1e9));
            }
            if (workloads.has("e2e")) {
                step(label, round, "end-to-end 1 KiB one at a time", () -> tools.endToEnd(b.bootstrap(), E2E_TOPIC,
                        sizes.e2eMessages(), sizes.e2eRecordSize()));
            }
            if (workloads.has("wide")) {
                step(label, round, "produce 1 KiB x" + sizes.widePartitions() + "p acks=all", () -> tools.produce(b.bootstrap(),
                        WIDE_TOPIC, sizes.wideRecords(), 1024, "all"));
                results.add("RSS after " + sizes.widePartitions() + " partitions written MiB", label, ProcStats.rssMiB(pid));
                results.add("live heap after " + sizes.widePartitions() + " partitions written MiB", label,
                        ProcStats.liveHeapMiB(pid));
            }
            if (workloads.has("large")) {
                step(label, round, "produce 16 KiB x3p acks=all", () -> tools.produce(b.bootstrap(), LARGE_TOPIC,
                        sizes.largeRecords(), 16 * 1024, "all"));
            }
            if (workloads.transactional()) {
                results.add("transaction.version finalized", label, finalizedTransactionVersion(b.bootstrap()));
            }
            if (workloads.has("txn-produce")) {
                double cpu0 = ProcStats.cpuSeconds(pid);
                boolean ok = step(label, round, TXN_PRODUCE,
                        () -> tools.produceTransactional(b.bootstrap(), TXN_TOPIC, n, 1024,
                                "bench-txn-" + label + "-" + round, Sizes.TRANSACTION_MILLIS));
                if (ok) {
                    results.add("CPU s per GB produced, transactional", label,
                            (ProcStats.cpuSeconds(pid) - cpu0) / (n * 1024 / 1e9));
                }
            }
            if (workloads.has("txn-e2e")) {
                step(label, round, "end-to-end 1 KiB one transaction each, read_committed",
                        () -> tools.transactionalEndToEnd(b.bootstrap(), TXN_E2E_TOPIC, sizes.e2eMessages(),
                                sizes.e2eRecordSize()));
            }
            if (workloads.has("settings")) {
                for (ProducerSetting setting : SETTINGS) {
                    runSetting(label, round, b, tools, setting, dir);
                }
            }
        } finally {
            b.stop();
        }
    }

    /**
     * One producer setting: {@code recordsSettings} records at acks=all, then as many at acks=1, then read back once,
     * as a user's plain ProducerPerformance / ConsumerPerformance run does. Besides throughput and latency, what the
     * broker process spends: CPU seconds per GB produced (split into the JIT compilers, the GC and the rest, as
     * warm-up is a large share of a run this short) and per GB consumed, and the heap it allocates per MB produced.
     */
    private void runSetting(String label, int round, BrokerUnderTest.Running b, LoadTools tools, ProducerSetting setting,
                            Path dir) throws IOException, InterruptedException {
        int n = sizes.recordsSettings();
        long pid = b.process().pid();
        double gb = 2.0 * n * 1024 / 1e9;
        BrokerAllocations allocations = startAllocations(pid, dir.resolve("jfr-" + setting.topic()));
        ProcStats.CpuSplit before = ProcStats.cpuSplit(pid);
        String prefix = "produce 1 KiB x3p " + setting.name();
        boolean produced = step(label, round, prefix + " acks=all",
                () -> tools.produce(b.bootstrap(), setting.topic(), n, 1024, "all", setting.props()))
                & step(label, round, prefix + " acks=1",
                () -> tools.produce(b.bootstrap(), setting.topic(), n, 1024, "1", setting.props()));
        ProcStats.CpuSplit spent = ProcStats.cpuSplit(pid).minus(before);
        double allocatedMiB = allocations == null ? Double.NaN : allocations.stopMiB();
        if (!produced) {
            return;
        }
        results.add("CPU s per GB produced, " + setting.name(), label, (spent.jit() + spent.gc() + spent.other()) / gb);
        results.add("CPU s per GB produced, " + setting.name() + ": JIT compiler threads", label, spent.jit() / gb);
        results.add("CPU s per GB produced, " + setting.name() + ": GC threads", label, spent.gc() / gb);
        results.add("CPU s per GB produced, " + setting.name() + ": other threads", label, spent.other() / gb);
        results.add("heap MB allocated per MB produced, " + setting.name(), label, allocatedMiB / (gb * 1e9 / (1 << 20)));
        double cpu0 = ProcStats.cpuSeconds(pid);
        if (step(label, round, "consume 1 KiB x3p after " + setting.name(),
                () -> tools.consume(b.bootstrap(), setting.topic(), 2 * n))) {
            results.add("CPU s per GB consumed, after " + setting.name(), label, (ProcStats.cpuSeconds(pid) - cpu0) / gb);
        }
    }

    /** A JFR allocation recording in the broker, or null (and a line saying why) if jcmd cannot start one. */
    private static BrokerAllocations startAllocations(long pid, Path dir) throws InterruptedException {
        try {
            return BrokerAllocations.start(pid, dir);
        } catch (IOException e) {
            System.out.println("   (no allocation figures: " + e.getMessage() + ")");
            return null;
        }
    }

    /** The produce and consume workloads of a TLS system, every client over its SSL listener. */
    private void runTls(BrokerUnderTest system, int round, BrokerUnderTest.Running b, LoadTools tools)
            throws IOException, InterruptedException {
        String label = system.label();
        int n = sizes.recordsSmall();
        long pid = b.process().pid();
        if (workloads.has("produce")) {
            double cpu0 = ProcStats.cpuSeconds(pid);
            step(label, round, "produce 1 KiB x3p acks=all", () -> tools.produce(b.clientBootstrap(), KIB_TOPIC, n, 1024, "all"));
            step(label, round, "produce 1 KiB x3p acks=1", () -> tools.produce(b.clientBootstrap(), KIB_TOPIC, n, 1024, "1"));
            results.add("CPU s per GB produced", label, (ProcStats.cpuSeconds(pid) - cpu0) / (2.0 * n * 1024 / 1e9));
        }
        if (workloads.has("consume") || workloads.has("consume-assigned")) {
            int passes = sizes.consumePasses();
            double cpu1 = ProcStats.cpuSeconds(pid);
            int consumedPasses = workloads.has("consume") && step(label, round, "consume 1 KiB x3p",
                    () -> medianOf(passes, () -> tools.consume(b.clientBootstrap(), KIB_TOPIC, 2 * n))) ? passes : 0;
            consumedPasses += workloads.has("consume-assigned") && step(label, round, "consume 1 KiB x3p, assigned (no group)",
                    () -> medianOf(passes, () -> tools.consumeAssigned(b.clientBootstrap(), KIB_TOPIC, 2 * n))) ? passes : 0;
            results.add("CPU s per GB consumed", label,
                    (ProcStats.cpuSeconds(pid) - cpu1) / (Math.max(1, consumedPasses) * 2.0 * n * 1024 / 1e9));
        }
    }

    interface Step {
        Map<String, Double> run() throws IOException, InterruptedException;
    }

    /** Runs {@code step} {@code passes} times; each figure is the median over the passes. */
    static Map<String, Double> medianOf(int passes, Step step) throws IOException, InterruptedException {
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        for (int i = 0; i < passes; i++) {
            step.run().forEach((k, v) -> samples.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        samples.forEach((k, v) -> medians.put(k, Results.median(v)));
        return medians;
    }

    /** Runs one workload and records its figures; a failure is recorded and the run goes on. */
    private boolean step(String label, int round, String workload, Step step) throws InterruptedException {
        System.out.printf("   %s … ", workload);
        try {
            Map<String, Double> figures = step.run();
            results.addAll(workload, label, figures);
            System.out.println(figures);
            return true;
        } catch (IOException | RuntimeException e) {
            results.error(label, round, workload, e instanceof IOException ? e : new IOException(e.toString(), e));
            System.out.println("failed: " + e.getMessage());
            return false;
        }
    }

    private void createTopics(String bootstrap) throws IOException {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "120000");
        List<NewTopic> topics = new ArrayList<>(List.of(new NewTopic(KIB_TOPIC, 3, (short) 1),
                new NewTopic(E2E_TOPIC, 1, (short) 1), new NewTopic(LARGE_TOPIC, 3, (short) 1)));
        if (workloads.has("wide")) {
            topics.add(new NewTopic(WIDE_TOPIC, sizes.widePartitions(), (short) 1));
        }
        if (workloads.has("settings")) {
            SETTINGS.forEach(setting -> topics.add(new NewTopic(setting.topic(), 3, (short) 1)));
        }
        if (workloads.transactional()) {
            topics.add(new NewTopic(TXN_TOPIC, 3, (short) 1));
            topics.add(new NewTopic(TXN_E2E_TOPIC, 1, (short) 1));
        }
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(topics).all().get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException("cannot create the benchmark topics: " + e.getMessage(), e);
        }
    }

    /**
     * The broker's finalized {@code transaction.version} (DescribeFeatures), which decides whether the
     * 4.x producer runs transactions V2 (KIP-890) or V1; 0 if none is finalized, NaN if the broker did not say.
     */
    private static double finalizedTransactionVersion(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            FinalizedVersionRange v = admin.describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS)
                    .finalizedFeatures().get("transaction.version");
            return v == null ? 0 : v.maxVersionLevel();
        } catch (Exception e) {
            System.out.println("   (no finalized features: " + e.getMessage() + ")");
            return Double.NaN;
        }
    }

    /**
     * {@code sync}, so the next system does not start while the file system still writes back and
     * discards what the previous one wrote and deleted: its first fsync would wait for that.
     */
    private static void settleDisk() throws InterruptedException {
        try {
            Process sync = new ProcessBuilder("sync").inheritIO().start();
            if (!sync.waitFor(120, TimeUnit.SECONDS)) {
                sync.destroyForcibly();
            }
        } catch (IOException e) {
            System.out.println("   (no sync: " + e.getMessage() + ")");
        }
    }

    private static void deleteData(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The class path every child JVM gets: this module's runtime class path. */
    static String classpath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    static String kafkaVersion() {
        return org.apache.kafka.common.utils.internals.AppInfoParser.getVersion();
    }

    static String machine() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(cpu);
        } catch (IOException e) {
            // not Linux
        }
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB max heap for the harness, Java "
                + System.getProperty("java.version") + ", Kafka " + kafkaVersion();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("arguments are --name value pairs: " + Arrays.toString(args));
            }
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }
}
