package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kafka's own load generators from {@code kafka-tools}, each run as a separate JVM against the broker
 * under test, their summary lines parsed into figures.
 */
final class LoadTools {
    private static final Pattern PRODUCER_SUMMARY = Pattern.compile(
            "(\\d+) records sent, ([\\d.]+) records/sec \\(([\\d.]+) MB/sec\\), ([\\d.]+) ms avg latency, "
                    + "([\\d.]+) ms max latency, (\\d+) ms 50th, (\\d+) ms 95th, (\\d+) ms 99th, (\\d+) ms 99.9th");
    private static final Pattern ASSIGNED_SUMMARY = Pattern.compile("MB\\.sec=([\\d.]+) nMsg\\.sec=([\\d.]+)");
    private static final Pattern E2E_AVG = Pattern.compile("Avg latency: ([\\d.]+) ms");
    private static final Pattern E2E_PERCENTILES = Pattern.compile("50th = (\\d+), 99th = (\\d+), 99.9th = (\\d+)");
    private static final Pattern TXN_E2E_SUMMARY = Pattern.compile("txn-e2e: messages=\\d+ avg=([\\d.]+) p50=([\\d.]+) "
            + "p99=([\\d.]+) p999=([\\d.]+) commit\\.avg=([\\d.]+) commit\\.p99=([\\d.]+)");

    private final String classpath;
    private final Path logDir;
    private final TlsMaterial tls;
    private int runs;

    LoadTools(String classpath, Path logDir) {
        this(classpath, logDir, null);
    }

    /** @param tls with it, {@link #produce}, {@link #consume} and {@link #consumeAssigned} connect over SSL */
    LoadTools(String classpath, Path logDir, TlsMaterial tls) {
        this.classpath = classpath;
        this.logDir = logDir;
        this.tls = tls;
    }

    /** ProducerPerformance at full speed; figures: records/s, MB/s, latency avg/p50/p99/p999 (ms). */
    Map<String, Double> produce(String bootstrap, String topic, int records, int recordSize, String acks)
            throws IOException, InterruptedException {
        return produce(bootstrap, topic, records, recordSize, acks, List.of());
    }

