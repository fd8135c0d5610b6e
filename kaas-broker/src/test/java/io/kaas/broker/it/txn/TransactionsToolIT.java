package io.kaas.broker.it.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.tools.TransactionsCommand;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's {@code kafka-transactions} tool ({@link TransactionsCommand}, from kafka-tools) against the broker:
 * {@code list}, {@code describe}, {@code describe-producers}, {@code find-hanging} and {@code abort}, checking the
 * tables it prints. A transaction committed ({@code tool-done}) and one left open ({@code tool-open}) are the
 * fixtures.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TransactionsToolIT {
    private static final String TOPIC = "tool-t";

    @TempDir
    static Path dir;
    static TxnBroker target;
    static KafkaClients broker;
    static KafkaProducer<String, String> open;

    /** Exit.exit(code, message) from the tool, instead of System.exit. */
    static final class ToolExit extends RuntimeException {
        final int code;

        ToolExit(int code, String message) {
            super("exit " + code + ": " + message);
            this.code = code;
        }
    }

    @BeforeAll
    static void start() throws Exception {
        Exit.setExitProcedure((code, message) -> {
            throw new ToolExit(code, message);
        });
        target = TxnBroker.start(TestBroker.builder(dir).config("auto.create.topics.enable", "false"));
        broker = target.clients;
        broker.createTopic(TOPIC, 2);
        try (KafkaProducer<String, String> done = Txn.producer(broker, "tool-done")) {
            done.initTransactions();
            done.beginTransaction();
            done.send(new ProducerRecord<>(TOPIC, 0, "k", "done")).get(20, TimeUnit.SECONDS); // offset 0, COMMIT at 1
            done.commitTransaction();
        }
        open = Txn.producer(broker, "tool-open", Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 120_000));
        open.initTransactions();
        open.beginTransaction();
        open.send(new ProducerRecord<>(TOPIC, 0, "k", "open-0")).get(20, TimeUnit.SECONDS); // offset 2
        open.send(new ProducerRecord<>(TOPIC, 1, "k", "open-1")).get(20, TimeUnit.SECONDS); // offset 0
    }

    @AfterAll
    static void stop() {
        if (open != null) {
            open.close(Duration.ofSeconds(5));
        }
        if (target != null) {
            target.close();
        }
        Exit.resetExitProcedure();
    }

    /** Runs the tool as {@code kafka-transactions.sh --bootstrap-server ... args}; its output as table rows. */
    static List<List<String>> run(Time time, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrap()));
        all.addAll(List.of(args));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Method execute = TransactionsCommand.class.getDeclaredMethod("execute", String[].class, Function.class,
                PrintStream.class, Time.class);
        execute.setAccessible(true);
        List<Admin> admins = new ArrayList<>();
        Function<Object, Admin> adminSupplier = ns -> {
            Admin a = broker.admin();
            admins.add(a);
            return a;
        };
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            execute.invoke(null, all.toArray(String[]::new), adminSupplier, out, time);
            throw new AssertionError("the tool returned without Exit.exit");
        } catch (InvocationTargetException e) {
            if (!(e.getCause() instanceof ToolExit exit)) {
                throw e;
            }
            if (exit.code != 0) {
                throw exit;
            }
        } finally {
            admins.forEach(a -> a.close(Duration.ofSeconds(5)));
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        List<List<String>> rows = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                rows.add(Arrays.asList(line.trim().split("\\s+")));
            }
        }
        return rows;
    }

    static List<List<String>> run(String... args) throws Exception {
        return run(Time.SYSTEM, args);
    }

    private static Optional<List<String>> row(List<List<String>> table, int column, String value) {
        return table.stream().skip(1).filter(r -> r.get(column).equals(value)).findFirst();
    }

    private static TransactionDescription describe(String id) throws Exception {
        try (Admin admin = broker.admin()) {
            return admin.describeTransactions(List.of(id)).description(id).get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void listShowsEveryTransactionalIdWithItsState() throws Exception {
        List<List<String>> table = run("list");
        assertThat(table.get(0)).containsExactly("TransactionalId", "Coordinator", "ProducerId", "TransactionState");
        String brokerId = String.valueOf(target.brokerId());
        assertThat(row(table, 0, "tool-open")).get().isEqualTo(List.of("tool-open", brokerId,
                String.valueOf(describe("tool-open").producerId()), "Ongoing"));
        assertThat(row(table, 0, "tool-done")).get().isEqualTo(List.of("tool-done", brokerId,
                String.valueOf(describe("tool-done").producerId()), "CompleteCommit"));

        List<List<String>> longRunning = run("list", "--duration-filter", "3600000");
        assertThat(longRunning.get(0)).containsExactly("TransactionalId", "Coordinator", "ProducerId", "TransactionState");
        assertThat(longRunning).as("nothing has run for an hour").hasSize(1);
    }

    /** What {@code list} runs on: ListTransactions with Kafka's state and producer-id filters (Admin). */
    @Test
    void listTransactionsFiltersByStateAndProducerId() throws Exception {
        long openPid = describe("tool-open").producerId();
        try (Admin admin = broker.admin()) {
            assertThat(admin.listTransactions(new ListTransactionsOptions().filterStates(List.of(TransactionState.ONGOING)))
                    .all().get(20, TimeUnit.SECONDS)).extracting(TransactionListing::transactionalId)
                    .contains("tool-open").doesNotContain("tool-done");
            assertThat(admin.listTransactions(new ListTransactionsOptions()
                    .filterStates(List.of(TransactionState.COMPLETE_COMMIT))).all().get(20, TimeUnit.SECONDS))
                    .extracting(TransactionListing::transactionalId).contains("tool-done").doesNotContain("tool-open");
            assertThat(admin.listTransactions(new ListTransactionsOptions().filterProducerIds(List.of(openPid)))
                    .all().get(20, TimeUnit.SECONDS)).extracting(TransactionListing::transactionalId)
                    .containsExactly("tool-open");
            assertThat(admin.listTransactions(new ListTransactionsOptions().filterProducerIds(List.of(openPid))
                    .filterStates(List.of(TransactionState.COMPLETE_ABORT))).all().get(20, TimeUnit.SECONDS)).isEmpty();
        }
    }

    @Test
    void describeShowsTheOpenTransaction() throws Exception {
        List<List<String>> table = run("describe", "--transactional-id", "tool-open");
        assertThat(table.get(0)).containsExactly("CoordinatorId", "TransactionalId", "ProducerId", "ProducerEpoch",
                "TransactionState", "TransactionTimeoutMs", "CurrentTransactionStartTimeMs", "TransactionDurationMs",
                "TopicPartitions");
        List<String> r = table.get(1);
        TransactionDescription d = describe("tool-open");
        assertThat(r.subList(0, 6)).containsExactly(String.valueOf(target.brokerId()), "tool-open",
                String.valueOf(d.producerId()), String.valueOf(d.producerEpoch()), "Ongoing", "120000");
        long start = Long.parseLong(r.get(6));
        assertThat(start).isBetween(System.currentTimeMillis() - 120_000, System.currentTimeMillis());
        assertThat(Long.parseLong(r.get(7))).isNotNegative();
        assertThat(r.get(8).split(",")).containsExactlyInAnyOrder(TOPIC + "-0", TOPIC + "-1");

        ToolExit unknown = catchThrowableOfType(ToolExit.class, () -> run("describe", "--transactional-id", "no-such-tx"));
        assertThat(unknown.code).isEqualTo(1);
        assertThat(unknown.getMessage()).contains("Failed to describe transaction state of transactional-id `no-such-tx`");
        ExecutionException notFound = catchThrowableOfType(ExecutionException.class, () -> describe("no-such-tx"));
        assertThat(notFound.getCause()).isInstanceOf(TransactionalIdNotFoundException.class);
    }

    @Test
    void describeProducersShowsTheOpenTransactionsStartOffset() throws Exception {
        List<List<String>> table = run("describe-producers", "--topic", TOPIC, "--partition", "0");
        assertThat(table.get(0)).containsExactly("ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence",
                "LastTimestamp", "CurrentTransactionStartOffset");
        TransactionDescription openTxn = describe("tool-open");
        List<String> openRow = row(table, 0, String.valueOf(openTxn.producerId())).orElseThrow();
        assertThat(openRow.get(1)).isEqualTo(String.valueOf(openTxn.producerEpoch()));
        assertThat(openRow.get(3)).as("one record, sequence 0").isEqualTo("0");
        assertThat(Long.parseLong(openRow.get(4))).isBetween(System.currentTimeMillis() - 120_000, System.currentTimeMillis());
        assertThat(openRow.get(5)).as("the open transaction starts at offset 2").isEqualTo("2");
        List<String> doneRow = row(table, 0, String.valueOf(describe("tool-done").producerId())).orElseThrow();
        assertThat(doneRow.get(5)).as("tool-done has no open transaction").isEqualTo("None");
        assertThat(table).hasSize(3);
    }

    @Test
    void findHangingFindsNoneWhileTheCoordinatorKnowsTheOpenTransaction() throws Exception {
        List<String> headers = List.of("Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch",
                "StartOffset", "LastTimestamp", "Duration(min)");
        assertThat(run("find-hanging", "--broker-id", String.valueOf(target.brokerId())))
                .containsExactly(headers);
        // an hour later the open transaction is past the tool's 15-minute limit: the tool then asks the coordinator
        // (ListTransactions by producer id, DescribeTransactions), which still holds both its partitions
        assertThat(run(new ShiftedTime(TimeUnit.HOURS.toMillis(1)), "find-hanging", "--broker-id",
                String.valueOf(target.brokerId()))).containsExactly(headers);
        assertThat(run(new ShiftedTime(TimeUnit.HOURS.toMillis(1)), "find-hanging", "--topic", TOPIC))
                .containsExactly(headers);
    }

    @Test
    void abortEndsAnOpenTransactionOnAPartition() throws Exception {
        String topic = "tool-abort";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> plain = broker.producer();
             KafkaProducer<String, String> stuck = Txn.producer(broker, "tool-abort-tx",
                     Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 120_000))) {
            plain.send(new ProducerRecord<>(topic, 0, "k", "before")).get(20, TimeUnit.SECONDS); // offset 0
            stuck.initTransactions();
            stuck.beginTransaction();
            stuck.send(new ProducerRecord<>(topic, 0, "k", "stuck")).get(20, TimeUnit.SECONDS); // offset 1
            plain.send(new ProducerRecord<>(topic, 0, "k", "after")).get(20, TimeUnit.SECONDS); // offset 2
            assertThat(endOffset(tp, IsolationLevel.READ_COMMITTED)).isEqualTo(1);

            ToolExit wrongOffset = catchThrowableOfType(ToolExit.class,
                    () -> run("abort", "--topic", topic, "--partition", "0", "--start-offset", "0"));
            assertThat(wrongOffset.code).isEqualTo(1);
            assertThat(wrongOffset.getMessage())
                    .contains("Could not find any open transactions starting at offset 0 on partition " + tp);

            assertThat(run("abort", "--topic", topic, "--partition", "0", "--start-offset", "1")).isEmpty();
            Awaitility.await("the ABORT marker at offset 3").atMost(Duration.ofSeconds(20))
                    .until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 4);
            assertThat(Txn.values(Txn.readAll(broker, Txn.READ_COMMITTED, List.of(tp), Duration.ofSeconds(10))))
                    .containsExactly("before", "after");
            List<List<String>> producers = run("describe-producers", "--topic", topic, "--partition", "0");
            assertThat(producers.stream().skip(1).map(r -> r.get(5))).as("no open transaction left").containsOnly("None");
        }
    }

    private static long endOffset(TopicPartition tp, IsolationLevel isolation) throws Exception {
        try (Admin admin = broker.admin()) {
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                    .partitionResult(tp).get(20, TimeUnit.SECONDS).offset();
        }
    }

    /** The system clock moved forward by {@code shiftMs}, as the tool sees time. */
    private record ShiftedTime(long shiftMs) implements Time {
        @Override
        public long milliseconds() {
            return Time.SYSTEM.milliseconds() + shiftMs;
        }

        @Override
        public long nanoseconds() {
            return Time.SYSTEM.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(shiftMs);
        }

        @Override
        public void sleep(long ms) {
            Time.SYSTEM.sleep(ms);
        }

        @Override
        public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) throws InterruptedException {
            Time.SYSTEM.waitObject(obj, condition, deadlineMs - shiftMs);
        }
    }
}
