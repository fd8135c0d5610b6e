package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * The three-broker workload: kaas brokers from the built distribution on this machine, sharing one data directory and
 * coordinated by a ZooKeeper started from the same distribution ({@code bin/kaas-zookeeper-start.sh}). Measures
 * <ul>
 *   <li>produce throughput (Kafka's ProducerPerformance, acks=all, 1 KiB records, a 6-partition topic) against three
 *       brokers and against one broker in the same cluster mode;</li>
 *   <li>the failover time: from the SIGKILL of a broker that leads partitions to the moment Metadata shows every
 *       partition of the topic led by a live broker (polled every 20 ms through an Admin client of a surviving
 *       broker); median of the rounds, the killed broker restarted between rounds.</li>
 * </ul>
 * <pre>
 * java -cp ... io.kaas.benchmarks.ClusterBench --kaas-home distribution/target/kaas-0.1.0-SNAPSHOT
 *     [--rounds 5] [--records 200000] [--out benchmarks/results] [--name 2026-12-01-cluster] [--work DIR]
 * </pre>
 */
public final class ClusterBench {
    private static final String TOPIC = "cluster-bench";
    private static final int PARTITIONS = 6;
    private static final int RECORD_SIZE = 1024;

    private final Path home;
    private final Path work;
    private final LoadTools load;
    private final int records;
    private Process zookeeper;
    private int zookeeperPort;
    private final Map<Integer, Process> brokers = new HashMap<>();
    private final Map<Integer, Integer> ports = new HashMap<>();

    private ClusterBench(Path home, Path work, String classpath, int records) throws IOException {
        this.home = home;
        this.work = Files.createDirectories(work);
        this.load = new LoadTools(classpath, Files.createDirectories(work.resolve("tools")));
        this.records = records;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        Path home = Path.of(required(opts, "kaas-home")).toAbsolutePath();
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "5"));
        int records = Integer.parseInt(opts.getOrDefault("records", "200000"));
        Path out = Path.of(opts.getOrDefault("out", "benchmarks/results"));
        String name = opts.getOrDefault("name", LocalDate.now() + "-cluster");
        Path work = opts.containsKey("work") ? Path.of(opts.get("work"))
                : Files.createTempDirectory("kaas-cluster-bench");
        ClusterBench bench = new ClusterBench(home, work, System.getProperty("java.class.path"), records);
        try {
            String report = bench.run(rounds);
            Files.createDirectories(out);
            Files.writeString(out.resolve(name + ".md"), report);
            System.out.println(report);
        } finally {
            bench.stopAll();
        }
    }

    private String run(int rounds) throws Exception {
        startZooKeeper();
        Map<String, List<Double>> figures = new LinkedHashMap<>();
        // One broker in cluster mode, then three on the same ensemble (a fresh data directory and chroot each).
        startBroker(1, "one");
        createTopic("one");
        record(figures, "1 broker: produce acks=all records/s",
                load.produce(bootstrap(), TOPIC, records, RECORD_SIZE, "all").get("records/s"));
        stopBrokers();
        for (int id = 1; id <= 3; id++) {
            startBroker(id, "three");
        }
        createTopic("three");
        awaitLeadersOn(Set.of(1, 2, 3), 60_000);
        record(figures, "3 brokers: produce acks=all records/s",
                load.produce(bootstrap(), TOPIC, records, RECORD_SIZE, "all").get("records/s"));
        for (int round = 0; round < rounds; round++) {
            int victim = 1 + (round % 3);
            long killed = kill(victim);
            Set<Integer> live = ports.keySet().stream().filter(id -> id != victim).collect(Collectors.toSet());
            long led = awaitLeadersOn(live, 120_000);
            record(figures, "failover ms (SIGKILL to every partition led)", (led - killed) / 1e6);
            startBroker(victim, "three");
            awaitLeadersOn(Set.of(1, 2, 3), 120_000);
        }
        return report(figures, rounds);
    }

    private static void record(Map<String, List<Double>> figures, String figure, double value) {
        figures.computeIfAbsent(figure, f -> new ArrayList<>()).add(value);
        System.out.printf(Locale.ROOT, "%s: %.1f%n", figure, value);
    }

    private String report(Map<String, List<Double>> figures, int rounds) {
        StringBuilder b = new StringBuilder("# kaas: three brokers on one shared directory\n\n");
        b.append("Three kaas brokers from `").append(home.getFileName()).append("` on this machine (")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores), one data directory, a ZooKeeper ")
                .append("from the distribution; topic of ").append(PARTITIONS).append(" partitions, ")
                .append(records).append(" records of ").append(RECORD_SIZE).append(" B per produce run (ProducerPerformance, ")
                .append("acks=all). Failover: SIGKILL of one broker until Metadata shows every partition led by a live ")
                .append("broker, ").append(rounds).append(" rounds, the killed broker restarted between rounds; ")
                .append("`zookeeper.session.timeout.ms` at its default.\n\n| figure | median | samples |\n|---|---|---|\n");
        figures.forEach((figure, samples) -> b.append("| ").append(figure).append(" | ")
                .append(String.format(Locale.ROOT, "%.1f", median(samples))).append(" | ")
                .append(samples.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).collect(Collectors.joining(", ")))
                .append(" |\n"));
        List<Double> one = figures.get("1 broker: produce acks=all records/s");
        List<Double> three = figures.get("3 brokers: produce acks=all records/s");
        if (one != null && three != null) {
            b.append(String.format(Locale.ROOT, "%nThree brokers / one broker, produce records/s: %.2f%n",
                    median(three) / median(one)));
        }
        return b.toString();
    }

    static double median(List<Double> samples) {
        double[] s = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    // ---- processes ----

    private void startZooKeeper() throws IOException, InterruptedException {
        zookeeperPort = BrokerUnderTest.freePort();
        Path dir = Files.createDirectories(work.resolve("zookeeper"));
        Path config = dir.resolve("zookeeper.properties");
        Files.writeString(config, "dataDir=" + dir.resolve("data") + "\nclientPort=" + zookeeperPort
                + "\nclientPortAddress=127.0.0.1\ntickTime=2000\nadmin.enableServer=false\n"
                + "4lw.commands.whitelist=srvr\nmaxClientCnxns=0\n");
        zookeeper = new ProcessBuilder("bash", home.resolve("bin/kaas-zookeeper-start.sh").toString(), config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("zookeeper.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!FourLetterWord.serving(zookeeperPort)) {
            if (!zookeeper.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("ZooKeeper did not start: see " + dir.resolve("zookeeper.log"));
            }
            Thread.sleep(100);
        }
    }

    private void startBroker(int id, String cluster) throws IOException, InterruptedException {
        int port = ports.containsKey(id) ? ports.get(id) : BrokerUnderTest.freePort();
        Path dir = Files.createDirectories(work.resolve(cluster).resolve("broker-" + id));
        Path data = Files.createDirectories(work.resolve(cluster).resolve("data"));
        List<String> cmd = List.of("bash", home.resolve("bin/kaas-server-start.sh").toString(),
                home.resolve("config/server.properties").toString(),
                "--override", "node.id=" + id,
                "--override", "log.dirs=" + data,
                "--override", "listeners=PLAINTEXT://127.0.0.1:" + port,
                "--override", "admin.listener=http://127.0.0.1:0",
                "--override", "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "--override", "cluster.store=zookeeper",
                "--override", "zookeeper.connect=127.0.0.1:" + zookeeperPort + "/" + cluster,
                "--override", "auto.create.topics.enable=false");
        long started = System.nanoTime();
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.log").toFile())).start();
        MetadataProbe.awaitFirstMetadata(port, started + TimeUnit.SECONDS.toNanos(120), p);
        brokers.put(id, p);
        ports.put(id, port);
    }

    /** SIGKILL; returns System.nanoTime() right after the signal was sent. */
    private long kill(int id) throws InterruptedException {
        Process p = brokers.remove(id);
        p.destroyForcibly();
        long at = System.nanoTime();
        p.waitFor(30, TimeUnit.SECONDS);
        return at;
    }

    private void stopBrokers() throws InterruptedException {
        for (Process p : brokers.values()) {
            p.destroy();
        }
        for (Process p : brokers.values()) {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        brokers.clear();
        ports.clear();
    }

    private void stopAll() throws InterruptedException {
        stopBrokers();
        if (zookeeper != null) {
            zookeeper.destroy();
            if (!zookeeper.waitFor(30, TimeUnit.SECONDS)) {
                zookeeper.destroyForcibly();
            }
        }
    }

    // ---- the cluster as a client sees it ----

    private String bootstrap() {
        return brokers.keySet().stream().map(id -> "127.0.0.1:" + ports.get(id)).collect(Collectors.joining(","));
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "4000");
        p.put(AdminClientConfig.METADATA_MAX_AGE_CONFIG, "100");
        p.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "20");
        return Admin.create(p);
    }

    private void createTopic(String cluster) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        System.out.println(cluster + ": topic " + TOPIC + " created");
    }

    /**
     * Polls Metadata every 20 ms until every partition of the topic is led by one of {@code live}, and (with all three
     * live) each of them leads at least one; returns System.nanoTime() when first seen so.
     */
    private long awaitLeadersOn(Set<Integer> live, long timeoutMs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try (Admin admin = admin()) {
            while (System.nanoTime() < deadline) {
                try {
                    TopicDescription d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(4, TimeUnit.SECONDS)
                            .get(TOPIC);
                    long now = System.nanoTime();
                    Set<Integer> leaders = d.partitions().stream().map(TopicPartitionInfo::leader)
                            .map(n -> n == null || n.isEmpty() ? -1 : n.id()).collect(Collectors.toSet());
                    if (live.containsAll(leaders) && (live.size() < 3 || leaders.containsAll(live))) {
                        return now;
                    }
                } catch (Exception notYet) {
                    // a broker of the bootstrap list is down, or Metadata is refreshing: poll again
                }
                Thread.sleep(20);
            }
        }
        throw new IOException("partitions of " + TOPIC + " not all led by " + live + " within " + timeoutMs + " ms");
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("arguments are --name value pairs: " + Arrays.toString(args));
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        return opts;
    }

    private static String required(Map<String, String> opts, String key) {
        String v = opts.get(key);
        if (v == null) {
            throw new IllegalArgumentException("--" + key + " is required");
        }
        return v;
    }

    /**
     * ZooKeeper's {@code srvr} four-letter word: a server that serves answers with its mode ({@code ruok} is answered
     * {@code imok} before the server serves, and even after its start-up failed).
     */
    static final class FourLetterWord {
        private FourLetterWord() {
        }

        static boolean serving(int port) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
                s.setSoTimeout(1000);
                s.getOutputStream().write("srvr".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.shutdownOutput();
                return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII)
                        .contains("Mode: standalone");
            } catch (IOException e) {
                return false;
            }
        }
    }
}