    /** As {@link #produce(String, String, int, int, String)}, with producer properties ({@code batch.size=65536}). */
    Map<String, Double> produce(String bootstrap, String topic, int records, int recordSize, String acks,
                                List<String> producerProps) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--topic", topic,
                "--num-records", Integer.toString(records), "--record-size", Integer.toString(recordSize),
                "--throughput", "-1", "--producer-props", "bootstrap.servers=" + bootstrap, "acks=" + acks));
        args.addAll(producerProps);
        if (tls != null) {
            tls.clientProperties().forEach((k, v) -> args.add(k + "=" + v));
        }
        return producerPerformance(args);
    }

    /**
     * ProducerPerformance as a transactional producer ({@code --transactional-id}): it commits a
     * transaction every {@code transactionMillis} and once at the end; the transactional producer
     * implies {@code acks=all} and idempotence. Same figures as {@link #produce}.
     */
    Map<String, Double> produceTransactional(String bootstrap, String topic, int records, int recordSize,
                                             String transactionalId, int transactionMillis)
            throws IOException, InterruptedException {
        return producerPerformance(List.of("--topic", topic,
                "--num-records", Integer.toString(records), "--record-size", Integer.toString(recordSize),
                "--throughput", "-1", "--transactional-id", transactionalId,
                "--transaction-duration-ms", Integer.toString(transactionMillis),
                "--producer-props", "bootstrap.servers=" + bootstrap));
    }

    private Map<String, Double> producerPerformance(List<String> args) throws IOException, InterruptedException {
        String out = run("org.apache.kafka.tools.ProducerPerformance", args);
        Matcher m = lastMatch(PRODUCER_SUMMARY, out);
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("records/s", Double.parseDouble(m.group(2)));
        f.put("MB/s", Double.parseDouble(m.group(3)));
        f.put("latency avg ms", Double.parseDouble(m.group(4)));
        f.put("latency p50 ms", Double.parseDouble(m.group(6)));
        f.put("latency p99 ms", Double.parseDouble(m.group(8)));
        f.put("latency p999 ms", Double.parseDouble(m.group(9)));
        return f;
    }

    /** ConsumerPerformance (a consumer group subscribed to the topic); figures: MB/s and records/s while fetching. */
    Map<String, Double> consume(String bootstrap, String topic, int records) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", bootstrap,
                "--topic", topic, "--messages", Integer.toString(records), "--group", "bench-" + System.nanoTime(),
                "--timeout", "60000"));
        if (tls != null) {
            args.addAll(List.of("--consumer.config", tls.clientConfig.toString()));
        }
        String out = run("org.apache.kafka.tools.ConsumerPerformance", args);
        String[] lines = out.strip().split("\n");
        int headerAt = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("start.time")) {
                headerAt = i;
            }
        }
        int valuesAt = -1;
        String[] names = headerAt < 0 ? new String[0] : lines[headerAt].split(",\\s*");
        for (int i = headerAt + 1; headerAt >= 0 && i < lines.length; i++) {
            if (lines[i].split(",\\s*").length == names.length) {
                valuesAt = i;
                break;
            }
        }
        if (valuesAt < 0) {
            throw new IOException("no ConsumerPerformance summary in: " + tail(out));
        }
        String[] values = lines[valuesAt].split(",\\s*");
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(names.length, values.length); i++) {
            row.put(names[i].trim(), values[i].trim());
        }
        double consumed = Double.parseDouble(row.get("data.consumed.in.nMsg"));
        if (consumed < records) {
            throw new IOException("ConsumerPerformance read " + consumed + " of " + records + " records");
        }
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("MB/s", Double.parseDouble(row.get("fetch.MB.sec")));
        f.put("records/s", Double.parseDouble(row.get("fetch.nMsg.sec")));
        f.put("MB/s incl. group join", Double.parseDouble(row.get("MB.sec")));
        return f;
    }

    /** {@link AssignedConsumerPerformance}: the consumer without a group; figures: MB/s and records/s. */
    Map<String, Double> consumeAssigned(String bootstrap, String topic, int records) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(bootstrap, topic, Integer.toString(records)));
        if (tls != null) {
            args.add(tls.clientConfig.toString());
        }
        String out = run(AssignedConsumerPerformance.class.getName(), args);
        Matcher m = lastMatch(ASSIGNED_SUMMARY, out);
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("MB/s", Double.parseDouble(m.group(1)));
        f.put("records/s", Double.parseDouble(m.group(2)));
        return f;
    }

    /** EndToEndLatency: one record at a time, produced then consumed; figures in ms. */
    Map<String, Double> endToEnd(String bootstrap, String topic, int messages, int size)
            throws IOException, InterruptedException {
        // The tool prints its figures, then closes its consumer, which on a broker without group
        // coordination (no FindCoordinator) fails after the measurement: the figures printed still hold.
        String out = run("org.apache.kafka.tools.EndToEndLatency", List.of(bootstrap, topic,
                Integer.toString(messages), "1", Integer.toString(size)), E2E_PERCENTILES);
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("latency avg ms", Double.parseDouble(lastMatch(E2E_AVG, out).group(1)));
        Matcher p = lastMatch(E2E_PERCENTILES, out);
        f.put("latency p50 ms", Double.parseDouble(p.group(1)));
        f.put("latency p99 ms", Double.parseDouble(p.group(2)));
        f.put("latency p999 ms", Double.parseDouble(p.group(3)));
        return f;
    }

    /**
     * {@link TransactionalEndToEndLatency}: one record per transaction, read back with read_committed;
     * figures in ms: send to visible (avg/p50/p99/p999) and the commit call (avg/p99).
     */
    Map<String, Double> transactionalEndToEnd(String bootstrap, String topic, int messages, int size)
            throws IOException, InterruptedException {
        String out = run(TransactionalEndToEndLatency.class.getName(), List.of(bootstrap, topic,
                Integer.toString(messages), Integer.toString(size)));
        Matcher m = lastMatch(TXN_E2E_SUMMARY, out);
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("latency avg ms", Double.parseDouble(m.group(1)));
        f.put("latency p50 ms", Double.parseDouble(m.group(2)));
        f.put("latency p99 ms", Double.parseDouble(m.group(3)));
        f.put("latency p999 ms", Double.parseDouble(m.group(4)));
        f.put("commit avg ms", Double.parseDouble(m.group(5)));
        f.put("commit p99 ms", Double.parseDouble(m.group(6)));
        return f;
    }

    private String run(String mainClass, List<String> args) throws IOException, InterruptedException {
        return run(mainClass, args, null);
    }

    /** Runs a tool; a non-zero exit is a failure unless {@code summaryDespiteExit} matches its output. */
    private String run(String mainClass, List<String> args, Pattern summaryDespiteExit)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(BrokerUnderTest.javaBin(), "-Xmx768m", "-cp", classpath, mainClass));
        cmd.addAll(args);
        Path log = logDir.resolve(String.format("tool-%03d-%s.log", ++runs, mainClass.substring(mainClass.lastIndexOf('.') + 1)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException(mainClass + " timed out, see " + log);
        }
        String out = Files.readString(log);
        if (p.exitValue() != 0 && (summaryDespiteExit == null || !summaryDespiteExit.matcher(out).find())) {
            throw new IOException(mainClass + " exited " + p.exitValue() + ": " + tail(out));
        }
        return out;
    }

    private static Matcher lastMatch(Pattern pattern, String out) throws IOException {
        Matcher m = pattern.matcher(out);
        MatchResultHolder last = null;
        while (m.find()) {
            last = new MatchResultHolder(m.start());
        }
        if (last == null) {
            throw new IOException("no line matching " + pattern + " in: " + tail(out));
        }
        Matcher again = pattern.matcher(out);
        again.find(last.start());
        return again;
    }

    private record MatchResultHolder(int start) {
    }

    /** The last two lines that are not logging set-up chatter, for the report's failure list. */
    private static String tail(String s) {
        List<String> lines = s.strip().lines().filter(l -> !l.isBlank() && !l.contains("|-INFO")
                && !l.contains("|-WARN") && !l.startsWith("\t")).toList();
        String t = String.join(" / ", lines.subList(Math.max(0, lines.size() - 2), lines.size()));
        return t.length() > 400 ? "…" + t.substring(t.length() - 400) : t;
    }
}
