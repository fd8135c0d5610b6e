package io.kaas.broker.it.auth;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.AclCommand;

/**
 * Runs {@code kafka-acls} (Kafka 4.1's {@code org.apache.kafka.tools.AclCommand}, the class the script runs) in
 * this JVM, with its output captured and its {@code Exit.exit} turned into a result instead of ending the JVM.
 * One run at a time (it swaps {@code System.out}).
 */
final class KafkaAclsTool {
    record Run(int exitCode, String out) {
    }

    private static final class Exited extends RuntimeException {
        final int code;

        Exited(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    private KafkaAclsTool() {
    }

    static synchronized Run run(String bootstrap, String... args) {
        List<String> command = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
        command.addAll(List.of(args));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        int code = 0;
        Exit.setExitProcedure((status, message) -> {
            throw new Exited(status);
        });
        System.setOut(capture);
        System.setErr(capture);
        try {
            AclCommand.main(command.toArray(String[]::new));
        } catch (Exited e) {
            code = e.code;
        } finally {
            System.setOut(out);
            System.setErr(err);
            Exit.resetExitProcedure();
        }
        return new Run(code, captured.toString(StandardCharsets.UTF_8));
    }
}
